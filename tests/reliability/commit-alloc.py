#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Allocation failures in a commit of an rbtree set must not bring back the
expired-interval false hit (issue 27, B4).

The 6.12 lab kernel's rbtree set looks keys up in an array that the
commit builds.  Its first version allocated that array in ->commit and,
when the allocation failed, published none: lookups walked the tree, whose
walk matches keys inside an expired interval (tests/reliability/
rbtree-expired.sh), after a commit that had reported success.

Needs a kernel with CONFIG_FAILSLAB (the debug lab kernel); run as root in
a network namespace of its own.  An rbtree set of INTERVALS intervals, the
odd ones expired (a timeout of a second, in a transaction of their own),
garbage collection an hour away (so that no commit collects them), then
one transaction over and over that only updates the timeout of the lowest
interval (the tree keeps its shape; an update next to an expired interval
would let the insertion's garbage collection take it out of the tree),
each time with the N-th slab allocation of the nftlab task failing
(faults.py's run_once: N = 1, 2, ... until the transaction makes fewer
allocations than N).  After each run, UDP packets to a key inside every
interval go through an output chain that adds the destinations the set
matched to a second set.

Every run must end in one of three ways:
  refused  nftlab exits 1 with a message, the timeout is the one before;
  applied  nftlab exits 0, the timeout is the new one;
  unknown  nftlab exits 1 because the kernel could not queue its reply
           (ENOBUFS: netlink's documented way to say that messages were
           lost), the timeout either one;
and in all three the keys inside the expired intervals must miss and the
live ones must match.  Output: TAP, the report (JSON) in --report.
"""
import argparse
import json
import os
import runpy
import socket
import subprocess
import sys
import tempfile
import time

runpy.run_path(os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..", "lib", "bootstrap.py"))
from tap import Tap, done  # noqa: E402
from faults import failslab_ready, nft, run_once  # noqa: E402
from relab import report as relab_report  # noqa: E402

DEV = "relabca0"
# INTERVALS intervals 10.0.I.1-10.0.I.9; the odd ones get a timeout of a
# second in a transaction of their own and have expired when the test
# starts.  Which keys the tree walk matches wrongly depends on the tree's
# shape (rbtree-expired.sh's three intervals do not do it in every
# kernel): with many expired intervals some always lie where the walk
# falls back to an older start element.
INTERVALS = 40
LIVE = ["10.0.%d.1-10.0.%d.9" % (i, i) for i in range(0, INTERVALS, 2)]
EXPIRING = ["10.0.%d.1-10.0.%d.9" % (i, i) for i in range(1, INTERVALS, 2)]
LIVE_KEYS = ["10.0.%d.5" % i for i in range(0, INTERVALS, 2)]
EXPIRED_KEYS = ["10.0.%d.5" % i for i in range(1, INTERVALS, 2)]
# the interval whose timeout the transactions update: the lowest, far from
# the expired ones above it, which an insertion next to them would collect
UPDATED = LIVE[0]
SETUP = """table inet relabca {
	set s {
		type ipv4_addr
		flags interval,timeout
		gc-interval 1h
		elements = { %s timeout 1h, %s }
	}
	set hits {
		type ipv4_addr
		flags dynamic
	}
	chain out {
		type filter hook output priority 0
		ip daddr @s add @hits { ip daddr }
	}
}
""" % (UPDATED, ", ".join(LIVE[1:]))


def probe():
    """The keys of EXPIRED_KEYS and LIVE_KEYS the set matched."""
    nft("flush", "set", "inet", "relabca", "hits")
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    for a in EXPIRED_KEYS + LIVE_KEYS:
        s.sendto(b"", (a, 9))
    s.close()
    listing = nft("-j", "list", "set", "inet", "relabca", "hits")
    elems = json.loads(listing)["nftables"][1]["set"].get("elem", [])
    return sorted((e for e in elems if isinstance(e, str)), key=socket.inet_aton)


def updated_timeout():
    """The timeout of UPDATED, in seconds."""
    start = UPDATED.split("-")[0]
    for e in json.loads(nft("-j", "list", "set", "inet", "relabca", "s"))["nftables"][1]["set"]["elem"]:
        if isinstance(e, dict) and "elem" in e and e["elem"]["val"].get("range", [None])[0] == start:
            return e["elem"].get("timeout")
    return None


def setup():
    subprocess.run(["nft", "delete", "table", "inet", "relabca"], stderr=subprocess.DEVNULL)
    subprocess.run(["ip", "link", "del", DEV], stderr=subprocess.DEVNULL)
    subprocess.run(["nft", "-f", "-"], input=SETUP, text=True, check=True)
    nft("add", "element", "inet", "relabca", "s", "{ %s }" % ", ".join(e + " timeout 1s" for e in EXPIRING))
    for cmd in (["ip", "link", "add", DEV, "type", "dummy"], ["ip", "link", "set", DEV, "up"],
                ["ip", "addr", "add", "192.0.2.1/32", "dev", DEV],
                ["ip", "route", "add", "10.0.0.0/16", "dev", DEV]):
        subprocess.run(cmd, check=True)
    time.sleep(2)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--nftlab", required=True, help="the nftlab binary")
    ap.add_argument("--max-runs", type=int, default=400)
    ap.add_argument("--report", help="write the JSON report here")
    args = ap.parse_args(argv)
    tap = Tap()
    report = {"runs": []}

    if not failslab_ready(tap, "commit-alloc"):
        return done(tap)
    setup()
    want = sorted(LIVE_KEYS, key=socket.inet_aton)
    got = probe()
    tap.ok(got == want, "commit-alloc: after the expiry, only the live intervals match", "matched %s" % got)

    fifo = os.path.join(tempfile.mkdtemp(prefix="relab-ca."), "script")
    os.mkfifo(fifo)
    counts = {"refused": 0, "applied": 0, "unknown": 0, "bad": 0}
    past_end = None
    nth = 0
    while nth < args.max_runs:
        nth += 1
        before = updated_timeout()
        new = 3600 + nth
        script = "element add inet relabca s '%s timeout %ds'\n" % (UPDATED, new)
        rc, err, injected = run_once(args.nftlab, script, nth, fifo)
        after = updated_timeout()
        hits = probe()
        if rc == 0 and after == new:
            outcome = "applied" if injected else "past-end"
        elif rc == 1 and "No buffer space available" in err and after in (before, new) and injected:
            outcome = "unknown"
        elif rc == 1 and err.strip() and after == before and injected:
            outcome = "refused"
        else:
            outcome = "bad"
        if hits != want:
            outcome = "bad"
        report["runs"].append({"fail_nth": nth, "exit": rc, "injected": injected, "outcome": outcome,
                               "false_hits": sorted(set(hits) - set(want), key=socket.inet_aton),
                               "false_misses": sorted(set(want) - set(hits), key=socket.inet_aton), "stderr": err.strip().splitlines()[0] if err.strip() else ""})
        if outcome == "bad":
            wrong = sorted(set(hits) ^ set(want), key=socket.inet_aton)
            tap.ok(False, "commit-alloc: allocation %d fails: applied or refused, and only the live intervals"
                   " match" % nth, "exit %d, injected %s, timeout %s -> %s (asked %d), wrong: %s, stderr: %s"
                   % (rc, injected, before, after, new, wrong, err.strip()[:300]))
            counts["bad"] += 1
            continue
        if outcome == "past-end":
            past_end = nth
            break
        counts[outcome] += 1
    report.update(counts)
    report["past_end"] = past_end
    runs = len(report["runs"])
    print("# commit-alloc: %d runs: %d refused, %d applied, %d unknown (reply lost), %d bad; no allocation"
          " left to fail at %s" % (runs, counts["refused"], counts["applied"], counts["unknown"], counts["bad"],
                                   past_end))
    tap.ok(counts["bad"] == 0 and counts["refused"] > 0,
           "commit-alloc: %d timeout updates with one failing allocation each: %d refused, %d applied, %d with"
           " the reply lost, no false hit past the expired interval after any of them"
           % (runs, counts["refused"], counts["applied"], counts["unknown"]))
    tap.ok(past_end is not None, "commit-alloc: the sweep reached the end of the transaction's allocations",
           "stopped after %d runs" % runs)
    subprocess.run(["nft", "delete", "table", "inet", "relabca"], stderr=subprocess.DEVNULL)
    subprocess.run(["ip", "link", "del", DEV], stderr=subprocess.DEVNULL)
    relab_report.write(args.report, report)
    return done(tap)


if __name__ == "__main__":
    sys.exit(main())
