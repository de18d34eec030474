#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of T0's analysis (nft_concat_range/nftbench/t0/cells.py)
and runner (t0/run.py): snapshots to per-packet counts, boots to rows,
exactness across rounds, call-site parsing, the plan, validate.  No
kernel, no QEMU.

python3 tests/unit/test_t0.py: TAP (lib/tap.py,
nested in tests/lab/t0-quick.sh's stream); -v: unittest's own runner."""
import contextlib
import io
import json
import os
import runpy
import sys
import tempfile
import unittest
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
runpy.run_path(os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..", "lib", "bootstrap.py"))
import tap  # noqa: E402
from nftbench import generators, lab, model  # noqa: E402
from nftbench.t0 import cells as t0cells, symbols as t0symbols, text as t0text  # noqa: E402

COUNTS = [2000, 2000, 12000]


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


def write_json(path, obj):
    with open(path, "w") as f:
        json.dump(obj, f)


def read(path):
    with open(path) as f:
        return f.read()


def write_boot(root, name, variant, rnd, per_packet_insns, extra, thunks, status=0, sofar=None, extra_last=0,
               tsv=False, cell=("net_port", "hash", "0")):
    """A boot directory as t0run leaves it; TSV: the guest's output as
    before records.jsonl (samples.tsv, the stored T0 runs).  CELL: the
    (type, backend, knob) of the one cell it counts."""
    ctype, backend, knob = cell
    bdir = os.path.join(root, "t0", "raw", name)
    os.makedirs(os.path.join(bdir, "out"))
    write_json(os.path.join(bdir, "boot.json"),
               dict(name=name, variant=variant, mitigation="retpoline", round=rnd, kernel="-", status=status,
                    counts=COUNTS))
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
                f.write(json.dumps(dict(record="sample", cell=dict(table="T0", type=ctype, backend=backend, n=1,
                                                                   tag=""),
                                        knob_req=knob, rep=1, knob=knob, usec=100, sofar=sofar or c, errors=0,
                                        counter=c, tx=0, pps=1.0, valid=True, reason="ok")) + "\n")
    with open(os.path.join(bdir, "syms.txt"), "w") as f:
        f.write("thunk ffffffff81000000 20 __x86_indirect_thunk_rax\n")
    return bdir


def write_run(root, rounds, **extra):
    """ROOT/t0/run.json of a quick run of the patched retpoline kernel."""
    write_json(os.path.join(root, "t0", "run.json"),
               dict(quick=True, rounds=rounds, variants=["patched"], mitigations=["retpoline"], counts=COUNTS,
                    **extra))


def two_rounds(insns2, thunks2, extra_last=0):
    """analyse() of two boots, the second with other per-packet figures."""
    with tempfile.TemporaryDirectory() as d:
        write_boot(d, "patched-retpoline-r1", "patched", 1, 1500, 0, 2)
        write_boot(d, "patched-retpoline-r2", "patched", 2, insns2, 0, thunks2, extra_last=extra_last)
        write_run(d, 2)
        return t0cells.analyse(d)


def knobs_of(variant, knob):
    return {c["cell"].split("/")[4][:2] for _, cells in t0cells.scenarios(variant, False, knob) for c in cells}


def plan_sets(d, name):
    """{set: [elements]} of the sets file NAME of plan directory D."""
    out = {}
    with open(os.path.join(d, name)) as f:
        for line in f:
            w = line.split()
            if line.startswith("add element"):
                out.setdefault(w[4], []).extend(e.strip()
                                                for e in line.split("{", 1)[1].rsplit("}", 1)[0].split(","))
            elif line.startswith("\tset "):
                out.setdefault(w[1], [])
    return out


def boots_run(per_boot, cell=("net_port", "hash", "-"), quick=False, variant="baseline"):
    """report() and validate() of one boot per entry of PER_BOOT
    (instructions per packet of that boot) of CELL alone: (t0.json,
    validate's exit status, validate's TAP, t0.md)."""
    with tempfile.TemporaryDirectory() as d:
        for i, insns in enumerate(per_boot, 1):
            write_boot(d, "%s-retpoline-r%d" % (variant, i), variant, i, insns, 0, 2, cell=cell)
        write_json(os.path.join(d, "t0", "run.json"),
                   dict(quick=quick, rounds=len(per_boot), reps=1, variants=[variant], mitigations=["retpoline"],
                        counts=COUNTS, cells=[cell[1]]))
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            t0cells.report(d, quiet=True)
            rc = t0cells.validate(d)
        res = json.loads(read(os.path.join(d, "t0", "t0.json")))
        md = read(os.path.join(d, "t0", "t0.md"))
    return res, rc, out.getvalue(), md


def first_row(test, res):
    """The first row of analyse()'s or t0.json's RES, failing TEST if none."""
    test.assertTrue(res["rows"], "no row: %s" % (res,))
    return res["rows"][0]


class Snapshots(unittest.TestCase):
    """The counter snapshots of one boot to runs and per-packet figures."""

    def test_runs_from_snapshots(self):
        """runs_from_snapshots: one run per interval with packets"""
        runs = t0cells.runs_from_snapshots(boot_snaps(1234, 777, COUNTS))
        self.assertEqual([r["packets"] for r in runs], COUNTS)

    def test_per_packet_slope(self):
        """per_packet: slope cancels what a run costs once"""
        runs = t0cells.runs_from_snapshots(boot_snaps(1234, 777, COUNTS))
        self.assertEqual(t0cells.per_packet(runs[1], runs[2])["kernel_insns"], Fraction(1234))

    def test_fmt(self):
        """fmt: integers exact, else 2 decimals"""
        self.assertEqual(t0text.fmt(Fraction(1234)), "1234", "an integer is printed exact")
        self.assertEqual(t0text.fmt(Fraction(2469, 2)), "1234.50", "a fraction is printed with 2 decimals")


class AnalyseRounds(unittest.TestCase):
    """analyse() of two rounds of one cell that differ in what a run costs once."""

    @classmethod
    def setUpClass(cls):
        with tempfile.TemporaryDirectory() as d:
            write_boot(d, "patched-retpoline-r1", "patched", 1, 1500, 300, 2)
            write_boot(d, "patched-retpoline-r2", "patched", 2, 1500, 9999, 2)
            write_run(d, 2)
            cls.res = t0cells.analyse(d)

    def test_per_packet_figures(self):
        """analyse: per-packet instructions and thunks of a cell"""
        self.assertFalse(self.res["errors"], "analyse reports errors")
        row = first_row(self, self.res)
        self.assertEqual(row.get("kernel_insns"), "1500", "instructions per packet")
        self.assertEqual(row.get("indirect_thunks"), "2", "thunks per packet")

    def test_once_per_run_cost_is_identical(self):
        """analyse: rounds that differ only in what a run costs once are identical per packet"""
        row = first_row(self, self.res)
        self.assertIs(row.get("identical"), True, "the row is not identical: %s" % (row,))
        self.assertFalse(self.res["unstable"], "analyse reports the rounds unstable")


class Analyse(unittest.TestCase):
    """analyse() of boots: stored formats, NOT EXACT, ranges, errors."""

    def test_records_and_stored_tsv_agree(self):
        """analyse: a boot's records.jsonl and the samples.tsv of stored runs give the same rows"""
        with tempfile.TemporaryDirectory() as d, tempfile.TemporaryDirectory() as d2:
            for root, tsv in ((d, False), (d2, True)):
                write_boot(root, "patched-retpoline-r1", "patched", 1, 1500, 300, 2, tsv=tsv)
                write_run(root, 1)
            new, old = t0cells.analyse(d), t0cells.analyse(d2)
        self.assertTrue(new["rows"], "no row from records.jsonl: %s" % (new,))
        self.assertEqual(new, old, "records.jsonl and samples.tsv differ")
        self.assertEqual(new["rows"][0]["cell"], "T0/net_port/hash/n1/k0")

    def test_other_thunks_not_exact(self):
        """analyse: a round that counts other thunks is reported NOT EXACT"""
        res = two_rounds(1500, 3)
        self.assertTrue(res["unstable"], "not reported unstable: %s" % (res,))
        self.assertIs(first_row(self, res)["identical"], False)

    def test_one_thunk_more_not_exact(self):
        """analyse: one thunk more in 2000 packets is NOT EXACT (compared unrounded)"""
        res = two_rounds(1500, 2, extra_last=1)
        self.assertTrue(res["unstable"], "not reported unstable: %s" % (res,))
        self.assertIs(first_row(self, res)["identical"], False)

    def test_moving_instructions_are_a_range(self):
        """analyse: instructions that move between rounds are shown as a range with their spread"""
        res = two_rounds(1503, 2)
        self.assertFalse(res["unstable"], "reported unstable: %s" % (res,))
        row = first_row(self, res)
        self.assertIs(row.get("identical"), True, "thunks not identical: %s" % (row,))
        self.assertIs(row.get("insns_identical"), False, "instructions identical: %s" % (row,))
        self.assertEqual(row.get("kernel_insns"), "1500..1503")
        self.assertEqual(row.get("insns_spread"), 3.0)

    def test_packets_differing_from_pktgen_is_error(self):
        """analyse: a run whose counted packets differ from pktgen's is an error"""
        with tempfile.TemporaryDirectory() as d:
            write_boot(d, "patched-retpoline-r1", "patched", 1, 1500, 0, 2, sofar=1999)
            write_run(d, 1)
            res = t0cells.analyse(d)
        self.assertTrue(res["errors"], "no error: %s" % (res,))
        self.assertFalse(res["rows"], "a row despite the error: %s" % (res,))


class CallRe(unittest.TestCase):
    """t0symbols.CALL_RE on objdump -d -w lines."""

    def test_direct_call(self):
        """CALL_RE: address, length and target of a direct call in objdump -d -w output"""
        line = "ffffffff8123abcd:\te8 2e 41 00 00       \tcall   ffffffff8123fd00 <netif_receive_skb>"
        m = t0symbols.CALL_RE.match(line)
        self.assertIsNotNone(m, "no match")
        self.assertEqual(m.group(3), "netif_receive_skb", "the target")
        self.assertEqual(len(m.group(2).split()), 5, "the instruction's length in bytes")

    def test_indirect_call_is_no_site(self):
        """CALL_RE: an indirect call is not a site"""
        self.assertIsNone(t0symbols.CALL_RE.match("ffffffff8123abcd:\tff d0                \tcall   *%rax"))


class Scenarios(unittest.TestCase):
    """The cells a kernel runs, by whether it has the lab knob."""

    def test_patched_runs_knob_0_and_1(self):
        """scenarios: a patched kernel runs the cells with the lab knob at 0 and 1 (egress: no knob), unless told otherwise"""
        self.assertEqual(knobs_of("patched", None), {"k0", "k1", "k-"}, "patched kernel")
        self.assertEqual(knobs_of("baseline", None), {"k-"}, "baseline kernel")

    def test_patched_without_knob_runs_once(self):
        """scenarios: a patched kernel without the lab knob (7.3) runs every cell once, as a baseline does"""
        self.assertEqual(knobs_of("patched", False), {"k-"})

    def test_has_knob_from_config(self):
        """lab.has_knob: the kernel's config says whether it has the lab knob"""
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "config"), "w") as f:
                f.write("CONFIG_NF_TABLES=y\nCONFIG_NFT_LAB_FORCE_INDIRECT=y\n")
            self.assertTrue(lab.has_knob(d), "CONFIG_NFT_LAB_FORCE_INDIRECT=y")
            with open(os.path.join(d, "config"), "w") as f:
                f.write("CONFIG_NF_TABLES=y\n# CONFIG_NFT_LAB_FORCE_INDIRECT is not set\n")
            self.assertFalse(lab.has_knob(d), "CONFIG_NFT_LAB_FORCE_INDIRECT is not set")
            self.assertFalse(lab.has_knob(os.path.join(d, "none")), "no config at all")


