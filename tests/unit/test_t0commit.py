#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of t0.py commit (nft_concat_range/nftbench/t0/commit.py):
a boot's snapshots to one count per transaction, the refusals (a region
left open, a region that scheduled, snapshots the guest did not make),
what is exact, the table's difference per interval and the report's
functions.  Synthetic boots: no kernel, no QEMU.

python3 tests/unit/test_t0commit.py: TAP (lib/tap.py); -v: unittest's own runner."""
import contextlib
import io
import json
import os
import runpy
import sys
import tempfile
import unittest

runpy.run_path(os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..", "lib", "bootstrap.py"))
import tap  # noqa: E402
from nftbench.t0 import commit as t0commit  # noqa: E402


def write_boot(bdir, sizes, per_interval, reps=2, funcs=None, sched=0, unclosed=0, extra_snaps=0):
    """A boot as the guest and the plugin leave it: cost.jsonl (one line
    per size: its transactions' times and its marks) and counts.jsonl (two snapshots per transaction,
    then the plugin's exit snapshot).  A transaction at N intervals costs
    N * PER_INTERVAL + rep in the region, split over FUNCS ({name:
    share}); SCHED: __schedule() calls in the first transaction;
    UNCLOSED: regions of the first transaction left open."""
    os.makedirs(bdir, exist_ok=True)
    funcs = funcs or {"nft_rbtree_commit": 1}
    insns, opened, closed, fsum, seq, snaps = 0, 0, 0, {}, 0, []
    sched_calls = 0

    def snap(mark="pgctrl_show"):
        nonlocal seq
        snaps.append({"mark": mark, "seq": seq,
                      "counters": {"kernel_insns": [insns * 3, insns], "packets": [opened, 0],
                                   "leaves": [closed, 0]},
                      "calls": {"__schedule": [sched_calls + 5, sched_calls]}, "funcs": dict(fsum)})
        seq += 1

    with open(os.path.join(bdir, "cost.jsonl"), "w") as f:
        for n in sizes:
            f.write(json.dumps({"intervals": n, "commit_s": [0.5] * reps, "refresh_s": [0.5] * reps,
                                "marks": 4 * reps}) + "\n")
    first = True
    for n in sizes:
        for _kind in ("commit", "refresh"):
            for rep in range(reps):
                snap()
                cost = n * per_interval + rep
                insns += cost
                for name, share in funcs.items():
                    fsum[name] = fsum.get(name, 0) + cost * share
                opened += 1
                closed += 1 - (unclosed if first else 0)
                sched_calls += sched if first else 0
                first = False
                snap()
    for _ in range(extra_snaps):
        snap()
    snap("exit")
    with open(os.path.join(bdir, "counts.jsonl"), "w") as f:
        f.writelines(json.dumps(s) + "\n" for s in snaps)
    return bdir


class Commit(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def boot(self, name, *args, **kw):
        return write_boot(os.path.join(self.tmp.name, name), *args, **kw)

    def test_one_count_per_transaction(self):
        """transactions(): the region's instructions between a transaction's two snapshots, in guest order"""
        txs = t0commit.transactions(self.boot("a-r1", [1000, 10000], 200))
        self.assertEqual([(t["kind"], t["intervals"], t["rep"], t["insns"]) for t in txs],
                         [("commit", 1000, 0, 200000), ("commit", 1000, 1, 200001),
                          ("refresh", 1000, 0, 200000), ("refresh", 1000, 1, 200001),
                          ("commit", 10000, 0, 2000000), ("commit", 10000, 1, 2000001),
                          ("refresh", 10000, 0, 2000000), ("refresh", 10000, 1, 2000001)])
        self.assertEqual(txs[0]["funcs"], {"nft_rbtree_commit": 200000})
        self.assertEqual(t0commit.check([("a-r1", txs)]), [])

    def test_page_clearing_is_left_out(self):
        """transactions(): the page clearing, which TCG counts per byte, is kept apart from the count"""
        txs = t0commit.transactions(self.boot("c-r1", [1000], 200, funcs={"nft_rbtree_commit": 0.75,
                                                                           "clear_page_erms": 0.25}))
        self.assertEqual((txs[0]["insns"], txs[0]["clear"]), (150000, 50000))
        self.assertEqual(txs[0]["funcs"]["clear_page_erms"], 50000)

    def test_snapshots_the_guest_did_not_make_are_refused(self):
        """transactions(): more snapshots than the guest's marks is an error, not a shifted pairing"""
        with self.assertRaises(SystemExit) as e:
            t0commit.transactions(self.boot("a-r1", [1000], 200, extra_snaps=1))
        self.assertIn("9 snapshots, the guest made 8 marks", str(e.exception))

    def test_scheduling_and_open_regions_are_refused(self):
        """check(): a region that called __schedule() or was left open is named"""
        sched = t0commit.transactions(self.boot("s-r1", [1000], 200, sched=1))
        opened = t0commit.transactions(self.boot("o-r1", [1000], 200, unclosed=1))
        bad = t0commit.check([("s-r1", sched), ("o-r1", opened)])
        self.assertEqual(bad, ["s-r1 commit, 1000 intervals, rep 0: __schedule() ran in the region",
                               "o-r1 commit, 1000 intervals, rep 0: 1 regions opened, 0 closed"])

    def results(self, b_per_interval=300, b2_per_interval=None):
        kernels = {"base": [t0commit.transactions(self.boot("base-r%d" % r, [1000, 10000], 200)) for r in (1, 2)],
                   "new": [t0commit.transactions(self.boot("new-r1", [1000, 10000], b_per_interval,
                                                           funcs={"nft_rbtree_commit": 0.5, "key_store": 0.5})),
                           t0commit.transactions(self.boot("new-r2", [1000, 10000],
                                                           b2_per_interval or b_per_interval,
                                                           funcs={"nft_rbtree_commit": 0.5, "key_store": 0.5}))]}
        return kernels

    def test_exact_when_every_boot_agrees(self):
        """summary(): a transaction is exact only when each rep gives one count in every boot"""
        s = t0commit.summary({"kernels": self.results()})
        self.assertEqual(s[("commit", 1000)]["base"], ([200000, 200000, 200001, 200001], True))
        s = t0commit.summary({"kernels": self.results(300, 301)})
        self.assertFalse(s[("commit", 1000)]["new"][1])
        self.assertTrue(s[("commit", 1000)]["base"][1])

    def test_table_difference_per_interval(self):
        """table(): the last kernel less the first, in all and per interval"""
        rows = t0commit.table({"kernels": self.results()})
        self.assertEqual(rows[0].split(), ["intervals", "transaction", "base", "new", "difference", "per",
                                           "interval", "relative"])
        self.assertIn("1,000      one-interval commit", rows[1])
        self.assertEqual(rows[1].split()[-4:], ["+100000", "+100.0", "+50.0", "%"], rows[1])
        self.assertEqual(rows[3].split()[-4:], ["+1000000", "+100.0", "+50.0", "%"], rows[3])

    def rendered(self, name, kernels, **extra):
        """commit.md and commit-posting.txt as render() writes them in run
        directory NAME for KERNELS, whose per-function counts go to
        commit.json's funcs as main() stores them; EXTRA: fields of the run."""
        funcs = t0commit.func_diffs(kernels)
        for bs in kernels.values():
            for txs in bs:
                for t in txs:
                    t.pop("funcs", None)
        run = dict(base_version="linux-source-7.3 7.3.4", cpu="cpu", date="d", reps=2, rounds=2,
                   mitigation="retpoline", kdirs={lb: "/k/" + lb for lb in kernels},
                   stamps={lb: "s" for lb in kernels}, **extra)
        t0dir = os.path.join(self.tmp.name, name)
        os.makedirs(t0dir)
        with open(os.path.join(t0dir, "commit.json"), "w") as f:
            json.dump({"kernels": kernels, "funcs": funcs, "run": run}, f)
        with contextlib.redirect_stdout(io.StringIO()):
            self.assertEqual(t0commit.render(t0dir), 0)
        with open(os.path.join(t0dir, "commit.md")) as md, open(os.path.join(t0dir, "commit-posting.txt")) as p:
            return md.read(), p.read()

    def test_report_lists_the_functions_that_differ(self):
        """render(): commit.md names where the difference goes; commit.json keeps only those functions"""
        kernels = self.results()
        funcs = t0commit.func_diffs(kernels)
        self.assertEqual(funcs["commit 1000"], {"base": {"key_store": 0, "nft_rbtree_commit": 200000.5},
                                                "new": {"key_store": 150000.25, "nft_rbtree_commit": 150000.25}})
        md, posting = self.rendered("t0", kernels)
        self.assertIn("  +150000.2  key_store", md)
        self.assertIn("   -50000.2  nft_rbtree_commit", md)
        self.assertIn("Exact (each transaction gave the same count in every boot): all.", md)
        self.assertNotIn("/k/", posting)

    def test_gc_interval_is_said(self):
        """render(): a run with --gc-interval says that no transaction ran the collection; one without does not"""
        for gc in (None, 3600):
            extra = {"gc_interval": gc} if gc else {}
            md, posting = self.rendered("t0-%s" % gc, self.results(), **extra)
            said = "no garbage collection in the transactions (gc-interval 3600 s)"
            self.assertEqual(said in posting, bool(gc), posting)
            self.assertEqual("gc-interval is 3600 s" in md, bool(gc), md)
            self.assertTrue(all(len(line) <= 75 for line in posting.splitlines()), posting)

    def test_report_has_a_column_per_kernel(self):
        """render(): with three kernels, each function has a column for each kernel less the first"""
        kernels = self.results()
        kernels = {"base": kernels["base"], "mid": kernels["new"], "new": kernels["new"]}
        md, _ = self.rendered("t0-three", kernels)
        self.assertIn("         mid         new\n", md)
        self.assertIn("   +150000.2   +150000.2  key_store", md)

    def test_posting_kernels(self):
        """the posting's table: the last two kernels, or the two the run chose"""
        kernels = self.results()
        kernels = {"old": kernels["base"], "base": kernels["base"], "new": kernels["new"]}
        self.assertEqual(t0commit.posting_kernels({"kernels": kernels}), ["base", "new"])
        chosen = {"kernels": kernels, "run": {"posting": ["old", "new"]}}
        self.assertEqual(t0commit.posting_kernels(chosen), ["old", "new"])
        self.assertEqual(t0commit.posting_table(chosen)[0].split()[2:4], ["old", "new"])
        self.assertEqual(t0commit.parse_posting("new,old", list(kernels)), ["new", "old"])
        for bad in ("new", "new,new", "new,other", "a,b,c"):
            with self.assertRaises(SystemExit, msg=bad):
                t0commit.parse_posting(bad, list(kernels))


if __name__ == "__main__":
    sys.exit(tap.run_file(__file__))
