#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Lookups under churn: nothing present for the whole run is ever missed.

Run as root in a network namespace of its own.  For each backend (hash_fast,
hash, rhash, bitmap, rbtree, pipapo) for --seconds: pktgen sends packets
into the receive path of the dummy device rsoak0 (xmit_mode netif_receive),
cycling through a block of keys that are in the set for the whole run (the
persistent elements); a netdev ingress chain counts "hit" when the key is in
the set and "miss" otherwise, and drops.  Meanwhile this program changes the
set, one `nft -f` transaction at a time, in random order:

  add      a batch of churn elements (keys pktgen never sends)
  delete   a batch of the churn elements present
  flush    flush the set and add every element back, in one transaction
  readd    delete persistent elements and add them again, in one transaction
  swap     a new set with the same elements, the rule replaced by one that
           looks it up, the old set deleted: one transaction

Pass: miss = 0 and hit = the packets pktgen sent.  Then the churn elements
are deleted and pktgen sends to their keys: every packet must miss (deleted
elements stopped matching).  Output: TAP, the report (JSON) in --report.

--reproducer gives a stable fix's reproducer's exit status instead (see
kernel/checks/check-series, part "stable"): 0 every check passed, 1 a
persistent key missed and nothing else failed (reproduced), 2 anything else
(setup, a refused transaction, a false hit).
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

DEV, TABLE = "rsoak0", "rsoak"
A0 = int(ipaddress.IPv4Address("10.1.0.0"))
PERSIST_ADDRS = 64           # 10.1.0.0-10.1.0.63: what pktgen sends to
PORT0, PERSIST_PORTS = 5000, 4
CHURN_ADDR0 = A0 + 4096      # 10.1.16.0 up: keys pktgen never sends to (until the end)
KINDS = [k for k in model.KINDS if k.name in
         ("hash_fast", "hash", "rhash", "bitmap", "rbtree", "pipapo")]
# The transactions a step draws from; "add" twice: the churn grows.
OPS = ("add", "add", "delete", "flush", "readd", "swap")


def counters():
    out = {}
    for name in ("hit", "miss"):
        s = nftio_list_counter(name)
        out[name] = int(re.search(r"packets (\d+)", s).group(1))
    return out


def nftio_list_counter(name):
    p = subprocess.run(["nft", "list", "counter", "netdev", TABLE, name],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, check=True)
    return p.stdout


