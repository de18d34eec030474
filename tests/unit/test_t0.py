#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of T0's analysis (nft_concat_range/nftbench/tables/t0.py) and
runner (t0run.py): snapshots to per-packet counts, boots to rows,
exactness across rounds, call-site parsing.  No kernel, no QEMU.

python3 tests/unit/test_t0.py (TAP, as tests/lab/t0.sh runs it), or
python3 tests/unit/test_t0.py -v (unittest's own runner)."""
import json
import os
import sys
import tempfile
import unittest
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "nft_concat_range"))
from nftbench import lab, t0run  # noqa: E402
from nftbench.tables import t0  # noqa: E402

COUNTS = [2000, 2000, 12000]


def dump(obj, path):
    with open(path, "w") as f:
        json.dump(obj, f)


def snap(seq, packets, insns, calls):
    return dict(mark="pktgen_if_show", seq=seq,
                counters=dict(packets=[packets, packets], leaves=[packets, 0], kernel_insns=[10 * insns, insns],
                              indirect_calls=[0, 0], indirect_jumps=[5, 0]),
                calls={k: [v + 100, v] for k, v in calls.items()})


def boot_snaps(per_packet_insns, per_run_extra, counts, thunks=0, extra_last_thunks=0):
    """Snapshots of a boot running one cell: reads between runs, one run
    per count, each run costing COUNT * per-packet + a fixed extra."""
    snaps, p, i, c, seq = [], 0, 0, 0, 0
    snaps.append(snap(seq, p, i, {"__x86_indirect_thunk_rax": c}))
    for cnt in counts:
        seq += 1
        snaps.append(snap(seq, p, i, {"__x86_indirect_thunk_rax": c}))   # read before the run
        p += cnt
        i += cnt * per_packet_insns + per_run_extra
        c += cnt * thunks + (extra_last_thunks if cnt is counts[-1] else 0)
        seq += 1
        snaps.append(snap(seq, p, i, {"__x86_indirect_thunk_rax": c}))   # result read
    return snaps


def write_boot(root, name, variant, rnd, per_packet_insns, extra, thunks, status=0, sofar=None, extra_last=0,
               tsv=False):
    """A boot directory as t0run leaves it; TSV: the guest's output as
    before records.jsonl (samples.tsv, the stored T0 runs)."""
    bdir = os.path.join(root, "t0", "raw", name)
    os.makedirs(os.path.join(bdir, "out"))
    dump(dict(name=name, variant=variant, mitigation="retpoline", round=rnd, kernel="-", status=status,
              counts=COUNTS), os.path.join(bdir, "boot.json"))
    with open(os.path.join(bdir, "counts.jsonl"), "w") as f:
        for s in boot_snaps(per_packet_insns, extra, COUNTS, thunks, extra_last):
            f.write(json.dumps(s) + "\n")
    if tsv:
        with open(os.path.join(bdir, "out", "samples.tsv"), "w") as f:
            f.write("# header\n")
            for c in COUNTS:
                f.write("T0/net_port/hash/n1/k0\t1\t0\t0\t100\t%d\t0\t%d\t0\t1.0\t1\tok\n" % (sofar or c, c))
    else:
        with open(os.path.join(bdir, "out", "records.jsonl"), "w") as f:
            f.write(json.dumps(dict(record="guest", start="2026-12-01T00:00:00Z")) + "\n")
            for c in COUNTS:
                f.write(json.dumps(dict(record="sample", cell=dict(table="T0", type="net_port", backend="hash", n=1,
                                                                   tag=""),
                                        knob_req="0", rep=1, knob="0", usec=100, sofar=sofar or c, errors=0,
                                        counter=c, tx=0, pps=1.0, valid=True, reason="ok")) + "\n")
    with open(os.path.join(bdir, "syms.txt"), "w") as f:
        f.write("thunk ffffffff81000000 20 __x86_indirect_thunk_rax\n")
    return bdir


def write_run(root, rounds):
    dump(dict(quick=True, rounds=rounds, variants=["patched"], mitigations=["retpoline"], counts=COUNTS),
         os.path.join(root, "t0", "run.json"))


def two_rounds(insns2, thunks2, extra1=0, extra2=0, extra_last=0):
    """analyse() of two boots, the second with other per-packet figures."""
    with tempfile.TemporaryDirectory() as d:
        write_boot(d, "patched-retpoline-r1", "patched", 1, 1500, extra1, 2)
        write_boot(d, "patched-retpoline-r2", "patched", 2, insns2, extra2, thunks2, extra_last=extra_last)
        write_run(d, 2)
        return t0.analyse(d)


def knobs_of(variant, knob):
    return {c["cell"].split("/")[4][:2] for _, cells in t0.scenarios(variant, False, knob) for c in cells}


class Snapshots(unittest.TestCase):
    def test_runs_from_snapshots(self):
        """runs_from_snapshots: one run per interval with packets"""
        runs = t0.runs_from_snapshots(boot_snaps(1234, 777, COUNTS))
        self.assertEqual([r["packets"] for r in runs], COUNTS)

    def test_per_packet(self):
        """per_packet: slope cancels what a run costs once"""
        runs = t0.runs_from_snapshots(boot_snaps(1234, 777, COUNTS))
        self.assertEqual(t0.per_packet(runs[1], runs[2])["kernel_insns"], Fraction(1234))

    def test_fmt(self):
        """fmt: integers exact, else 2 decimals"""
        self.assertEqual(t0.fmt(Fraction(1234)), "1234")
        self.assertEqual(t0.fmt(Fraction(2469, 2)), "1234.50")


