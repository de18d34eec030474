#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The guest side of commit-cost, one of its two halves (the host side,
which boots the kernels and renders the report, is
nft_concat_range/commit-cost): what an interval set costs the control
plane, per set size.

For each N (--sizes): one nftlab transaction loads table inet ccost with
an interval set (rbtree backend, flags interval,timeout) of N disjoint
IPv4 ranges without a timeout; then --reps transactions each add one more
range, with a timeout of an hour (the commit of a set of N intervals: with
a lookup array, 6.12 patched's or 7.3's, its rebuild); then --reps
transactions each update the timeout of the first range added, which
moves no boundary (issue 27's B5: a rebuild there is work for nothing).
Recorded per N: the load's wall time, every one-element commit's and
timeout update's wall time (one nftlab process each: its start-up is in
every sample, baseline and patched alike), and how VmallocUsed, Slab and MemFree of /proc/meminfo moved
between before the load and a second after the last commit (a lookup
array larger than a page is a power-of-two block of pages from kmalloc,
which Slab counts, or vmalloc memory if that fails).  One JSON line per N on stdout.

With --stream K, after those, and after the memory above is read, two
streams of K commits each, sent back to back by one `nft -i` (one
transaction a line, no process start-up in between): K new intervals,
then K timeout updates of one element.  A thread samples Slab +
VmallocUsed of /proc/meminfo every few milliseconds during each stream:
the memory that lookup arrays waiting for an RCU grace period hold while
commits follow one another.  Recorded per stream: its wall time, the
peak above the level before it, and the level a second after it.

With --mark PATH (t0.py commit, under QEMU TCG with the pktcount
plugin), the guest reads PATH just before and just after each one-interval
commit and timeout update, so that the plugin writes its counters there,
and waits a second before each: the commit then always runs the set's
garbage collection scan, which it runs at most once a second, and every
kernel counts the same work.  "marks" in the JSON line says how many reads
that N made.