# Exact means exact (#26): the plan, boots, ranges, validate.
class WritePlan(unittest.TestCase):
    """write_plan() of the baseline kernel, every cell, no seed probe."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.addClassCleanup(cls.tmp.cleanup)
        cls.d = cls.tmp.name
        t0cells.write_plan(cls.d, "baseline", False)
        cls.sets = plan_sets(cls.d, "sets-net_port.nft")

    def test_hash_set_holds_packet_key_alone(self):
        """write_plan: the hash cell's set holds the packet's key alone (a one-element bucket chain whatever the seed)"""
        pk = generators.packet(model.TYPES["net_port"])
        self.assertEqual(self.sets.get("norange"), ["%s . %s" % (pk["addr"], pk["port"])],
                         {k: len(v) for k, v in self.sets.items()})

    def test_rbtree_and_pipapo_sets_keep_1001(self):
        """write_plan: the rbtree and pipapo sets keep the selftest's 1001 elements"""
        self.assertEqual(len(self.sets.get("test", ())), 1001, "the set test")
        self.assertEqual(len(self.sets.get("noconcat", ())), 1001, "the set noconcat")

    def test_no_seed_probe_by_default(self):
        """write_plan: no seed probe unless asked for"""
        self.assertNotIn("T0-seed", read(os.path.join(self.d, "plan.tsv")))
        self.assertNotIn("sets-net_port-probe.nft", os.listdir(self.d))


