#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Usage: tests/lab/kselftest_compare.py DIR TEST...
       tests/lab/kselftest_compare.py --render DIR

Compares the netfilter kselftests that tests/lab/kselftest-compare ran on
the baseline and the patched kernel (DIR/baseline/, DIR/patched/: each
has results.txt, "TEST RC SECONDS" per line, and TEST.log) and writes
DIR/results.json and DIR/report.md.

A test gives the same on both kernels when its exit status and its
result lines (those with PASS, FAIL, SKIP, OK or ok as a word) are equal
once the names that change from boot to boot are taken out: lib.sh's
namespaces (ns1-XXXXXX), mktemp's files, pids, wall-clock times and the
tests' own durations.  A test that did not finish on both kernels (124:
timeout) is "inconclusive", never "same": it proved nothing.

The kernel's own reports in each guest's log (DIR/KERNEL/splats/
splats.json, written by tests/reliability/splats.py) are listed too: a
kernel log that was not scanned, or any report, fails the comparison.

--render writes DIR/report.md again from DIR/results.json alone (what
tests/results/check-results.py does with a stored run) and exits 0.

Exit status: 0 when no test differs or is missing and neither kernel
reported anything, 1 otherwise."""
import json
import os
import re
import sys

SCHEMA = "nftlab-kselftests/1"
RESULT = re.compile(r"\b(PASS|FAIL|FAILED|SKIP|OK|ok)\b")
TIMEOUT = 124
KSFT_SKIP = 4
# (pattern, replacement), in this order: what changes from boot to boot.
VOLATILE = (
    (re.compile(r"\b\d{4}/\d\d/\d\d \d\d:\d\d:\d\d\b"), "TIME"),
    (re.compile(r"\b[A-Z][a-z]{2} +\d+ \d\d:\d\d\b"), "TIME"),
    (re.compile(r"/tmp/tmp\.[A-Za-z0-9]+"), "/tmp/tmp.X"),
    (re.compile(r"\b([a-z]+[0-9]*)-[A-Za-z0-9]{6}\b"), r"\1-X"),
    (re.compile(r"\[\d+\]"), "[PID]"),
    (re.compile(r"\(duration: \d+(\.\d+)?m?s\)"), "(duration: T)"),
)


def normalise(line):
    """line without what changes from boot to boot"""
    for pattern, repl in VOLATILE:
        line = pattern.sub(repl, line)
    return line.rstrip()


def result_lines(text):
    """the normalised result lines of a test's output, in order"""
    return [normalise(ln) for ln in text.splitlines() if RESULT.search(ln)]


def read_kernel(dirname):
    """{test: {"rc", "seconds", "results"}} of one kernel's guest"""
    runs = {}
    path = os.path.join(dirname, "results.txt")
    if not os.path.exists(path):
        return runs
    with open(path) as f:
        for line in f:
            test, rc, seconds = line.split()
            log = os.path.join(dirname, test + ".log")
            with open(log, errors="replace") as lf:
                runs[test] = {"rc": int(rc), "seconds": int(seconds),
                              "results": result_lines(lf.read())}
    return runs


def kernel_reports(dirname):
    """the reports splats.py found in a guest's kernel log, None when it
    was not scanned"""
    path = os.path.join(dirname, "splats", "splats.json")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return [r["first"] for r in json.load(f)["reports"]]


def tally(results):
    """PASS/FAIL/SKIP counts of a test's result lines"""
    counts = {"pass": 0, "fail": 0, "skip": 0}
    for line in results:
        word = RESULT.search(line).group(1)
        key = {"PASS": "pass", "OK": "pass", "ok": "pass",
               "SKIP": "skip"}.get(word, "fail")
        counts[key] += 1
    return counts


def verdict(base, patched):
    """same, differs, inconclusive or missing"""
    if base is None or patched is None:
        return "missing"
    if base["rc"] == TIMEOUT or patched["rc"] == TIMEOUT:
        return "differs" if base["rc"] != patched["rc"] else "inconclusive"
    if base["rc"] != patched["rc"] or base["results"] != patched["results"]:
        return "differs"
    return "same"


