#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Lookups judged against the reference model while the set changes, GC
runs and batches abort on another CPU.

Run as root in a network namespace of its own, best with 2 or more CPUs:
pktgen (kpktgend_0, CPU 0) sends into the receive path of the dummy device
rstress0 while this program, pinned to the last CPU, changes the set one
`nft -f` transaction at a time.  For each backend with timeouts (rbtree,
pipapo, rhash) for --seconds.

The addresses pktgen sends to, 10.2.0.0-10.2.1.255, UDP ports 5000-5003:

  10.2.0.0/24  judged.  Blocks of 8 addresses: the first 4 are in a
               persistent element (present for the whole run), the last 4
               are a hole (never in the set, except in batches that abort).
               A packet to a persistent address that misses is a false
               miss, a packet to a hole that matches a false hit.
  10.2.1.0/24  churn.  Elements come and go there: added, deleted, added
               with a timeout of 1 or 2 s and left to expire (so garbage
               collection runs), flushed.  Their packets are counted, not
               judged, while the set changes.

The netdev ingress chain sorts the packets by address into counters
(persistent hit/miss, hole hit/miss, churn hit/miss); every packet costs
exactly one set lookup.  The transactions, in random order:

  add      churn elements without timeout
  expire   churn elements with a timeout of 1 or 2 s
  delete   churn elements without timeout
  abort    elements on holes added and persistent elements deleted, then an
           element added to a full set: the kernel refuses the batch
           (ENFILE) and must abort all of it
  flush    flush the set and add the persistent and churn elements back
           (an expiring one with the time it had left), in one transaction
  readd    persistent elements deleted and added again, in one transaction

Pass, per backend: 0 false misses, 0 false hits, every transaction
accepted or (abort) refused as planned, every packet counted once.  At the
end the churn elements without timeout are deleted and, once every timeout
has passed, pktgen sends to the churn block: every packet must miss
(deleted and expired elements stopped matching).

