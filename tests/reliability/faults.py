#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Allocation failures on the nf_tables transaction path during nftlab bulk loads.

Needs a kernel with CONFIG_FAILSLAB (the debug lab kernel); run as root in
a network namespace of its own.  One bulk load (a table with a hash, an
rbtree and a pipapo set of --elements elements each, and a rule) is sent by
`nftlab -f FIFO` over and over; each time the N-th slab allocation of the
nftlab task fails (/proc/PID/fail-nth, set once nftlab opened its script,
so the failures fall on reading and parsing it, netlink and the kernel's
handling of the batch, which runs in the sender's context).  N
goes 1, 2, ... 48, then grows by an eighth each run until the load makes
fewer allocations than N (the task's fail-nth never counted down to 0).

Every run must end in one of two ways:
  absorbed exit 0 and the ruleset is the complete load (the allocation
           that failed had a fallback);
  refused  exit 1 with a message on stderr, and the ruleset is the one
           before (table inet keep alone, unchanged).
Anything else (a partial ruleset, exit 0 with the table missing, exit 2, a
signal) fails the test.  Leaks are kmemleak's to find: the guest script
scans after all tests.  Output: TAP, the report (JSON) in --report.
"""
import argparse
import json
import os
import runpy
import subprocess
import sys
import tempfile
import time

runpy.run_path(os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..", "lib", "bootstrap.py"))
from relab import report as relab_report  # noqa: E402
from tap import Tap, done  # noqa: E402

FAILSLAB = "/sys/kernel/debug/failslab"
KEEP = """table inet keep {
	set allow { type ipv4_addr; flags interval; elements = { 10.9.0.0/16, 192.0.2.7 }; }
	chain in { type filter hook input priority 0; ip saddr @allow accept; }
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


def run_once(nftlab, script, nth, fifo):
    """One bulk load with the NTH slab allocation of nftlab failing, counted
    from when nftlab opens its script (0: none).  nftlab reads the script
    from the FIFO: our open for writing returns once nftlab's open for
    reading came, so the dynamic loader's allocations are behind it (the
    lab's UML cannot say where a task sleeps: its get_wchan() trips KASAN).
    Returns (exit status, stderr, injected): injected is whether the NTH
    allocation came (the task's fail-nth counted down to 0), read from the
    exited task before it is reaped."""
    with tempfile.TemporaryFile(mode="w+") as err:
        p = subprocess.Popen([nftlab, "-f", fifo], stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=err, text=True)
        with open(fifo, "w") as w:
            if nth:
                write("/proc/%d/fail-nth" % p.pid, nth)
            try:
                w.write(script)
            except BrokenPipeError:
                pass
        os.waitid(os.P_PID, p.pid, os.WEXITED | os.WNOWAIT)
        with open("/proc/%d/fail-nth" % p.pid) as f:
            left = int(f.read().strip() or 0)
        rc = p.wait()
        err.seek(0)
        return rc, err.read(), bool(nth) and left == 0


def failslab_ready(tap, name):
    """Sets failslab up for fail-nth on the task's GFP_KERNEL allocations;
    False, with a failed check of test NAME, on a kernel without it."""
    if not os.path.isdir(FAILSLAB):
        # `ip netns exec` gives the namespace a sysfs of its own, without
        # debugfs (its mount namespace is private: mounting there is ours)
        subprocess.run(["mount", "-t", "debugfs", "debugfs", "/sys/kernel/debug"],
                       stderr=subprocess.DEVNULL)
    if not os.path.isdir(FAILSLAB):
        tap.ok(False, "%s: %s exists (a kernel with CONFIG_FAILSLAB)" % (name, FAILSLAB))
        return False
    # GFP_KERNEL allocations are exempt by default; nf_tables makes those.
    write(FAILSLAB + "/ignore-gfp-wait", "N")
    # One line per injected failure in the log, not a stack dump each.
    write(FAILSLAB + "/verbose", 1)
    return True


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

    if not failslab_ready(tap, "faults"):
        return done(tap)
    script = bulk_script(args.elements)
    subprocess.run(["nft", "delete", "table", "inet", "bulk"], stderr=subprocess.DEVNULL)
    subprocess.run(["nft", "delete", "table", "inet", "keep"], stderr=subprocess.DEVNULL)
    subprocess.run(["nft", "-f", "-"], input=KEEP, text=True, check=True)
    before = canonical(nft("-j", "list", "ruleset"))

    fifo = os.path.join(tempfile.mkdtemp(prefix="relab-faults."), "script")
    os.mkfifo(fifo)
    rc, err, _ = run_once(args.nftlab, script, 0, fifo)
    tap.ok(rc == 0, "faults: the bulk load applies without failures", err)
    full = canonical(nft("-j", "list", "ruleset"))
    nft("delete", "table", "inet", "bulk")
    tap.ok(canonical(nft("-j", "list", "ruleset")) == before,
           "faults: deleting the table restores the ruleset")

    counts = {"refused": 0, "absorbed": 0, "bad": 0}
    past_end = None
    start = time.monotonic()
    for i, nth in enumerate(schedule()):
        if i >= args.max_runs:
            break
        rc, err, injected = run_once(args.nftlab, script, nth, fifo)
        # Cheap check first: a refused load leaves no table bulk.
        tables = nft("list", "tables")
        if rc == 0 and "inet bulk" in tables:
            ok = canonical(nft("-j", "list", "ruleset")) == full
            nft("delete", "table", "inet", "bulk")
            # applied although the allocation failed: it had a fallback
            outcome = ("absorbed" if injected else "past-end") if ok else "bad"
        elif rc == 1 and err.strip() and "inet bulk" not in tables and injected:
            ok = canonical(nft("-j", "list", "ruleset")) == before
            outcome = "refused" if ok else "bad"
        else:
            outcome = "bad"
            subprocess.run(["nft", "delete", "table", "inet", "bulk"], stderr=subprocess.DEVNULL)
        first_line = err.strip().splitlines()[0] if err.strip() else ""
        report["runs"].append({"fail_nth": nth, "exit": rc, "injected": injected,
                               "outcome": outcome, "stderr": first_line})
        if outcome == "past-end":
            past_end = nth
            break
        counts[outcome] += 1
        if outcome == "bad":
            tap.ok(False, "faults: allocation %d fails: applied or refused, nothing between" % nth,
                   "exit %d, injected %s, stderr: %s\ntables: %s" %
                   (rc, injected, err.strip()[:500], tables.strip()))
    report.update(counts)
    report["past_end"] = past_end
    report["seconds"] = round(time.monotonic() - start, 1)
    runs = len(report["runs"])
    print("# faults: %d runs in %.0fs: %d refused (ruleset unchanged), %d absorbed (applied, "
          "the allocation had a fallback), %d bad; no allocation left to fail at %s" %
          (runs, report["seconds"], counts["refused"], counts["absorbed"], counts["bad"], past_end))
    tap.ok(counts["bad"] == 0 and counts["refused"] > 0,
           "faults: %d bulk loads with one failing allocation each: %d refused with the ruleset "
           "unchanged, %d absorbed, none half-applied" %
           (runs - (past_end is not None), counts["refused"], counts["absorbed"]))
    tap.ok(past_end is not None, "faults: the sweep reached the end of the load's allocations",
           "stopped after %d runs" % runs)
    messages = sorted({r["stderr"] for r in report["runs"] if r["outcome"] == "refused"})
    report["messages"] = messages
    for m in messages[:10]:
        print("# faults: message: %s" % m)
    relab_report.write(args.report, report)
    nft("delete", "table", "inet", "keep")
    return done(tap)


if __name__ == "__main__":
    sys.exit(main())
