#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Usage: tests/results/check-results.py

The results policy of docs/results/ (its README.md), as TAP:
- no stored run over 1 MB, docs/results/ at most 3.5 MB;
- every stored run is cited by name in a file outside it, or its line in
  docs/results/README.md says why it stays ("Kept: ..."); that list names
  every stored run and no other; every run directory has a README.md;
- every "[[include PATH]]" line of the tree names a file that exists;
- each base's stored cover letter holds its blurb (kernel/builder/bases/:
  "blurb:"), includes expanded as they are today;
- every stored report renders again, byte for byte, from the files kept:
  bench reports (nft_concat_range/bench report) and the excerpts cut
  from them (series-figures --bench-table/--bench-backend), T0 reports
  (t0.py report) and their per-patch excerpts (series-figures), commit-cost
  reports (commit-cost --render), t0.py commit reports (t0.py commit
  --render), userspace-bench tables (bench.sh
  --report), smp-noise reports (smp-noise --render), kselftest comparisons
  (tests/lab/kselftest_compare.py --render).  Each renderer runs
  on a copy in a temporary directory.

Run from any directory; it checks the tree it is part of."""
import json
import os
import re
import runpy
import shutil
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
runpy.run_path(os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..", "lib", "bootstrap.py"))
import bases as baselib  # noqa: E402
import expand_includes as expand  # noqa: E402
import rundir  # noqa: E402
import tap as taplib  # noqa: E402

RESULTS = "docs/results"
RUN_MAX = 1000 * 1000
TOTAL_MAX = 3500 * 1000
BENCH = os.path.join(TOP, "nft_concat_range", "bench")
T0PY = os.path.join(TOP, "nft_concat_range", "t0.py")
COMMIT_COST = os.path.join(TOP, "nft_concat_range", "commit-cost")
FIGURES = os.path.join(TOP, "kernel", "series", "series-figures")
USERSPACE_BENCH = os.path.join(TOP, "userspace", "bench.sh")
OPEN_INTERVAL_REPORT = os.path.join(TOP, "tests", "reliability", "open-interval-report.py")
SMP_NOISE = os.path.join(TOP, "nft_concat_range", "smp-noise")
KSELFTEST_COMPARE = os.path.join(TOP, "tests", "lab", "kselftest_compare.py")
INCLUDE_RE = re.compile(rb"^\[\[include (\S+)\]\]$", re.M)
LISTED_RE = re.compile(r"^- `([^`/]+)/?`")
EXCERPT_RE = re.compile(r"^t(\d+)(?:-(\w+))?-excerpt\.txt$")
DELTA_RE = re.compile(r"series-figures --delta (\d+) (docs/results/[\w.-]+) DIR DIR/series/(delta-\d+\.txt)")
# t0.py compare RUN... [--lookups B | --cells B | --function F] [--posting] --out
# DIR/compare*.txt (or DIR/series/lookups*.txt, cells*.txt or function*.txt, the tables a commit
# message includes), RUN a stored run or DIR (this one)
COMPARE_RE = re.compile(r"t0\.py compare ((?:(?:docs/results/[\w.-]+|DIR) )+)(?:(--lookups|--cells|--function) ([\w,]+) )?"
                        r"(--posting )?--out DIR/(compare[\w.-]*\.txt|series/(?:lookups|cells|function)[\w.-]*\.txt)")


def tree_files():
    """Every file of the tree that would be committed: tracked, or new and
    not ignored (what `git add -A` takes), build/ aside."""
    out = subprocess.run(["git", "-C", TOP, "ls-files", "-z", "-co", "--exclude-standard"],
                         check=True, stdout=subprocess.PIPE).stdout.decode()
    return sorted(f for f in out.split("\0") if f and not f.startswith("build/") and
                  os.path.isfile(os.path.join(TOP, f)))


def run_of(path):
    """The stored run a path under docs/results/ belongs to: its top-level
    directory (a top-level file stands for itself, and the naming check
    refuses it); None for the README."""
    rest = path[len(RESULTS) + 1:]
    if rest == "README.md":
        return None
    return rest.split("/", 1)[0]


def cites(text, name):
    """Whether TEXT names run NAME as a word of its own (not a longer name)."""
    return re.search(rb"(?<![\w-])" + re.escape(name.encode()) + rb"(?![\w-])", text) is not None


def same(got, want):
    """(equal, diagnostic) of two files' bytes."""
    try:
        with open(got, "rb") as f:
            a = f.read()
    except OSError as e:
        return False, "not rendered: %s" % e
    with open(want, "rb") as f:
        b = f.read()
    if a == b:
        return True, None
    al, bl = a.decode(errors="replace").splitlines(), b.decode(errors="replace").splitlines()
    i = next((i for i, (x, y) in enumerate(zip(al, bl)) if x != y), min(len(al), len(bl)))
    return False, "first difference at line %d:\nstored:   %s\nrendered: %s" % (
        i + 1, bl[i] if i < len(bl) else "(end)", al[i] if i < len(al) else "(end)")