With --gc-interval S, the set is created by nft with "gc-interval S"
(nftlab's set add has no such option): a commit runs the set's garbage
collection only once S seconds have passed since the set was created, so
with S longer than the run (t0.py commit --gc-interval) no counted
transaction runs it, the commits that come in between collections.

Run as root in a network namespace of its own, with --nftlab the binary.
"""
import argparse
import json
import subprocess
import sys
import threading
import time


def meminfo():
    out = {}
    with open("/proc/meminfo") as f:
        for line in f:
            k, v = line.split(":", 1)
            if k in ("VmallocUsed", "Slab", "MemFree"):
                out[k] = int(v.split()[0])
    return out


def held_kb():
    """Slab + VmallocUsed, KiB: where a lookup array lives."""
    m = meminfo()
    return m["Slab"] + m["VmallocUsed"]


def stream(lines):
    """LINES sent to one `nft -i`, one transaction each, while a thread
    samples held_kb(): the wall time (s), the peak above the level before
    (KiB) and the level a second after, above the one before."""
    before = held_kb()
    peak = [before]
    done = threading.Event()

    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], held_kb())
            time.sleep(0.002)
    t = threading.Thread(target=sample)
    t.start()
    start = time.monotonic()
    try:
        p = subprocess.run(["nft", "-i"], input="".join(line + "\n" for line in lines), text=True,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    finally:
        dt = time.monotonic() - start
        done.set()
        t.join()
    # nft -i goes on after an error: any output is one
    if p.returncode != 0 or p.stdout.strip():
        raise RuntimeError("nft -i: exit %d: %s" % (p.returncode, p.stdout.strip()[:500]))
    time.sleep(1)
    return {"s": round(dt, 4), "peak_kb": peak[0] - before, "after_kb": held_kb() - before}


def streams(k):
    """The two streams of --stream K on table inet ccost, set s."""
    add = ["add element inet ccost s { 172.16.%d.%d-172.16.%d.%d timeout 3600s }"
           % (i // 60, (i % 60) * 4, i // 60, (i % 60) * 4 + 1) for i in range(k)]
    update = ["add element inet ccost s { 192.168.0.0-192.168.0.1 timeout %ds }" % (7201 + i)
              for i in range(k)]
    time.sleep(1)
    return {"commits": k, "add": stream(add), "update": stream(update)}


def nftlab(binary, *args, script=None):
    t = time.monotonic()
    p = subprocess.run([binary] + list(args), input=script, text=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    dt = time.monotonic() - t
    if p.returncode != 0:
        raise RuntimeError("nftlab %s: %s" % (" ".join(args), p.stderr.strip()))
    return dt


def read_mark(mark):
    """One read of the file MARK: the plugin writes its counters."""
    with open(mark) as f:
        f.read()


def marked(mark, binary, *args):
    """nftlab ARGS between two reads of MARK (none without MARK): the
    wall time, and the reads made."""
    if not mark:
        return nftlab(binary, *args), 0
    time.sleep(1.1)
    read_mark(mark)
    dt = nftlab(binary, *args)
    read_mark(mark)
    return dt, 2


def create_gc_set(gc_interval):
    """Table inet ccost and its set s, created by nft: the set's gc-interval
    is GC_INTERVAL seconds."""
    subprocess.run(["nft", "-f", "-"], check=True, text=True, input=(
        "table inet ccost {\n"
        "  set s { type ipv4_addr; flags interval,timeout; gc-interval %ds; }\n"
        "}\n" % gc_interval))


def one_size(binary, n, reps, mark=None, stream_k=0, gc_interval=None):
    subprocess.run(["nft", "delete", "table", "inet", "ccost"], stderr=subprocess.DEVNULL)
    time.sleep(1)
    before = meminfo()
    if gc_interval:
        create_gc_set(gc_interval)
        head = []
    else:
        head = ["table add inet ccost",
                "set add inet ccost s --type ipv4_addr --flags interval,timeout"]
    script = "\n".join(head + [
        # N adjacent ranges of 2 addresses from 10.0.0.6 up (nftlab gen)
        "element add inet ccost s --gen addr4 --count %d --range-size 1" % n,
        ""])
    load_s = nftlab(binary, "-f", "-", script=script)
    commits, refresh, marks = [], [], 0
    for i in range(reps):
        # far above the generated ranges, one new interval each
        elem = "192.168.%d.%d-192.168.%d.%d" % (i // 60, (i % 60) * 4, i // 60, (i % 60) * 4 + 1)
        dt, m = marked(mark, binary, "element", "add", "inet", "ccost", "s", elem + " timeout 3600s")
        commits.append(dt)
        marks += m
    for i in range(reps):
        # the same interval, another timeout each time: an update
        dt, m = marked(mark, binary, "element", "add", "inet", "ccost", "s",
                       "192.168.0.0-192.168.0.1 timeout %ds" % (3601 + i))
        refresh.append(dt)
        marks += m
    time.sleep(1)
    after = meminfo()
    # after the memory of the set above is read: the streams add elements
    extra = {"stream": streams(stream_k)} if stream_k else {}
    subprocess.run(["nft", "delete", "table", "inet", "ccost"], check=True)
    return {"intervals": n, "load_s": round(load_s, 4), "commit_s": [round(c, 5) for c in commits],
            "refresh_s": [round(c, 5) for c in refresh],
            "vmalloc_kb": after["VmallocUsed"] - before["VmallocUsed"],
            "slab_kb": after["Slab"] - before["Slab"],
            "used_kb": before["MemFree"] - after["MemFree"], "marks": marks, **extra}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--nftlab", required=True)
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--reps", type=int, default=15)
    ap.add_argument("--stream", type=int, default=0, metavar="K",
                    help="then two streams of K back-to-back commits through nft -i, memory sampled")
    ap.add_argument("--mark", metavar="PATH", help="read PATH around each counted transaction (t0.py commit)")
    ap.add_argument("--gc-interval", type=int, metavar="S",
                    help="create the set with nft, gc-interval S seconds (no collection before S have passed)")
    args = ap.parse_args(argv)
    for n in (int(x) for x in args.sizes.split(",")):
        print(json.dumps(one_size(args.nftlab, n, args.reps, args.mark, args.stream, args.gc_interval)))
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