class WritePlanCells(unittest.TestCase):
    """write_plan() with two reps, the cells of three backends, a seed probe of 3."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.addClassCleanup(cls.tmp.cleanup)
        cls.d = cls.tmp.name
        t0cells.write_plan(cls.d, "baseline", False, reps=2, only=["drop", "hash", "ct"], probe=3)
        cls.lines = [ln.split("\t") for ln in read(os.path.join(cls.d, "plan.tsv")).splitlines()]
        cls.groups = [ln for ln in cls.lines if ln[0] == "group"]
        cls.cells = [(ln[1], json.loads(ln[6])) for ln in cls.lines if ln[0] == "cell"]

    def test_seed_probe_groups(self):
        """write_plan --seed-probe 3: three groups, each creating the 1001-element hash set anew"""
        probe = [g for g in self.groups if g[1].startswith("T0-seed")]
        self.assertEqual(len(probe), 3, probe)
        self.assertTrue(all(g[9] == "sets-net_port-probe.nft" for g in probe),
                        "a probe group without the probe's sets file: %s" % (probe,))
        sets = plan_sets(self.d, "sets-net_port-probe.nft")
        self.assertEqual(list(sets), ["norange"], "the probe's sets")
        self.assertEqual(len(sets["norange"]), 1001, "the probe's hash set")

    def test_seed_probe_cells(self):
        """write_plan --seed-probe: one pass per probe group, numbered after it; its cells are measured ranges"""
        pcells = [(gid, c) for gid, c in self.cells if gid.startswith("T0-seed")]
        prep = [ln[4] for ln in self.lines if ln[0] == "cell" and ln[1].startswith("T0-seed")]
        self.assertEqual(len(pcells), 3, pcells)
        self.assertTrue(all(c["backend"] == "hash" and c["tag"] == t0cells.PROBE_TAG for _, c in pcells),
                        "a probe cell not of the hash backend with the probe's tag: %s" % (pcells,))
        self.assertEqual(prep, ["1", "2", "3"], "the probe cells' passes")
        self.assertTrue(t0cells.ranged("T0/net_port/hash/n1/k-" + t0cells.PROBE_TAG), "the probe cell is not ranged")

    def test_cells_of_backends_asked_for(self):
        """write_plan --cells: only the cells of the backends asked for, groups without one left out"""
        self.assertEqual({c["backend"] for _, c in self.cells}, {"drop", "hash", "ct"})
        self.assertFalse(any(g[1] == "T0-dynset" for g in self.groups), "the group T0-dynset is in the plan")

    def test_sets_file_of_cells_looked_up(self):
        """write_plan --cells: the group's sets file creates only the sets its cells look up"""
        self.assertEqual(list(plan_sets(self.d, "sets-net_port.nft")), ["norange"])