def render(cmd, **kw):
    """Runs a renderer; None, or its failure as a diagnostic."""
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=TOP, **kw)
    return None if r.returncode == 0 else "%s exited %d:\n%s" % (" ".join(cmd), r.returncode, r.stdout[-1500:])


def check_render(tap, desc, cmd, pairs):
    """One TAP line: CMD succeeds and every (rendered, stored) pair is equal."""
    err = render(cmd)
    if err:
        return tap.ok(False, desc, err)
    for got, want in pairs:
        ok, diag = same(got, want)
        if not ok:
            return tap.ok(False, desc, "%s: %s" % (os.path.relpath(want, TOP), diag))
    return tap.ok(True, desc)


def copy_run(src, tmp):
    dst = os.path.join(tmp, os.path.basename(src))
    shutil.copytree(src, dst)
    return dst


def check_bench(tap, tmp, name, src):
    """A bench report from its results.json (SRC: the run directory) and
    the excerpts cut from it."""
    d = copy_run(src, tmp)
    check_render(tap, "%s: report.md renders again from what is stored (nft_concat_range/bench report)" % name,
                 [sys.executable, BENCH, "report", "--quiet", d],
                 [(os.path.join(d, "report.md"), os.path.join(src, "report.md"))])
    for f in sorted(os.listdir(src)):
        m = EXCERPT_RE.match(f)
        if not m:
            continue
        os.remove(os.path.join(d, f))
        table = "T" + m.group(1)
        args = ["--bench-backend", table, m.group(2)] if m.group(2) else ["--bench-table", table]
        check_render(tap, "%s: %s renders again from report.md (series-figures %s)" % (name, f, " ".join(args)),
                     [sys.executable, FIGURES] + args + [d], [(os.path.join(d, f), os.path.join(src, f))])


def check_t0(tap, tmp, name, src):
    """A T0 report from its t0.json, and the series/ excerpts from it."""
    d = copy_run(src, tmp)
    check_render(tap, "%s: t0/t0.md renders again from t0/t0.json (t0.py report)" % name,
                 [sys.executable, T0PY, "report", "--quiet", d],
                 [(os.path.join(d, "t0", "t0.md"), os.path.join(src, "t0", "t0.md"))])
    series = os.path.join(src, "series")
    stored = sorted(os.listdir(series)) if os.path.isdir(series) else []
    patches = [f for f in stored if re.match(r"^patch-\d+\.txt$", f)]
    if patches:
        out = os.path.join(tmp, name + "-series")
        check_render(tap, "%s: series/%s render again from t0.json (series-figures)" % (name, ", ".join(patches)),
                     [sys.executable, FIGURES, d, out],
                     [(os.path.join(out, f), os.path.join(series, f)) for f in patches])
    if "hooks.txt" in stored:
        out = os.path.join(tmp, name + "-hooks.txt")
        check_render(tap, "%s: series/hooks.txt renders again (series-figures --hooks)" % name,
                     [sys.executable, FIGURES, "--hooks", d, out], [(out, os.path.join(series, "hooks.txt"))])
    for f in (f for f in stored if f.startswith("delta-")):
        # the run before the patch is another stored run: the README's
        # command names it
        readme = os.path.join(src, "README.md")
        text = " ".join(open(readme).read().replace("`", " ").split()) if os.path.isfile(readme) else ""
        m = next((m for m in DELTA_RE.finditer(text) if m.group(3) == f), None)
        if not m:
            tap.ok(False, "%s: series/%s renders again (series-figures --delta)" % (name, f),
                   "README.md gives no 'series-figures --delta N docs/results/BEFORE DIR DIR/series/%s'" % f)
            continue
        out = os.path.join(tmp, name + "-" + f)
        check_render(tap, "%s: series/%s renders again (series-figures --delta %s %s)" % (
            name, f, m.group(1), m.group(2)),
            [sys.executable, FIGURES, "--delta", m.group(1), os.path.join(TOP, m.group(2)), d, out],
            [(out, os.path.join(series, f))])
    check_t0_compare(tap, tmp, name, src, d)