Where the kernel has kprobe events (the x86_64 debug kernels), the calls
of garbage collection's functions are counted with kprobes (GC_FUNCS);
elsewhere the report says they were not counted.  Output: TAP, the report
(JSON) in --report: per backend the commits, aborts, GC calls, expired
elements and lookups.
"""
import argparse
import ipaddress
import os
import random
import re
import runpy
import subprocess
import sys
import time

runpy.run_path(os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..", "lib", "bootstrap.py"))
from relab import model, nftio, report as relab_report  # noqa: E402
from relab.pktgen import Pktgen, ensure_loaded, receive_device  # noqa: E402
from tap import Tap, done  # noqa: E402

DEV, TABLE = "rstress0", "rstress"
P0 = int(ipaddress.IPv4Address("10.2.0.0"))
BLOCKS = 32                   # 10.2.0.0/24: 32 blocks of 8 addresses
C0 = int(ipaddress.IPv4Address("10.2.1.0"))
SLOTS = 64                    # 10.2.1.0/24: 64 churn slots of 4 addresses
PORTS = (5000, 5003)
KINDS = [k for k in model.KINDS if k.name in ("rbtree_timeout", "pipapo_timeout", "rhash_timeout")]
COUNTERS = ("p_hit", "p_miss", "h_hit", "h_miss", "c_hit", "c_miss")
# Garbage collection's functions, 6.12 and 7.3 names: a scan of the set
# (nft_rbtree_gc, nft_rbtree_gc_scan, pipapo_gc_scan, the work function
# nft_rhash_gc) or one call per element collected (the rbtree's
# nft_rbtree_gc_defer of the 6.12 lab array, nft_rbtree_gc_elem_move of 7.3).
# A kernel probes those it has as functions (an inlined one is not in
# kallsyms): the report names what it counted.
GC_FUNCS = ("nft_rbtree_gc", "nft_rbtree_gc_scan", "nft_rbtree_gc_defer", "nft_rbtree_gc_elem_move",
            "pipapo_gc_scan", "nft_rhash_gc")
TRACEFS = "/sys/kernel/tracing"
ENFILE_TEXT = "Too many open files in system"
# An expiring element's key is not reused before this long after its
# timeout: a re-add then meets an expired element GC may not have freed.
REUSE_AFTER_S = 1.0


def block_elements(kind, lo, hi):
    """The elements covering addresses LO..HI on every port of PORTS."""
    if kind.interval:
        r = {"addr": (lo, hi), "port": PORTS}
        return [model.Element(tuple(r[f] for f in kind.fields))]
    out = []
    for a in range(lo, hi + 1):
        for p in range(PORTS[0], PORTS[1] + 1):
            r = {"addr": (a, a), "port": (p, p)}
            out.append(model.Element(tuple(r[f] for f in kind.fields)))
    return out


class GcProbes:
    """kprobe events on garbage collection's functions, counted in
    kprobe_profile."""

    def __init__(self):
        self.syms, self.why = [], None
        if not os.path.exists(TRACEFS + "/kprobe_events"):
            subprocess.run(["mount", "-t", "tracefs", "nodev", TRACEFS], stderr=subprocess.DEVNULL)
        if not os.path.exists(TRACEFS + "/kprobe_events"):
            self.why = "this kernel has no kprobe events"
            return
        with open("/proc/kallsyms") as f:
            funcs = {w[2] for w in (line.split() for line in f) if w[1] in "tT"}
        self.syms = [s for s in GC_FUNCS if s in funcs]
        if not self.syms:
            self.why = "none of %s is a function in this kernel" % ", ".join(GC_FUNCS)
            return
        with open(TRACEFS + "/kprobe_events", "w") as f:
            for s in self.syms:
                f.write("p:relab_%s %s\n" % (s, s))
        # A kprobe event counts its hits only while it is enabled.
        self.enable("1")

    def enable(self, on):
        for s in self.syms:
            with open("%s/events/kprobes/relab_%s/enable" % (TRACEFS, s), "w") as f:
                f.write(on + "\n")

    def counts(self):
        if not self.syms:
            return {}
        out = {}
        with open(TRACEFS + "/kprobe_profile") as f:
            for line in f:
                w = line.split()
                if w and w[0].startswith("relab_"):
                    out[w[0][len("relab_"):]] = int(w[1])
        return out

    def remove(self):
        if self.syms:
            self.enable("0")
            with open(TRACEFS + "/kprobe_events", "w") as f:
                f.write("")


class Stress:
    def __init__(self, kind, rng, args):
        self.kind, self.rng, self.args = kind, rng, args
        self.persistent = [e for b in range(BLOCKS)
                           for e in block_elements(kind, P0 + 8 * b, P0 + 8 * b + 3)]
        self.churn = {}          # slot -> (elements, expires_at or None)
        self.reserved = {}       # slot -> time it may be used again
        self.ops = dict.fromkeys(("add", "expire", "delete", "abort", "flush", "readd"), 0)
        self.expired = 0
        self.failed = []

    def cmd(self, verb, elems, timeout=None):
        """One add or delete command; TIMEOUT (an nft time) for every
        element added."""
        if timeout:
            elems = [model.Element(e.ranges, expires=True) for e in elems]
        return nftio.elements_cmd(verb, "netdev", TABLE, "s", self.kind, elems,
                                  expire_timeout=timeout)

    def setup(self):
        key = self.kind.key_expr()
        udp = "meta l4proto udp " if "port" in self.kind.fields else ""
        judged = "ip daddr 10.2.0.0/24"
        rules = [
            (judged + " ip daddr & 0.0.0.4 == 0.0.0.0 %s%s @s" % (udp, key), "p_hit"),
            (judged + " ip daddr & 0.0.0.4 == 0.0.0.0", "p_miss"),
            (judged + " %s%s @s" % (udp, key), "h_hit"),
            (judged, "h_miss"),
            ("%s%s @s" % (udp, key), "c_hit"),
            ("", "c_miss"),
        ]
        nftio.run("".join(
            ["add table netdev %s\n" % TABLE] +
            ["add counter netdev %s %s\n" % (TABLE, c) for c in COUNTERS] +
            ["add set netdev %s s { %s }\n" % (TABLE, self.kind.decl()),
             self.cmd("add", self.persistent),
             # The abort's last command adds to this full set: a refusal
             # of the kernel (nft does not know sizes), after the rest of
             # the batch was applied to the transaction.
             "add set netdev %s full { type ipv4_addr; size 1; }\n" % TABLE,
             "add element netdev %s full { 192.0.2.1 }\n" % TABLE,
             "add chain netdev %s in { type filter hook ingress device %s priority 0; }\n"
             % (TABLE, DEV)] +
            ["add rule netdev %s in meta protocol ip %s counter name %s drop\n" % (TABLE, m, c)
             for m, c in rules]))

    def counters(self):
        p = subprocess.run(["nft", "list", "counters", "table", "netdev", TABLE],
                           stdout=subprocess.PIPE, text=True, check=True)
        return {m.group(1): int(m.group(2)) for m in
                re.finditer(r"counter (\w+) \{\s*packets (\d+)", p.stdout)}

    def slot_elements(self, slot):
        lo = C0 + 4 * slot
        if self.kind.interval:
            return block_elements(self.kind, lo, lo + 2)
        port = self.rng.randint(*PORTS)
        return [model.Element(tuple({"addr": (lo, lo), "port": (port, port)}[f]
                                    for f in self.kind.fields))]

    def free_slots(self, n, now):
        free = [s for s in range(SLOTS) if s not in self.churn and self.reserved.get(s, 0) <= now]
        return self.rng.sample(free, min(n, len(free)))

    def expire_model(self, now):
        for s, (_, exp) in list(self.churn.items()):
            if exp is not None and exp < now:
                del self.churn[s]
                self.expired += 1

    def txn(self, op, script, refusal=None):
        rc, err = nftio.run(script, check=False)
        if refusal is None and rc == 0:
            self.ops[op] += 1
            return True
        if refusal is not None and rc != 0 and refusal in err:
            self.ops[op] += 1
            return True
        what = "was applied" if rc == 0 else "failed: %s" % err.strip()[:300]
        self.failed.append("%s %s" % (op, what))
        return False

    def step(self, first=None):
        """One transaction: FIRST if given, else one drawn at random."""
        now = time.monotonic()
        self.expire_model(now)
        op = first or self.rng.choice(("add", "add", "expire", "expire", "expire",
                                       "delete", "delete", "abort", "abort", "flush", "readd"))
        n = self.rng.randint(1, self.args.batch)
        if op in ("add", "expire"):
            slots = self.free_slots(n, now)
            if not slots:
                return
            # The run's first elements expire after 1 s, so that a short
            # run (make check's) sees GC too.
            timeout = (1 if first else self.rng.choice((1, 2))) if op == "expire" else None
            new = {s: self.slot_elements(s) for s in slots}
            elems = [e for es in new.values() for e in es]
            if self.txn(op, self.cmd("add", elems, timeout and "%ds" % timeout)):
                # The timeout runs from the commit, which ends before now.
                done = time.monotonic()
                for s, es in new.items():
                    self.churn[s] = (es, done + timeout if timeout else None)
                    if timeout:
                        self.reserved[s] = done + timeout + REUSE_AFTER_S
        elif op == "delete":
            fixed = [s for s, (_, exp) in self.churn.items() if exp is None]
            gone = self.rng.sample(fixed, min(n, len(fixed)))
            if gone and self.txn(op, self.cmd("delete", [e for s in gone for e in self.churn[s][0]])):
                for s in gone:
                    del self.churn[s]
        elif op == "abort":
            blocks = self.rng.sample(range(BLOCKS), min(n, BLOCKS))
            holes = [e for b in blocks for e in block_elements(self.kind, P0 + 8 * b + 4, P0 + 8 * b + 7)]
            some = self.rng.sample(self.persistent, min(n, len(self.persistent)))
            self.txn(op, self.cmd("add", holes) + self.cmd("delete", some) +
                     "add element netdev %s full { 192.0.2.2 }\n" % TABLE, refusal=ENFILE_TEXT)
        elif op == "flush":
            # Everything back, an expiring element with the time it had
            # left (it expires no later than the model says).
            fixed = [e for es, exp in self.churn.values() if exp is None for e in es]
            left = {s: max(100, int((exp - now) * 1000))
                    for s, (_, exp) in self.churn.items() if exp is not None}
            if self.txn(op, "flush set netdev %s s\n" % TABLE +
                        self.cmd("add", self.persistent + fixed) +
                        "".join(self.cmd("add", self.churn[s][0], "%dms" % ms)
                                for s, ms in left.items())):
                done = time.monotonic()
                for s, ms in left.items():
                    self.churn[s] = (self.churn[s][0], done + ms / 1000)
                    self.reserved[s] = max(self.reserved[s], done + ms / 1000 + REUSE_AFTER_S)
        elif op == "readd":
            some = self.rng.sample(self.persistent, min(n, len(self.persistent)))
            self.txn(op, self.cmd("delete", some) + self.cmd("add", some))


def run_kind(kind, args, tap, rng, gc):
    s = Stress(kind, rng, args)
    subprocess.run(["nft", "delete", "table", "netdev", TABLE], stderr=subprocess.DEVNULL)
    s.setup()
    pg = Pktgen(DEV)
    pg.target(P0, C0 + 4 * SLOTS - 1, *PORTS)
    gc_before = gc.counts()
    pg.start()
    t0 = time.monotonic()
    # An expiry and an abort in every run, however short; then at random.
    s.step("expire")
    s.step("abort")
    while time.monotonic() - t0 < args.seconds:
        s.step()
    pg.stop()
    elapsed = time.monotonic() - t0
    s.expire_model(time.monotonic())
    sent, c = pg.sent(), s.counters()
    name = kind.name
    commits = sum(v for k, v in s.ops.items() if k != "abort")
    tap.ok(c["p_miss"] == 0, "stress: %s: no false miss (%d lookups of persistent elements)" %
           (name, c["p_hit"] + c["p_miss"]), "p_miss %d" % c["p_miss"])
    tap.ok(c["h_hit"] == 0, "stress: %s: no false hit (%d lookups in holes)" %
           (name, c["h_hit"] + c["h_miss"]), "h_hit %d" % c["h_hit"])
    tap.ok(sum(c.values()) == sent and sent > 0,
           "stress: %s: every packet sent was looked up once" % name,
           "sent %d, counted %d" % (sent, sum(c.values())))
    tap.ok(not s.failed, "stress: %s: %d commits and %d aborts, as planned" %
           (name, commits, s.ops["abort"]), "\n".join(s.failed[:5]))
    tap.ok(s.ops["abort"] > 0 and s.expired > 0,
           "stress: %s: batches aborted and elements expired during the run" % name,
           "aborts %d, expired %d" % (s.ops["abort"], s.expired))
    # Deleted and expired elements stop matching.
    fixed = [e for es, exp in s.churn.values() if exp is None for e in es]
    nftio.run(s.cmd("delete", fixed))
    last_expiry = max([exp for _, exp in s.churn.values() if exp is not None], default=0)
    time.sleep(max(0.0, last_expiry - time.monotonic()) + 0.2)
    before = s.counters()
    pg.target(C0, C0 + 4 * SLOTS - 1, *PORTS)
    # Time-bounded, not "count N" (see soak.py: pktgen's show_results()
    # divides by the elapsed time).
    pg.start()
    time.sleep(0.5)
    pg.stop()
    after = s.counters()
    probe = {k: after[k] - before[k] for k in ("c_hit", "c_miss")}
    tap.ok(probe["c_hit"] == 0 and probe["c_miss"] == pg.sent() > 0,
           "stress: %s: deleted and expired churn elements no longer match" % name,
           "sent %d, hit %d, miss %d" % (pg.sent(), probe["c_hit"], probe["c_miss"]))
    gc_after = gc.counts()
    pg.release()
    subprocess.run(["nft", "delete", "table", "netdev", TABLE], stderr=subprocess.DEVNULL)
    res = {"set": name, "seconds": round(elapsed, 1), "commits": commits, "aborts": s.ops["abort"],
           "ops": s.ops, "expired_elements": s.expired, "lookups": sent, "counters": c,
           "end_probe": probe, "failed_transactions": s.failed[:10],
           "gc_calls": ({k: gc_after.get(k, 0) - gc_before.get(k, 0) for k in gc.syms}
                        if gc.syms else "not counted: %s" % gc.why)}
    print("# stress: %s: %.1fs, %d commits, %d aborts, %d expired elements, %d lookups, GC calls: %s" %
          (name, elapsed, commits, s.ops["abort"], s.expired, sent, res["gc_calls"]))
    return res


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=20,
                    help="per backend (default 20; 2 or more, for an expiry to be seen)")
    ap.add_argument("--batch", type=int, default=8, help="largest batch, in blocks or slots (default 8)")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--report")
    args = ap.parse_args(argv)
    if args.seed is None:
        args.seed = int(time.time())
    if args.batch < 1:
        ap.error("--batch must be 1 or more")
    if args.seconds < 2:
        ap.error("--seconds must be 2 or more: the run's first elements expire after 1 s")
    cpus = sorted(os.sched_getaffinity(0))
    # kpktgend_0 runs on CPU 0; the transactions on another one if any.
    if len(cpus) > 1:
        os.sched_setaffinity(0, {cpus[-1]})
    tap = Tap()
    report = {"seed": args.seed, "seconds": args.seconds, "cpus": len(cpus),
              "nft_cpu": cpus[-1], "sets": []}
    print("# stress: seed %d, %gs per backend, %d CPUs (pktgen on CPU 0, nft on CPU %d)" %
          (args.seed, args.seconds, len(cpus), cpus[-1]))
    rng = random.Random(args.seed)
    gc = None
    try:
        ensure_loaded()
        gc = GcProbes()
        with receive_device(DEV, TABLE):
            for kind in KINDS:
                report["sets"].append(run_kind(kind, args, tap, rng, gc))
    except (RuntimeError, OSError, subprocess.CalledProcessError, nftio.NftError) as e:
        tap.ok(False, "stress: ran to the end", str(e))
    finally:
        if gc:
            gc.remove()
        relab_report.write(args.report, report)
    return done(tap)


if __name__ == "__main__":
    sys.exit(main())
