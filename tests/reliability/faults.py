#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Allocation failures on the nf_tables transaction path during nftlab bulk loads.

Needs a kernel with CONFIG_FAILSLAB (the debug lab kernel); run as root in
a network namespace of its own.  One bulk load (a table with a hash, an
rbtree and a pipapo set of --elements elements each, and a rule) is sent by
`nftlab -f -` over and over; each time the N-th slab allocation of the
nftlab task fails (/proc/PID/fail-nth, set after nftlab started and before
it reads its script, so the failures fall on parsing, netlink and the
kernel's handling of the batch, which runs in the sender's context).  N
goes 1, 2, ... 48, then grows by an eighth each run until several runs in a
row have nothing left to fail.

Every run must end in one of two ways:
  applied  exit 0 and the ruleset is the complete load (an allocation that
           has a fallback may fail without an error);
  refused  exit 1 with a message on stderr, and the ruleset is the one
           before (table inet keep alone, unchanged).
Anything else (a partial ruleset, exit 0 with the table missing, exit 2, a
signal) fails the test.  Leaks are kmemleak's to find: the guest script
scans after all tests.  Output: TAP, the report (JSON) in --report.
"""
import argparse
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "nft_concat_range"))
from nftbench.tap import Tap  # noqa: E402

FAILSLAB = "/sys/kernel/debug/failslab"
KEEP = """table inet keep {
	set allow { type ipv4_addr; flags interval; elements = { 10.9.0.0/16, 192.0.2.7 } }
	chain in { type filter hook input priority 0; ip saddr @allow accept }
}
"""


def bulk_script(n):
    return "\n".join([
        "table add inet bulk",
        "set add inet bulk h --type 'ipv4_addr . inet_service'",
        "element add inet bulk h --gen 'addr4 . port' --count %d" % n,
        "set add inet bulk r --type ipv4_addr --flags interval",
        "element add inet bulk r --gen addr4 --count %d --range-size 3" % n,
        "set add inet bulk p --type 'ipv4_addr . inet_service' --flags interval",
        "element add inet bulk p --gen 'addr4 . port' --count %d --range-size 1" % n,
        "chain add inet bulk in --hook input --priority 0",
        "rule add inet bulk in --set h --counter --verdict accept",
        ""])


def nft(*args):
    p = subprocess.run(["nft"] + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        raise RuntimeError("nft %s: %s" % (" ".join(args), p.stderr.strip()))
    return p.stdout


def canonical(listing_json):
    """The ruleset without handles, each set's elements sorted: equal
    rulesets compare equal whatever order the kernel lists them in."""
    out = []
    for obj in json.loads(listing_json)["nftables"]:
        if "metainfo" in obj:
            continue
        ((kind, body),) = obj.items()
        body = {k: v for k, v in body.items() if k != "handle"}
        if "elem" in body:
            body["elem"] = sorted(json.dumps(e, sort_keys=True) for e in body["elem"])
        out.append((kind, json.dumps(body, sort_keys=True)))
    return sorted(out)


def write(path, value):
    with open(path, "w") as f:
        f.write(str(value))


def run_once(nftlab, script, nth):
    """One bulk load with the NTH allocation failing (0: none); returns
    (exit status, stderr)."""
    p = subprocess.Popen([nftlab, "-f", "-"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if nth:
        write("/proc/%d/fail-nth" % p.pid, nth)
    out, err = p.communicate(script)
    return p.returncode, err


def schedule(first=48, grow=1.125):
    n = 1
    while True:
        yield n
        n = n + 1 if n < first else max(n + 1, int(n * grow))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--nftlab", required=True, help="the nftlab binary")
    ap.add_argument("--elements", type=int, default=1000, help="elements per set (default 1000)")
    ap.add_argument("--max-runs", type=int, default=300)
    ap.add_argument("--report", help="write the JSON report here")
    args = ap.parse_args(argv)
    tap = Tap()
    report = {"elements": args.elements, "runs": []}

    if not os.path.isdir(FAILSLAB):
        tap.ok(False, "faults: %s exists (a kernel with CONFIG_FAILSLAB)" % FAILSLAB)
        print("1..%d" % tap.n)
        return 1
    # GFP_KERNEL allocations are exempt by default; nf_tables makes those.
    write(FAILSLAB + "/ignore-gfp-wait", "N")
    # One line per injected failure in the log, not a stack dump each.
    write(FAILSLAB + "/verbose", 1)
    script = bulk_script(args.elements)
    subprocess.run(["nft", "delete", "table", "inet", "bulk"], stderr=subprocess.DEVNULL)
    subprocess.run(["nft", "delete", "table", "inet", "keep"], stderr=subprocess.DEVNULL)
    subprocess.run(["nft", "-f", "-"], input=KEEP, text=True, check=True)
    before = canonical(nft("-j", "list", "ruleset"))

    rc, err = run_once(args.nftlab, script, 0)
    tap.ok(rc == 0, "faults: the bulk load applies without failures", err)
    full = canonical(nft("-j", "list", "ruleset"))
    nft("delete", "table", "inet", "bulk")
    tap.ok(canonical(nft("-j", "list", "ruleset")) == before,
           "faults: deleting the table restores the ruleset")

    counts = {"applied": 0, "refused": 0, "bad": 0}
    clean_streak = 0
    start = time.monotonic()
    for i, nth in enumerate(schedule()):
        if i >= args.max_runs or clean_streak >= 4:
            break
        rc, err = run_once(args.nftlab, script, nth)
        # Cheap check first: a refused load leaves no table bulk.
        tables = nft("list", "tables")
        if rc == 0 and "inet bulk" in tables:
            ok = canonical(nft("-j", "list", "ruleset")) == full
            outcome = "applied" if ok else "bad"
            nft("delete", "table", "inet", "bulk")
            clean_streak += 1
        elif rc == 1 and err.strip() and "inet bulk" not in tables:
            ok = canonical(nft("-j", "list", "ruleset")) == before
            outcome = "refused" if ok else "bad"
            clean_streak = 0
        else:
            outcome = "bad"
            subprocess.run(["nft", "delete", "table", "inet", "bulk"], stderr=subprocess.DEVNULL)
        counts[outcome] += 1
        first_line = err.strip().splitlines()[0] if err.strip() else ""
        report["runs"].append({"fail_nth": nth, "exit": rc, "outcome": outcome, "stderr": first_line})
        if outcome == "bad":
            tap.ok(False, "faults: allocation %d fails: applied or refused, nothing between" % nth,
                   "exit %d, stderr: %s\ntables: %s" % (rc, err.strip()[:500], tables.strip()))
    report.update(counts)
    report["seconds"] = round(time.monotonic() - start, 1)
    runs = len(report["runs"])
    print("# faults: %d runs in %.0fs: %d refused (ruleset unchanged), %d applied, %d bad; "
          "last fail-nth %d" % (runs, report["seconds"], counts["refused"], counts["applied"],
                                counts["bad"], report["runs"][-1]["fail_nth"] if runs else 0))
    tap.ok(counts["bad"] == 0 and counts["refused"] > 0,
           "faults: %d bulk loads with one failing allocation each: %d refused with the ruleset "
           "unchanged, %d applied, none half-applied" % (runs, counts["refused"], counts["applied"]))
    tap.ok(clean_streak >= 4, "faults: the sweep reached the end of the load's allocations",
           "stopped after %d runs with fail-nth %d" % (runs, report["runs"][-1]["fail_nth"]))
    messages = sorted({r["stderr"] for r in report["runs"] if r["outcome"] == "refused"})
    report["messages"] = messages
    for m in messages[:10]:
        print("# faults: message: %s" % m)
    if args.report:
        with open(args.report, "w") as f:
            json.dump(report, f, indent=1)
    nft("delete", "table", "inet", "keep")
    print("1..%d" % tap.n)
    return tap.status()


if __name__ == "__main__":
    sys.exit(main())