def check_t0_compare(tap, tmp, name, src, d):
    """Each compare*.txt of a T0 run from the t0.json files it names (the
    command in the run's README)."""
    readme = os.path.join(src, "README.md")
    text = " ".join(open(readme).read().replace("`", " ").split()) if os.path.isfile(readme) else ""
    series = os.path.join(src, "series")
    files = [f for f in os.listdir(src) if f.startswith("compare") and f.endswith(".txt")]
    if os.path.isdir(series):
        files += ["series/" + f for f in os.listdir(series)
                  if f.startswith(("lookups", "cells", "function")) and f.endswith(".txt")]
    for f in sorted(files):
        m = next((m for m in COMPARE_RE.finditer(text) if m.group(5) == f), None)
        if not m:
            tap.ok(False, "%s: %s renders again (t0.py compare)" % (name, f),
                   "README.md gives no 't0.py compare RUN... [--lookups B | --cells B | --function F] --out DIR/%s'" % f)
            continue
        runs = [d if r == "DIR" else os.path.join(TOP, r) for r in m.group(1).split()]
        lookups = ([m.group(2), m.group(3)] if m.group(2) else []) + (["--posting"] if m.group(4) else [])
        out = os.path.join(tmp, name + "-" + f.replace("/", "-"))
        check_render(tap, "%s: %s renders again (t0.py compare %s)" % (name, f, m.group(1).strip()),
                     [sys.executable, T0PY, "compare", "--out", out] + lookups + runs,
                     [(out, os.path.join(src, f))])


def check_commit_cost(tap, tmp, name, src):
    d = copy_run(src, tmp)
    # excerpt-posting.txt and boots.txt: runs stored since they were added
    rendered = [f for f in ("report.md", "excerpt.txt", "excerpt-posting.txt", "boots.txt")
                if f in ("report.md", "excerpt.txt") or os.path.exists(os.path.join(src, f))]
    for f in rendered:
        if os.path.exists(os.path.join(d, f)):
            os.remove(os.path.join(d, f))
    check_render(tap, "%s: %s render again (commit-cost --render)" % (name, " and ".join(rendered)),
                 [sys.executable, COMMIT_COST, "--render", d],
                 [(os.path.join(d, f), os.path.join(src, f)) for f in rendered])


def check_commit_count(tap, tmp, name, src):
    """A t0.py commit report and its posting table from t0/commit.json."""
    d = copy_run(src, tmp)
    rendered = ("commit.md", "commit-posting.txt")
    for f in rendered:
        os.remove(os.path.join(d, "t0", f))
    check_render(tap, "%s: t0/%s render again (t0.py commit --render)" % (name, " and ".join(rendered)),
                 [sys.executable, T0PY, "commit", "--render", "--results", d],
                 [(os.path.join(d, "t0", f), os.path.join(src, "t0", f)) for f in rendered])