class Analyse(unittest.TestCase):
    def test_cell(self):
        """analyse: per-packet instructions and thunks of a cell"""
        res = two_rounds(1500, 2, extra1=300, extra2=9999)
        self.assertFalse(res["errors"])
        self.assertEqual(len(res["rows"]), 1)
        self.assertEqual(res["rows"][0]["kernel_insns"], "1500")
        self.assertEqual(res["rows"][0]["indirect_thunks"], "2")

    def test_once_costs_cancel(self):
        """analyse: rounds that differ only in what a run costs once are identical per packet"""
        res = two_rounds(1500, 2, extra1=300, extra2=9999)
        self.assertEqual(len(res["rows"]), 1)
        self.assertIs(res["rows"][0]["identical"], True)
        self.assertFalse(res["unstable"])

    def test_records_and_tsv(self):
        """analyse: a boot's records.jsonl and the samples.tsv of stored runs give the same rows"""
        with tempfile.TemporaryDirectory() as d, tempfile.TemporaryDirectory() as d2:
            for root, tsv in ((d, False), (d2, True)):
                write_boot(root, "patched-retpoline-r1", "patched", 1, 1500, 300, 2, tsv=tsv)
                write_run(root, 1)
            new, old = t0.analyse(d), t0.analyse(d2)
        self.assertTrue(new["rows"])
        self.assertEqual(new, old)
        self.assertEqual(new["rows"][0]["cell"], "T0/net_port/hash/n1/k0")

    def test_other_thunks(self):
        """analyse: a round that counts other thunks is reported NOT EXACT"""
        res = two_rounds(1500, 3)
        self.assertTrue(res["unstable"])
        self.assertTrue(res["rows"])
        self.assertIs(res["rows"][0]["identical"], False)

    def test_one_thunk_more(self):
        """analyse: one thunk more in 2000 packets is NOT EXACT (compared unrounded)"""
        res = two_rounds(1500, 2, extra_last=1)
        self.assertTrue(res["unstable"])
        self.assertTrue(res["rows"])
        self.assertIs(res["rows"][0]["identical"], False)

    def test_insns_range(self):
        """analyse: instructions that move between rounds are shown as a range with their spread"""
        res = two_rounds(1503, 2)
        self.assertFalse(res["unstable"])
        self.assertTrue(res["rows"])
        row = res["rows"][0]
        self.assertIs(row["identical"], True)
        self.assertIs(row["insns_identical"], False)
        self.assertEqual(row["kernel_insns"], "1500..1503")
        self.assertEqual(row["insns_spread"], 3.0)

    def test_packets_differ(self):
        """analyse: a run whose counted packets differ from pktgen's is an error"""
        with tempfile.TemporaryDirectory() as d:
            write_boot(d, "patched-retpoline-r1", "patched", 1, 1500, 0, 2, sofar=1999)
            write_run(d, 1)
            res = t0.analyse(d)
        self.assertTrue(res["errors"])
        self.assertEqual(res["rows"], [])


class CallSites(unittest.TestCase):
    def test_direct_call(self):
        """CALL_RE: address, length and target of a direct call in objdump -d -w output"""
        line = "ffffffff8123abcd:\te8 2e 41 00 00       \tcall   ffffffff8123fd00 <netif_receive_skb>"
        m = t0run.CALL_RE.match(line)
        self.assertIsNotNone(m)
        self.assertEqual(m.group(3), "netif_receive_skb")
        self.assertEqual(len(m.group(2).split()), 5)

    def test_indirect_call(self):
        """CALL_RE: an indirect call is not a site"""
        self.assertIsNone(t0run.CALL_RE.match("ffffffff8123abcd:\tff d0                \tcall   *%rax"))


class Scenarios(unittest.TestCase):
    def test_knob_cells(self):
        """scenarios: a patched kernel runs the cells with the lab knob at 0 and 1 (egress: no knob), unless told otherwise"""
        self.assertEqual(knobs_of("patched", None), {"k0", "k1", "k-"})
        self.assertEqual(knobs_of("baseline", None), {"k-"})

    def test_no_knob(self):
        """scenarios: a patched kernel without the lab knob (7.3) runs every cell once, as a baseline does"""
        self.assertEqual(knobs_of("patched", False), {"k-"})

    def test_has_knob(self):
        """lab.has_knob: the kernel's config says whether it has the lab knob"""
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "config"), "w") as f:
                f.write("CONFIG_NF_TABLES=y\nCONFIG_NFT_LAB_FORCE_INDIRECT=y\n")
            self.assertTrue(lab.has_knob(d))
            with open(os.path.join(d, "config"), "w") as f:
                f.write("CONFIG_NF_TABLES=y\n# CONFIG_NFT_LAB_FORCE_INDIRECT is not set\n")
            self.assertFalse(lab.has_knob(d))
            self.assertFalse(lab.has_knob(os.path.join(d, "none")))


if __name__ == "__main__":
    sys.path.insert(0, HERE)
    import unittest_tap
    sys.exit(unittest_tap.run_file(__file__))