class Soak:
    def __init__(self, kind, rng, args):
        self.kind, self.rng, self.args = kind, rng, args
        self.persistent = self.persistent_elements()
        self.churn = []          # churn elements present now
        self.setname = "s0"
        self.gen = 0
        self.ops = {"add": 0, "delete": 0, "flush": 0, "readd": 0, "swap": 0}
        self.elem_ops = 0
        self.failed_txns = []

    def persistent_elements(self):
        k = self.kind
        out = []
        ports = (PORT0, PORT0 + PERSIST_PORTS - 1)
        for a in range(A0, A0 + PERSIST_ADDRS):
            r = {"addr": (a, a), "port": ports}
            if not k.interval:
                if "port" in k.fields and "addr" not in k.fields:
                    continue
                for p in range(ports[0], ports[1] + 1):
                    r = {"addr": (a, a), "port": (p, p)}
                    out.append(model.Element(tuple(r[f] for f in k.fields)))
                continue
            out.append(model.Element(tuple(r[f] for f in k.fields)))
        if k.fields == ("port",):
            # a port-only set: every port pktgen sends to
            out = [model.Element(((p, p),)) for p in range(ports[0], ports[1] + 1)]
        # an address-only set has one element per address, not per port
        return list(dict.fromkeys(out))

    def random_churn(self, n):
        """Up to N new churn elements.  Interval elements each get an
        address block of their own (no two may overlap), exact ones a key
        of their own."""
        k, out = self.kind, []
        taken = {e.ranges[0] if k.interval else e.ranges for e in self.churn}
        for _ in range(n * 4):
            if len(out) >= n:
                break
            a = CHURN_ADDR0 + self.rng.randrange(0, 4096) * 4
            p = self.rng.randrange(6000, 7000)
            if k.fields == ("port",):
                r = ((p, p),)
            else:
                width = 2 if k.interval else 0
                r = tuple({"addr": (a, a + width), "port": (p, p + width)}[f] for f in k.fields)
            key = r[0] if k.interval else r
            if key not in taken:
                taken.add(key)
                out.append(model.Element(r))
        return out

    def cmd(self, verb, elems, setname=None):
        return nftio.elements_cmd(verb, "netdev", TABLE, setname or self.setname, self.kind, elems)

    def rule(self, setname):
        return ("add rule netdev %s in meta protocol ip %s%s @%s counter name hit drop\n"
                % (TABLE, "meta l4proto udp " if "port" in self.kind.fields else "",
                   self.kind.key_expr(), setname))

    def setup(self):
        nftio.run("".join([
            "add table netdev %s\n" % TABLE,
            "add counter netdev %s hit\n" % TABLE,
            "add counter netdev %s miss\n" % TABLE,
            "add set netdev %s %s { %s }\n" % (TABLE, self.setname, self.kind.decl()),
            self.cmd("add", self.persistent),
            "add chain netdev %s in { type filter hook ingress device %s priority 0; }\n" % (TABLE, DEV),
            self.rule(self.setname),
            "add rule netdev %s in counter name miss drop\n" % TABLE,
        ]))

    def txn(self, op, script):
        rc, err = nftio.run(script, check=False)
        if rc != 0:
            self.failed_txns.append("%s: %s" % (op, err.strip()[:300]))
            return False
        self.ops[op] += 1
        return True

    def step(self):
        op = self.rng.choice(self.args.ops)
        n = self.rng.randint(1, self.args.batch)
        if op == "add":
            new = self.random_churn(n)
            if self.txn(op, self.cmd("add", new)):
                self.churn += new
                self.elem_ops += len(new)
        elif op == "delete" and self.churn:
            gone = self.rng.sample(self.churn, min(n, len(self.churn)))
            if self.txn(op, self.cmd("delete", gone)):
                self.churn = [e for e in self.churn if e not in gone]
                self.elem_ops += len(gone)
        elif op == "flush":
            if self.txn(op, "flush set netdev %s %s\n" % (TABLE, self.setname) +
                        self.cmd("add", self.persistent + self.churn)):
                self.elem_ops += len(self.persistent) + len(self.churn)
        elif op == "readd":
            some = self.rng.sample(self.persistent, min(n, len(self.persistent)))
            if self.txn(op, self.cmd("delete", some) + self.cmd("add", some)):
                self.elem_ops += 2 * len(some)
        elif op == "swap":
            new = "s%d" % (self.gen + 1)
            handle = self.rule_handle()
            script = ("add set netdev %s %s { %s }\n" % (TABLE, new, self.kind.decl()) +
                      self.cmd("add", self.persistent + self.churn, new) +
                      "replace rule netdev %s in handle %d %s" %
                      (TABLE, handle, self.rule(new).split(" in ", 1)[1]) +
                      "delete set netdev %s %s\n" % (TABLE, self.setname))
            if self.txn(op, script):
                self.gen += 1
                self.setname = new
                self.elem_ops += len(self.persistent) + len(self.churn)

    def rule_handle(self):
        p = subprocess.run(["nft", "-a", "list", "chain", "netdev", TABLE, "in"],
                           stdout=subprocess.PIPE, text=True, check=True)
        m = re.search(r"@%s counter name \"?hit\"? drop # handle (\d+)" % self.setname, p.stdout)
        return int(m.group(1))