def check_userspace_bench(tap, tmp, name, src):
    d = copy_run(src, tmp)
    for f in ("results.txt", "results.jsonl"):
        os.remove(os.path.join(d, f))
    check_render(tap, "%s: results.txt and results.jsonl render again (userspace/bench.sh --report)" % name,
                 ["bash", USERSPACE_BENCH, "--report", d],
                 [(os.path.join(d, f), os.path.join(src, f)) for f in ("results.txt", "results.jsonl")])


def check_open_interval(tap, tmp, name, src):
    d = copy_run(src, tmp)
    with open(os.path.join(d, "results.json")) as f:
        kernels = json.load(f)["order"]
    for f in ("report.md", "results.json"):
        os.remove(os.path.join(d, f))
    check_render(tap, "%s: report.md and results.json render again (open-interval-report.py)" % name,
                 [sys.executable, OPEN_INTERVAL_REPORT, d] + kernels,
                 [(os.path.join(d, f), os.path.join(src, f)) for f in ("report.md", "results.json")])


def report_renderer(program, label):
    """The check of a run whose report.md PROGRAM --render DIR writes
    again from the run's own files (smp-noise, kselftest comparisons)."""
    def check(tap, tmp, name, src):
        d = copy_run(src, tmp)
        os.remove(os.path.join(d, "report.md"))
        check_render(tap, "%s: report.md renders again (%s --render)" % (name, label),
                     [sys.executable, program, "--render", d],
                     [(os.path.join(d, "report.md"), os.path.join(src, "report.md"))])
    return check


def check_cover_letters(tap):
    """Each base's stored cover letter holds its blurb as the blurb expands
    today: a blurb or an included table edited without make-cover-letter
    would otherwise leave the posted text behind."""
    for base in baselib.names():
        fields = baselib.fields(base)
        if "blurb" not in fields:
            continue
        letter = os.path.join(fields["patches"], "0000-cover-letter.patch")
        with open(os.path.join(TOP, fields["blurb"])) as f:
            body = expand.split_blurb(f.read(), "")[1]
        with open(os.path.join(TOP, letter)) as f:
            text = f.read()
        what = "%s: %s holds %s as it expands today" % (base, letter, fields["blurb"])
        try:
            expanded = expand.expand(body, fields["blurb"])
        except expand.MissingInclude as e:
            tap.ok(False, what, str(e))
            continue
        tap.ok(expanded in text, what,
               "regenerate it: NFTLAB_BASE=%s kernel/series/make-cover-letter" % base)


# What a run of each tool must keep: its report and the data it renders
# from.
SOURCES = {"bench": ("results.json", "report.md"), "t0": ("t0/t0.json", "t0/t0.md"),
           "commit-cost": ("run.json", "report.md", "excerpt.txt"),
           "commit-count": ("t0/commit.json", "t0/commit.md", "t0/commit-posting.txt"),
           "userspace-bench": ("runs.tsv", "env.txt", "results.txt", "results.jsonl"),
           "open-interval": ("report.md", "results.json"), "smp-noise": ("report.md", "results.json"),
           "kselftests": ("report.md", "results.json")}


def tool_of(name):
    """The tool that wrote run NAME (lib/rundir.py), None for a name
    without the form."""
    parts = rundir.parse(name)
    return parts and parts["tool"]


def lacks(name, files):
    """The files run NAME must keep (SOURCES) that are not among FILES."""
    need = SOURCES.get(tool_of(name), ())
    return [f for f in ("%s/%s/%s" % (RESULTS, name, n) for n in need) if f not in files]


# The renderer of each tool's stored runs but bench's (which needs
# ministat and gnuplot).
RENDERERS = {"t0": check_t0, "commit-cost": check_commit_cost, "commit-count": check_commit_count,
             "userspace-bench": check_userspace_bench, "open-interval": check_open_interval,
             "smp-noise": report_renderer(SMP_NOISE, "smp-noise"),
             "kselftests": report_renderer(KSELFTEST_COMPARE, "kselftest_compare.py")}