def compare(run, tests):
    kernels = {k: read_kernel(os.path.join(run, k)) for k in ("baseline", "patched")}
    rows = []
    for test in tests:
        b, p = kernels["baseline"].get(test), kernels["patched"].get(test)
        row = {"test": test, "verdict": verdict(b, p), "baseline": b, "patched": p}
        if row["verdict"] == "differs":
            row["only_baseline"] = [ln for ln in b["results"] if ln not in p["results"]]
            row["only_patched"] = [ln for ln in p["results"] if ln not in b["results"]]
        rows.append(row)
    return rows


def describe(side):
    if side is None:
        return "-"
    if side["rc"] == TIMEOUT:
        return "timeout"
    c = tally(side["results"])
    rc = "skip (4)" if side["rc"] == KSFT_SKIP else str(side["rc"])
    return "%s: %d/%d/%d" % (rc, c["pass"], c["fail"], c["skip"])


def report(rows, info, splats):
    out = ["# Netfilter kselftests, baseline against patched", ""]
    out += ["```"] + info + ["```", ""]
    for kernel, found in splats.items():
        if found is None:
            out.append("- %s kernel: its log was not scanned" % kernel)
        else:
            out.append("- %s kernel: %d kernel report(s)%s" % (
                kernel, len(found), "".join("\n  - `%s`" % r for r in found)))
    out.append("")
    out += ["| test | baseline | patched | verdict |", "|---|---|---|---|"]
    for r in rows:
        out.append("| %s | %s | %s | %s |" % (r["test"], describe(r["baseline"]),
                                              describe(r["patched"]), r["verdict"]))
    out += ["", "(exit status: PASS/FAIL/SKIP lines; \"same\": the same exit status "
            "and result lines, names, pids and times left out)"]
    for r in rows:
        if r["verdict"] != "differs":
            continue
        out += ["", "## %s differs" % r["test"], ""]
        out += ["exit status: baseline %d, patched %d" % (r["baseline"]["rc"], r["patched"]["rc"])]
        out += ["", "only on the baseline:", "```"] + r["only_baseline"] + ["```"]
        out += ["only on the patched kernel:", "```"] + r["only_patched"] + ["```"]
    counts = {}
    for r in rows:
        counts[r["verdict"]] = counts.get(r["verdict"], 0) + 1
    out += ["", "%d tests: %s" % (len(rows), ", ".join("%d %s" % (n, v) for v, n in sorted(counts.items())))]
    return "\n".join(out) + "\n"


def render(run):
    """DIR/report.md from DIR/results.json; the results"""
    with open(os.path.join(run, "results.json")) as f:
        res = json.load(f)
    text = report(res["tests"], res["info"], res["kernel_reports"])
    with open(os.path.join(run, "report.md"), "w") as f:
        f.write(text)
    print(text, end="")
    return res


def main(argv):
    if len(argv) == 3 and argv[1] == "--render":
        render(argv[2])
        return 0
    if len(argv) < 3 or argv[1].startswith("-"):
        sys.exit(__doc__)
    run, tests = argv[1], argv[2:]
    info_path = os.path.join(run, "run-info.txt")
    info = open(info_path).read().splitlines() if os.path.exists(info_path) else []
    splats = {k: kernel_reports(os.path.join(run, k)) for k in ("baseline", "patched")}
    with open(os.path.join(run, "results.json"), "w") as f:
        json.dump({"schema": SCHEMA, "info": info, "kernel_reports": splats,
                   "tests": compare(run, tests)}, f, indent=1)
        f.write("\n")
    res = render(run)
    bad = [r for r in res["tests"] if r["verdict"] in ("differs", "missing")]
    return 1 if bad or any(found != [] for found in res["kernel_reports"].values()) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