def run_kind(kind, args, tap, rng):
    s = Soak(kind, rng, args)
    subprocess.run(["nft", "delete", "table", "netdev", TABLE], stderr=subprocess.DEVNULL)
    s.setup()
    pg = Pktgen(DEV)
    ports = (PORT0, PORT0 + PERSIST_PORTS - 1)
    pg.target(A0, A0 + PERSIST_ADDRS - 1, *ports)
    pg.start()
    t0 = time.monotonic()
    txns = 0
    while time.monotonic() - t0 < args.seconds:
        s.step()
        txns += 1
    pg.stop()
    elapsed = time.monotonic() - t0
    sent = pg.sent()
    c = counters()
    res = {"set": kind.name, "seconds": round(elapsed, 1), "transactions": sum(s.ops.values()),
           "ops": s.ops, "element_ops": s.elem_ops, "packets": sent, "hit": c["hit"],
           "miss": c["miss"], "failed_transactions": s.failed_txns[:10],
           "n_failed_transactions": len(s.failed_txns)}
    tap.ok(c["miss"] == 0 and c["hit"] == sent and sent > 0,
           "soak: %s: %d packets to persistent keys during %d transactions: all matched" %
           (kind.name, sent, res["transactions"]),
           "sent %d, hit %d, miss %d" % (sent, c["hit"], c["miss"]))
    tap.ok(not s.failed_txns, "soak: %s: every transaction was accepted" % kind.name,
           "\n".join(s.failed_txns[:5]))
    # Deleted elements stop matching: delete the churn elements, then send
    # to the keys of the churn block.
    last = s.random_churn(args.batch)
    nftio.run(s.cmd("add", last))
    gone = s.churn + last
    nftio.run(s.cmd("delete", gone))
    # Counted as a difference, not after a reset: nft 1.1.7 (the 7.3
    # guest's) carries out only the last of two "reset counter" commands
    # of one nft -f script, on 6.12 and 7.3 kernels alike (1.0.6 both), so
    # "hit" kept the soak's own packets.
    before = counters()
    if last:
        e = last[0]
        r = dict(zip(kind.fields, e.ranges))
        addr = r.get("addr", (A0, A0))
        port = r.get("port", ports)
        pg.target(addr[0], addr[1], port[0], port[1])
        # A time-bounded run, not "count N": a run that ends within one
        # clock tick divides by a zero elapsed time in pktgen's
        # show_results() (an Oops of 6.12.117 under QEMU TCG's coarse clock).
        pg.start()
        time.sleep(0.5)
        pg.stop()
        c = {k: v - before[k] for k, v in counters().items()}
        res["deleted_probe"] = {"element": nftio.element(kind, e), "sent": pg.sent(), **c}
        tap.ok(c["hit"] == 0 and c["miss"] == pg.sent(),
               "soak: %s: a deleted element (%s) no longer matches" % (kind.name, nftio.element(kind, e)),
               "hit %d, miss %d" % (c["hit"], c["miss"]))
    subprocess.run(["nft", "delete", "table", "netdev", TABLE], stderr=subprocess.DEVNULL)
    pg.release()
    print("# soak: %s: %.1fs, %d transactions (%.1f/s), %d element operations, %d packets" %
          (kind.name, elapsed, res["transactions"], res["transactions"] / elapsed,
           s.elem_ops, sent))
    return res


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=20, help="per backend (default 20)")
    ap.add_argument("--batch", type=int, default=32, help="largest churn batch (default 32)")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--report")
    ap.add_argument("--ops", default=",".join(OPS),
                    help="transactions to draw from, comma-separated, a name twice to draw it "
                         "twice as often (default %(default)s)")
    ap.add_argument("--sets", default=",".join(k.name for k in KINDS),
                    help="backends, comma-separated (default %(default)s)")
    ap.add_argument("--reproducer", action="store_true",
                    help="exit 0 (passed), 1 (a persistent key missed) or 2 (other failure)")
    args = ap.parse_args(argv)
    args.ops = args.ops.split(",")
    bad = sorted(set(args.ops) - set(OPS))
    if bad:
        ap.error("--ops: unknown %s (known: %s)" % (", ".join(bad), ", ".join(sorted(set(OPS)))))
    names = args.sets.split(",")
    bad = sorted(set(names) - {k.name for k in KINDS})
    if bad:
        ap.error("--sets: unknown %s (known: %s)" % (", ".join(bad), ", ".join(k.name for k in KINDS)))
    kinds = [k for k in KINDS if k.name in names]
    if args.seed is None:
        args.seed = int(time.time())
    tap = Tap()
    report = {"seed": args.seed, "seconds": args.seconds, "cpus": len(os.sched_getaffinity(0)),
              "ops": args.ops, "sets": []}
    print("# soak: seed %d, %gs per backend" % (args.seed, args.seconds))
    rng = random.Random(args.seed)
    try:
        ensure_loaded()
        with receive_device(DEV, TABLE):
            for kind in kinds:
                report["sets"].append(run_kind(kind, args, tap, rng))
    except (RuntimeError, OSError, subprocess.CalledProcessError, nftio.NftError) as e:
        tap.ok(False, "soak: ran to the end", str(e))
    finally:
        relab_report.write(args.report, report)
    status = done(tap)
    if not args.reproducer or status == 0:
        return status
    missed = [r["set"] for r in report["sets"] if r["miss"]]
    # reproduced: the only failures are the misses, one per set that missed
    if missed and tap.failed == len(missed):
        return 1
    return 2


if __name__ == "__main__":
    sys.exit(main())