class Cells(unittest.TestCase):
    """Which cells are measured ranges; t0.py run --cells."""

    def test_ranged(self):
        """ranged: the hash and drop cells must not move between boots, the dynset and conntrack cells are measured"""
        for cell, ranged in (("T0/net_port/hash/n1/k-", False), ("T0/net_port/drop/n0/k-", False),
                             ("T0/dynset/dynset/n1/k-", True), ("T0/ct/ct/n1/k-", True),
                             ("T0/ct/ctonly/n1/k0", True)):
            self.assertEqual(t0cells.ranged(cell), ranged, cell)

    def test_unknown_backend_refused(self):
        """t0.py run --cells: a backend T0 has no cell of is refused"""
        with self.assertRaises(Exception) as cm:
            t0cells.cell_backends("drop,hash,nosuch")
        self.assertIn("nosuch", str(cm.exception))
        self.assertEqual(t0cells.cell_backends("drop,ct"), "drop,ct")


class Validate(unittest.TestCase):
    """report() and validate() of boots of one cell."""

    def test_same_count_in_three_boots_passes(self):
        """validate: a hash cell counting the same in three boots passes; t0.json keeps each boot's figure"""
        res, rc, out, md = boots_run([1015, 1015, 1015])
        row = first_row(self, res)
        self.assertEqual(rc, 0, out)
        self.assertEqual(row.get("boots"), 3, row)
        self.assertEqual(row.get("insns_by_boot"), {"1": "1015", "2": "1015", "3": "1015"})

    def test_hash_cell_moving_fails(self):
        """validate: a hash cell reading 1015 in two boots and 1056 in one fails (the rhash seed is not an excuse)"""
        res, rc, out, md = boots_run([1015, 1056, 1015])
        row = first_row(self, res)
        self.assertNotEqual(rc, 0, out)
        self.assertIn("not ok", out)
        self.assertEqual(row.get("kernel_insns"), "1015..1056")
        self.assertIn("| MOVED", md)

    def test_fewer_than_3_boots_fails(self):
        """validate: a run of fewer than 3 boots per kernel fails: one boot cannot show the next one's count"""
        res, rc, out, md = boots_run([1015, 1015])
        self.assertNotEqual(rc, 0, out)
        self.assertIn("not ok", out)
        self.assertIn("at least 3 boots", out)

    def test_quick_run_skips_boot_count(self):
        """validate: a quick run (make check's, one boot) skips the boot count"""
        res, rc, out, md = boots_run([1015, 1015], quick=True)
        self.assertEqual(rc, 0, out)
        self.assertIn("# SKIP quick run", out)

    def test_conntrack_cell_moving_is_a_range(self):
        """validate: a conntrack cell moving between boots passes, reported as its min..max with each boot's figure"""
        res, rc, out, md = boots_run([3421, 3640, 3500], cell=("ct", "ctonly", "-"))
        row = first_row(self, res)
        self.assertEqual(rc, 0, out + md)
        self.assertIs(row.get("ranged"), True, row)
        self.assertEqual(row.get("kernel_insns"), "3421..3640")
        self.assertIn("| range", md)
        self.assertIn("b1 3421 b2 3640 b3 3500", md)

    def test_t0json_narrower_than_boots_fails(self):
        """validate: a t0.json reporting less than the range its boots counted fails"""
        res, _, _, _ = boots_run([1015, 1015, 1015])
        first_row(self, res)["insns_by_boot"]["2"] = "1056"
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "t0"))
            write_json(os.path.join(d, "t0", "t0.json"), res)
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                rc = t0cells.validate(d)
        self.assertNotEqual(rc, 0, out.getvalue())
        self.assertIn("not ok", out.getvalue())
        self.assertIn("span what each of its boots counted", out.getvalue())


if __name__ == "__main__":
    sys.exit(tap.run_file(__file__))