def check_renders(tap, runs):
    missing = [t for t in ("ministat", "gnuplot") if not shutil.which(t)]
    res = os.path.join(TOP, RESULTS)
    with tempfile.TemporaryDirectory(prefix="check-results.") as tmp:
        for name in sorted(runs):
            src = os.path.join(res, name)
            gone = lacks(name, runs[name])
            if gone:
                tap.ok(False, "%s: keeps its report and what it renders from" % name, "missing: %s" % ", ".join(gone))
            elif tool_of(name) == "bench":
                if missing:
                    tap.skip("%s: report.md renders again" % name, "%s not installed (make deps): the report"
                             " would say so instead of its charts and ministat's verdicts" % " and ".join(missing))
                else:
                    check_bench(tap, tmp, name, src)
            elif tool_of(name) in RENDERERS:
                RENDERERS[tool_of(name)](tap, tmp, name, src)


def main():
    if sys.argv[1:]:
        print(__doc__.split("\n")[0], file=sys.stderr)
        return 2
    tap = taplib.Tap()
    files = tree_files()
    stored = [f for f in files if f.startswith(RESULTS + "/")]
    runs = {}
    for f in stored:
        name = run_of(f)
        if name:
            runs.setdefault(name, []).append(f)

    def size(fs):
        return sum(os.path.getsize(os.path.join(TOP, f)) for f in fs)

    big = ["%s: %d bytes" % (n, size(fs)) for n, fs in sorted(runs.items()) if size(fs) > RUN_MAX]
    tap.ok(not big, "no stored run over %d bytes (%d runs)" % (RUN_MAX, len(runs)), "\n".join(big))
    total = size(stored)
    tap.ok(total <= TOTAL_MAX, "%s/ holds %d bytes, at most %d" % (RESULTS, total, TOTAL_MAX))

    readme = os.path.join(TOP, RESULTS, "README.md")
    listed = {}
    if os.path.isfile(readme):
        for line in open(readme):
            m = LISTED_RE.match(line)
            if m:
                listed[m.group(1)] = line.strip()
    tap.ok(listed and set(listed) == set(runs),
           "%s/README.md lists every stored run, and only those" % RESULTS,
           "not listed: %s\nlisted, not stored: %s" % (sorted(set(runs) - set(listed)),
                                                       sorted(set(listed) - set(runs))))
    nodoc = [n for n, fs in sorted(runs.items())
             if os.path.isdir(os.path.join(TOP, RESULTS, n)) and "%s/%s/README.md" % (RESULTS, n) not in fs]
    tap.ok(not nodoc, "every stored run directory has a README.md (command, host, kernels)", "\n".join(nodoc))
    bases = set(baselib.names()) | set(rundir.NOT_A_BASE)
    misnamed = [n for n in sorted(runs) if not (os.path.isdir(os.path.join(TOP, RESULTS, n)) and rundir.parse(n)
                                                 and rundir.parse(n)["base"] in bases)]
    tap.ok(not misnamed, "every stored run is a directory named <tool>-<base>-<tag>-<UTC> (lib/rundir.py),"
           " its base one of kernel/builder/bases/, both or host", "\n".join(misnamed))

    texts = {}
    for f in files:
        with open(os.path.join(TOP, f), "rb") as fh:
            texts[f] = fh.read()
    for name in sorted(runs):
        own = set(runs[name]) | {RESULTS + "/README.md"}
        by = [f for f, t in texts.items() if f not in own and cites(t, name)]
        kept = re.search(r"Kept: \S.{10,}", listed.get(name, ""))
        tap.ok(by or kept, "%s is cited outside itself or kept for a reason" % name,
               "no file outside %s/%s names it and its line in %s/README.md has no 'Kept: <why>'"
               % (RESULTS, name, RESULTS))

    broken = ["%s: %s" % (f, p.decode()) for f, t in texts.items() for p in INCLUDE_RE.findall(t)
              if not os.path.isfile(os.path.join(TOP, p.decode()))]
    tap.ok(not broken, "every [[include PATH]] of the tree names a file that exists", "\n".join(broken))

    check_cover_letters(tap)
    check_renders(tap, runs)
    return taplib.done(tap)


if __name__ == "__main__":
    sys.exit(main())
