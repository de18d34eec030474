#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of t0.py compare (nft_concat_range/nftbench/t0/compare.py):
runs of two bases side by side, the lookup less its drop cell, ranges, the
patched kernel shown with knob 0 only, deltas, labelled kernels, --cells,
--where, --function, --kernels, --attribute, --ratio, --summary.
No kernel, no QEMU.

python3 tests/unit/test_t0compare.py: TAP (lib/tap.py,
nested in tests/lab/t0-quick.sh's stream); -v: unittest's own runner."""
import json
import os
import runpy
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
runpy.run_path(os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..", "lib", "bootstrap.py"))
import tap  # noqa: E402
from nftbench.t0 import compare as t0compare  # noqa: E402

THREE = dict(rounds=3, reps=1)


def row(cell, variant, mitigation, knob, insns, thunks):
    return dict(cell=cell, variant=variant, mitigation=mitigation, knob=knob, kernel_insns=insns,
                indirect_thunks=thunks)


def store(top, name, run, rows):
    """A stored run NAME under TOP: t0.json's run (a 6.12 run unless RUN
    says otherwise: t0.py run records both) and rows."""
    run = dict(dict(base="6.12", base_version="linux-source-6.12"), **run)
    d = os.path.join(top, name)
    os.makedirs(os.path.join(d, "t0"))
    with open(os.path.join(d, "t0", "t0.json"), "w") as f:
        json.dump(dict(run=run, rows=rows), f)
    return d


def line_of(text, start, section=0):
    """The SECTION-th table row of TEXT that starts with START."""
    rows = [ln for ln in text.splitlines() if ln.startswith(start)]
    return [c.strip() for c in rows[section].split("|")]


def two_bases(top):
    """(t0-old, t0-new): a 6.12 run of both kernels (the patched one with
    knob 0 and 1), a 7.3 run of the baseline with a larger set too."""
    old = store(top, "t0-old", dict(rounds=1, reps=2), [
        row("T0/net_port/drop/n0/k-", "baseline", "retpoline", "-", "503", "2"),
        row("T0/net_port/rbtree/n1/k-", "baseline", "retpoline", "-", "2556", "2"),
        row("T0/net_port/drop/n0/k0", "patched", "retpoline", "0", "516", "0"),
        row("T0/net_port/rbtree/n1/k0", "patched", "retpoline", "0", "922", "0"),
        row("T0/net_port/rbtree/n1/k1", "patched", "retpoline", "1", "999999", "9")])
    new = store(top, "t0-new", dict(rounds=2, reps=1, base="7.3", base_version="linux-source-7.3 7.3.4-1~bpo13+1",
                                    nft="host"), [
        row("T0/net_port/drop/n0/k-", "baseline", "retpoline", "-", "500..502", "2"),
        row("T0/net_port/rbtree/n1/k-", "baseline", "retpoline", "-", "1600", "12"),
        row("T0/net_port/drop/n0/k--10k", "baseline", "retpoline", "-", "500", "2"),
        row("T0/net_port/rbtree/n1/k--10k", "baseline", "retpoline", "-", "1800", "16")])
    return old, new


def three_boot_runs(top):
    """(t0-a, t0-b): the baseline and the patched kernel, 3 boots each."""
    a = store(top, "t0-a", THREE, [
        row("T0/net_port/hash/n1/k-", "baseline", "retpoline", "-", "1015", "2"),
        row("T0/ct/ct/n1/k-", "baseline", "retpoline", "-", "3818.50..3872.37", "6"),
        row("T0/net_port/drop/n0/k-", "baseline", "retpoline", "-", "503", "2")])
    b = store(top, "t0-b", THREE, [
        row("T0/net_port/hash/n1/k0", "patched", "retpoline", "0", "1029", "0"),
        row("T0/ct/ct/n1/k0", "patched", "retpoline", "0", "3843.43..3932.59", "3"),
        row("T0/net_port/drop/n0/k0", "patched", "retpoline", "0", "503", "0")])
    return a, b


def labelled_runs(top):
    """(t0-p12, t0-p123): two runs of one base whose patched kernels carry
    different parts of the series, each named by the run (t0.py run --label)."""
    p12 = store(top, "t0-p12", dict(THREE, base="7.3", labels={"patched": "7.3 1-2"}), [
        row("T0/net_port/hash/n1/k0", "patched", "retpoline", "0", "1029", "0")])
    p123 = store(top, "t0-p123", dict(THREE, base="7.3", labels={"patched": "7.3 1-3"}), [
        row("T0/net_port/hash/n1/k0", "patched", "retpoline", "0", "1001", "0")])
    return p12, p123


class Stored(unittest.TestCase):
    """A test class whose stored runs live in a temporary directory of its own."""

    @classmethod
    def setUpClass(cls):
        tmp = tempfile.TemporaryDirectory()
        cls.addClassCleanup(tmp.cleanup)
        cls.top = tmp.name


class TwoBases(Stored):
    """compare of a 6.12 run and a 7.3 run."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.old, cls.new = two_bases(cls.top)
        cls.text = t0compare.compare([cls.old, cls.new])

    def test_columns(self):
        """one column per base and kernel, in the order of the runs"""
        hdr = line_of(self.text, "scenario")
        self.assertEqual(hdr[2:], ["6.12 baseline", "6.12 patched", "7.3 baseline"])

    def test_cell_in_every_column(self):
        """a cell's instructions / thunks in every column"""
        r = line_of(self.text, "rbtree n1  ")
        self.assertEqual(r[2:], ["2556 / 2", "922 / 0", "1600 / 12"])

    def test_knob_1_left_out(self):
        """the patched kernel's forced-indirect runs (knob 1) are left out"""
        self.assertNotIn("999999", self.text)

    def test_lookup_less_drop_cell(self):
        """the lookup alone is the cell less its group's drop cell; a range stays a range"""
        r = line_of(self.text, "rbtree n1  ", 1)
        self.assertEqual(r[2:], ["2053 / 0", "406 / 0", "1098..1100 / 10"])

    def test_larger_set_paired_with_own_drop_cell(self):
        """a cell of the larger set is paired with the drop cell of its own group"""
        r = line_of(self.text, "rbtree n1 10k", 1)
        self.assertEqual(r[2:], ["-", "-", "1300 / 14"])

    def test_bases_named(self):
        """each run's base is named"""
        self.assertIn("linux-source-7.3 7.3.4-1~bpo13+1", self.text, "the 7.3 run's base_version")
        self.assertIn("linux-source-6.12", self.text, "the 6.12 run's base")

    def test_lookups_table(self):
        """--lookups rbtree: the lookup table of that backend alone, naming the runs"""
        text = t0compare.compare([self.old, self.new], lookups=["rbtree"])
        r = line_of(text, "  rbtree n1 10k")
        self.assertEqual(r[2:], ["-", "-", "1300 / 14"], text)
        self.assertIn("rbtree n1  ", text)
        self.assertNotIn("drop", text)
        self.assertIn("(T0 runs t0-old,\n   t0-new)", text)

    def test_lookups_of_missing_backend_fails(self):
        """--lookups of a backend no run counted fails"""
        with self.assertRaises(SystemExit) as cm:
            t0compare.compare([self.old, self.new], lookups=["pipapo"])
        self.assertIn("no cell of backend(s) pipapo", str(cm.exception))


# A delta counts only where the ranges of at least 3 boots each do not overlap.
class Deltas(Stored):
    """compare of the baseline and the patched kernel: the delta table."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.a, cls.b = three_boot_runs(cls.top)
        cls.text = t0compare.compare([cls.a, cls.b])

    def test_delta_table_says_what_counts(self):
        """the delta table says what counts"""
        self.assertIn("a delta counts only where the two ranges do not overlap", self.text)

    def test_disjoint_ranges_count(self):
        """disjoint ranges of 3 boots each: the delta counts, unmarked"""
        self.assertEqual(line_of(self.text, "hash n1  ", 2)[2:], ["+14"])

    def test_overlapping_ranges_not_proven(self):
        """overlapping ranges: the delta is not proven"""
        self.assertEqual(line_of(self.text, "conntrack + nft", 1)[2:], ["-28.94..+114.09 (not proven: overlap)"])

    def test_same_count_no_delta(self):
        """the same count in both kernels is no delta"""
        self.assertEqual(line_of(self.text, "drop (hook only)", 1)[2:], ["0 (same)"])

    def test_run_of_one_boot_not_proven(self):
        """a run of one boot: even a delta of disjoint counts is not proven"""
        one = store(self.top, "t0-one", dict(rounds=1, reps=2), [
            row("T0/net_port/hash/n1/k0", "patched", "retpoline", "0", "1029", "0")])
        r = line_of(t0compare.compare([self.a, one]), "hash n1  ", 2)
        self.assertEqual(r[2:], ["+14 (not proven: 1 boot)"])

    def test_cell_of_one_boot_not_proven(self):
        """a cell counted in one boot of a 3-boot run: even a delta of disjoint counts is not proven"""
        b2 = store(self.top, "t0-b2", dict(rounds=3, reps=1), [
            dict(row("T0/net_port/hash/n1/k0", "patched", "retpoline", "0", "1029", "0"), boots=1)])
        r = line_of(t0compare.compare([self.a, b2]), "hash n1  ", 2)
        self.assertEqual(r[2:], ["+14 (not proven: 1 boot)"])


class Labels(Stored):
    """compare of two runs of one base, their kernels named by --label."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.p12, cls.p123 = labelled_runs(cls.top)
        cls.text = t0compare.compare([cls.p12, cls.p123])

    def test_label_names_column(self):
        """a run's --label names its kernel's column"""
        self.assertEqual(line_of(self.text, "scenario")[2:], ["7.3 1-2", "7.3 1-3"])

    def test_labelled_kernels_get_delta(self):
        """labelled kernels of one base and variant get a delta of their own"""
        self.assertEqual(line_of(self.text, "hash n1  ", 2)[2:], ["-28"])


# --cells: one patch's own figure, its kernel against the one before it.
class Cells(Stored):
    """compare --cells: the per-packet rows of some backends."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.p12, cls.p123 = labelled_runs(cls.top)
        cls.a, cls.b = three_boot_runs(cls.top)

    def test_cells_table(self):
        """--cells hash: the per-packet rows of that backend, the delta, the runs named"""
        text = t0compare.compare([self.p12, self.p123], backends=["hash"])
        self.assertEqual(line_of(text, "  scenario")[2:], ["7.3 1-2", "7.3 1-3", "delta"], text)
        self.assertEqual(line_of(text, "  hash n1")[2:], ["1029 / 0", "1001 / 0", "-28"], text)
        self.assertIn("(T0 runs t0-p12,\n   t0-p123)", text)

    def test_other_backends_left_out(self):
        """--cells leaves out the cells of other backends"""
        text = t0compare.compare([self.a, self.b], backends=["hash"])
        self.assertNotIn("drop", text)
        self.assertNotIn("conntrack", text)

    def test_cells_of_missing_backend_fails(self):
        """--cells of a backend no run counted fails"""
        with self.assertRaises(SystemExit) as cm:
            t0compare.compare([self.p12, self.p123], backends=["rbtree"])
        self.assertIn("no cell of backend(s) rbtree", str(cm.exception))

    def test_ranges_in_whole_instructions(self):
        """--cells: a range widened to whole instructions, an overlap's delta marked ?"""
        runs = [store(self.top, "t0-range-%d" % i, dict(rounds=3, reps=1, base="7.3", labels={"patched": lab}),
                      [row("T0/net_port/hash/n1/k0", "patched", "retpoline", "0", insns, "0")])
                for i, (lab, insns) in enumerate((("7.3 1-2", "1002.40..1042.60"), ("7.3 1-3", "1030")))]
        r = line_of(t0compare.compare(runs, backends=["hash"]), "  hash n1")
        self.assertEqual(r[2:], ["1002..1043 / 0", "1030 / 0", "-13..+28 ?"])

    def test_too_wide_for_a_commit_message(self):
        """--cells refuses a table wider than a commit message's 75 columns"""
        wide = [store(self.top, "t0-wide-%d" % i, dict(rounds=3, reps=1, base="7.3",
                                                      labels={"patched": "7.3 kernel %d" % i}),
                      [row("T0/ct/ct/n1/k0", "patched", "retpoline", "0", "3843.43..3932.59", "3")])
                for i in range(3)]
        with self.assertRaises(SystemExit) as cm:
            t0compare.compare(wide, backends=["ct"])
        self.assertIn("wider than 75 columns", str(cm.exception))

    def test_lines_fit_a_commit_message(self):
        """every line --cells prints fits a commit message"""
        text = t0compare.compare([self.p12, self.p123], backends=["hash"])
        self.assertLessEqual(max(len(ln) for ln in text.splitlines()), 75, text)


def pf_row(cell, mitigation, funcs, knob="0"):
    """A patched-kernel row counted per function: FUNCS {name: count}
    (strings, the same in each of 3 boots), instructions their sum."""
    insns = str(sum(int(v) for v in funcs.values()))
    return dict(cell=cell, variant="patched", mitigation=mitigation, knob=knob, kernel_insns=insns,
                indirect_thunks="0", per_function=dict(boots=[1, 2, 3], insns=insns, funcs=funcs))


# --where: a patch's effect by where the instructions go.
class Where(Stored):
    """compare --where: retpoline less off, by category, per kernel."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        run = dict(rounds=3, reps=1, base="7.3")
        off = {"nft_do_chain": "100", "nf_hook_slow": "20", "other_fn": "300"}
        cls.before = store(cls.top, "t0-before", dict(run, labels={"patched": "7.3 1-5"}), [
            pf_row("T0/net_port/drop/n0/k0", "off", off),
            pf_row("T0/net_port/drop/n0/k0", "retpoline",
                   {"nft_do_chain": "144", "nf_hook_slow": "31", "other_fn": "300"}),
            pf_row("T0/net_port/drop/n0/k1", "retpoline",
                   {"nft_do_chain": "999", "nf_hook_slow": "20", "__x86_indirect_thunk_rax": "30"}, knob="1"),
            pf_row("T0/net_port/drop/n0/k1", "off", off, knob="1")])
        cls.after = store(cls.top, "t0-after", dict(run, labels={"patched": "7.3 1-6"}), [
            pf_row("T0/net_port/drop/n0/k0", "off", off),
            pf_row("T0/net_port/drop/n0/k0", "retpoline",
                   {"nft_do_chain": "114", "nf_hook_slow": "31", "other_fn": "300"})])
        cls.text = t0compare.compare([cls.before, cls.after], where=["drop"])

    def test_categories_per_kernel(self):
        """--where drop: each kernel's total and categories, retpoline less off"""
        self.assertEqual(line_of(self.text, "  drop", 0)[1:], ["7.3 1-5", "+55", "+44", "0", "+11", "0", "0"],
                         self.text)
        self.assertEqual(line_of(self.text, "  drop", 1)[1:], ["7.3 1-6", "+25", "+14", "0", "+11", "0", "0"],
                         self.text)

    def test_knob_one_left_out(self):
        """--where leaves out the lab knob's forced-indirect rows"""
        self.assertEqual(len([ln for ln in self.text.splitlines() if ln.startswith("  drop")]), 2, self.text)

    def test_lines_fit_a_commit_message(self):
        """every line --where prints fits a commit message"""
        self.assertLessEqual(max(len(ln) for ln in self.text.splitlines()), 75, self.text)

    def test_runs_without_per_function_fail(self):
        """--where on runs not counted per function fails, naming them"""
        a, b = three_boot_runs(self.top)
        with self.assertRaises(SystemExit) as cm:
            t0compare.compare([a, b], where=["drop"])
        self.assertIn("counted per function", str(cm.exception))


# --function: what one function of a patch costs, in every cell.
class Function(Stored):
    """compare --function: the instructions spent in named functions, per
    kernel, and the delta."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        run = dict(rounds=3, reps=1, base="7.3")
        cls.before = store(cls.top, "t0-p4", dict(run, labels={"patched": "7.3 1-4"}), [
            pf_row("T0/net_port/drop/n0/k0", "off", {"nf_hook_slow": "35", "other_fn": "300"}),
            pf_row("T0/net_port/drop/n0/k0", "retpoline", {"nf_hook_slow": "35", "other_fn": "330"}),
            pf_row("T0/net_port/nohook/n0/k0", "off", {"other_fn": "339"})])
        cls.after = store(cls.top, "t0-p5", dict(run, labels={"patched": "7.3 1-5"}), [
            pf_row("T0/net_port/drop/n0/k0", "off", {"nf_hook_slow": "35", "other_fn": "300"}),
            pf_row("T0/net_port/drop/n0/k0", "retpoline", {"nf_hook_slow_nft": "37", "other_fn": "300"}),
            pf_row("T0/net_port/nohook/n0/k0", "off", {"other_fn": "339"})])
        cls.text = t0compare.compare([cls.before, cls.after], functions=["nf_hook_slow", "nf_hook_slow_nft"])

    def test_functions_summed_per_kernel(self):
        """--function A,B: the sum of both functions in each kernel, and the delta"""
        self.assertEqual(line_of(self.text, "  drop", 0)[1:], ["off", "35", "35", "0"], self.text)
        self.assertEqual(line_of(self.text, "  drop", 1)[1:], ["retpoline", "35", "37", "+2"], self.text)

    def test_cells_that_never_ran_them_left_out(self):
        """--function leaves out the cells whose packets did not run the functions"""
        self.assertNotIn("no hook", self.text)

    def test_overlapping_ranges_not_proven(self):
        """--function marks a delta whose per-boot ranges overlap with "?\""""
        a = store(self.top, "t0-fa", dict(THREE, base="7.3", labels={"patched": "a"}), [
            dict(pf_row("T0/net_port/drop/n0/k0", "off", {}),
                 per_function=dict(boots=[1, 2, 3], insns=["10", "12", "11"],
                                   funcs={"nf_hook_slow": ["10", "12", "11"]}))])
        b = store(self.top, "t0-fb", dict(THREE, base="7.3", labels={"patched": "b"}), [
            pf_row("T0/net_port/drop/n0/k0", "off", {"nf_hook_slow": "11"})])
        text = t0compare.compare([a, b], functions=["nf_hook_slow"])
        self.assertEqual(line_of(text, "  drop", 0)[1:], ["off", "10..12", "11", "-1..+1 ?"], text)

    def test_kernels_picks_and_orders(self):
        """--kernels: only the kernels named, in that order, the delta against the first named"""
        text = t0compare.compare([self.before, self.after], functions=["nf_hook_slow", "nf_hook_slow_nft"],
                                 kernels=["7.3 1-5", "7.3 1-4"])
        self.assertEqual(line_of(text, "  scenario")[2:], ["7.3 1-5", "7.3 1-4", "delta"], text)
        self.assertEqual(line_of(text, "  drop", 1)[1:], ["retpoline", "37", "35", "-2"], text)
        one = t0compare.compare([self.before, self.after], functions=["nf_hook_slow"], kernels=["7.3 1-4"])
        self.assertNotIn("7.3 1-5", one)

    def test_kernels_unknown_label_fails(self):
        """--kernels with a label no run has fails, naming the labels there are"""
        with self.assertRaises(SystemExit) as cm:
            t0compare.compare([self.before], functions=["nf_hook_slow"], kernels=["7.3 1-9"])
        self.assertIn("'7.3 1-4'", str(cm.exception))

    def test_runs_without_per_function_fail(self):
        """--function on runs not counted per function fails, naming them"""
        a, b = three_boot_runs(self.top)
        with self.assertRaises(SystemExit) as cm:
            t0compare.compare([a, b], functions=["nf_hook_slow"])
        self.assertIn("counted per function", str(cm.exception))


def store_code(d, variant, functions):
    """t0/code.json of run D: VARIANT's FUNCTIONS {name: digest}."""
    with open(os.path.join(d, "t0", "code.json"), "w") as f:
        json.dump({variant: dict(stamp="tree:x", functions=functions)}, f)


# --attribute: which part of a delta is in code that changed.
class Attribute(Stored):
    """compare --attribute: per cell, the functions whose counts differ
    between two kernels, and whether their code does."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        run = dict(rounds=3, reps=1, base="7.3")
        cls.before = store(cls.top, "t0-a5", dict(run, labels={"patched": "7.3 1-5"}), [
            pf_row("T0/net_port/rbtree/n1/k0", "off", {"nft_do_chain": "100", "nft_rbtree_lookup": "342",
                                                        "ip_rcv": "50"}),
            pf_row("T0/net_port/rbtree/n1/k0", "retpoline", {"nft_do_chain": "140", "nft_rbtree_lookup": "342",
                                                              "ip_rcv": "50"})])
        cls.after = store(cls.top, "t0-a6", dict(run, labels={"patched": "7.3 1-6"}), [
            pf_row("T0/net_port/rbtree/n1/k0", "off", {"nft_do_chain": "100", "nft_rbtree_lookup": "343",
                                                        "ip_rcv": "50"}),
            pf_row("T0/net_port/rbtree/n1/k0", "retpoline", {"nft_do_chain": "102", "nft_rbtree_lookup": "343",
                                                              "ip_rcv": "50", "nft_expr_new": "5"})])
        store_code(cls.before, "patched", {"nft_do_chain": "a", "nft_rbtree_lookup": "b", "ip_rcv": "c"})
        store_code(cls.after, "patched", {"nft_do_chain": "A", "nft_rbtree_lookup": "b", "ip_rcv": "c",
                                          "nft_expr_new": "d"})
        cls.text = t0compare.compare([cls.before, cls.after], attribute=["rbtree"])

    def test_same_code_delta_split_off(self):
        """a delta in a function whose code is the same is reported as such, not as the patch's"""
        self.assertIn("rbtree n1, off: +1 (same code +1, elsewhere 0)", self.text)
        self.assertEqual(line_of(self.text, "  nft_rbtree_lookup", 0)[1:], ["342", "343", "+1", "same"], self.text)

    def test_changed_and_new_functions(self):
        """functions whose code differs are "changed", functions only the second kernel has "new\""""
        self.assertIn("rbtree n1, retpoline: -32 (same code +1, elsewhere -33)", self.text)
        self.assertEqual(line_of(self.text, "  nft_do_chain", 0)[1:], ["140", "102", "-38", "changed"], self.text)
        self.assertEqual(line_of(self.text, "  nft_expr_new", 0)[1:], ["0", "5", "+5", "new"], self.text)

    def test_unchanged_counts_left_out(self):
        """functions that count the same in both kernels get no row"""
        self.assertNotIn("ip_rcv", self.text)

    def test_without_code_json(self):
        """a run without code.json marks every function "?", counted elsewhere"""
        old = store(self.top, "t0-a5-nocode", dict(rounds=3, reps=1, base="7.3", labels={"patched": "old"}), [
            pf_row("T0/net_port/rbtree/n1/k0", "off", {"nft_rbtree_lookup": "342"})])
        text = t0compare.compare([old, self.after], attribute=["rbtree"], kernels=["old", "7.3 1-6"])
        self.assertEqual(line_of(text, "  nft_rbtree_lookup", 0)[1:], ["342", "343", "+1", "?"], text)

    def test_two_kernels_only(self):
        """--attribute with three kernels fails and says to pick two"""
        third = store(self.top, "t0-a7", dict(rounds=3, reps=1, base="7.3", labels={"patched": "x"}), [
            pf_row("T0/net_port/rbtree/n1/k0", "off", {"nft_rbtree_lookup": "1"})])
        with self.assertRaises(SystemExit) as cm:
            t0compare.compare([self.before, self.after, third], attribute=["rbtree"])
        self.assertIn("--kernels", str(cm.exception))

    def test_lines_fit_a_commit_message(self):
        """every line --attribute prints fits a commit message"""
        self.assertLessEqual(max(len(ln) for ln in self.text.splitlines()), 75, self.text)


class Ratio(Stored):
    """compare --ratio: retpoline against spectre_v2=off and the 1.03x target."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.stored = store(cls.top, "t0-ratio", dict(rounds=3, reps=1, base="7.3", labels={"patched": "7.3 1-6"}), [
            row("T0/net_port/drop/n0/k-", "patched", "retpoline", "-", "518", "0"),
            row("T0/net_port/drop/n0/k-", "patched", "off", "-", "489", "0"),
            row("T0/net_port/drop/n0/k--10k", "patched", "retpoline", "-", "500", "0"),
            row("T0/net_port/drop/n0/k--10k", "patched", "off", "-", "489", "0"),
            row("T0/net_port/dynset/n1/k-", "patched", "retpoline", "-", "938.13..939.48", "0"),
            row("T0/net_port/dynset/n1/k-", "patched", "off", "-", "889.88..890.39", "0"),
            row("T0/net_port/hash/n1/k-", "patched", "retpoline", "-", "1050", "1")])
        cls.text = t0compare.compare([cls.stored], ratio=["drop", "dynset", "hash"])

    def test_over_the_target(self):
        """a cell above 1.03x: its ratio and the instructions beyond 1.03x off, both rounded up"""
        self.assertEqual(line_of(self.text, "  drop ")[1:], ["7.3 1-6", "518 / 0", "489", "1.060", "+14.4"],
                         self.text)

    def test_under_the_target(self):
        """a cell under 1.03x: a negative margin"""
        self.assertEqual(line_of(self.text, "  drop 10k")[4:], ["1.023", "-3.6"], self.text)

    def test_ranges_worst_case(self):
        """ranges: the highest retpoline count against the lowest off one, rounded up"""
        self.assertEqual(line_of(self.text, "  dynset")[2:], ["938..940 / 0", "889..891", "1.056", "+23.0"],
                         self.text)

    def test_cell_without_off_left_out(self):
        """a cell counted with retpolines only gets no row"""
        self.assertNotIn("hash", self.text)

    def test_no_pair_fails(self):
        """--ratio of cells none of which has both counts fails"""
        with self.assertRaises(SystemExit) as cm:
            t0compare.compare([self.stored], ratio=["hash"])
        self.assertIn("both spectre_v2=retpoline and =off", str(cm.exception))

    def test_lines_fit_a_commit_message(self):
        """every line --ratio prints fits a commit message"""
        self.assertLessEqual(max(len(ln) for ln in self.text.splitlines()), 75, self.text)


class Posting(Stored):
    """compare --posting: the tables name no lab run."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.a, cls.b = three_boot_runs(cls.top)

    def tearDown(self):
        t0compare.POSTING["on"] = False

    def test_runs_named_by_default(self):
        """without it, a table names the runs it comes from"""
        text = t0compare.compare([self.a, self.b], backends=["hash"])
        self.assertIn("(T0 runs t0-a,", text)

    def test_posting_names_no_run(self):
        """with it, one line says how the counts were taken, and no run is named"""
        t0compare.POSTING["on"] = True
        text = t0compare.compare([self.a, self.b], backends=["hash"])
        self.assertIn("(QEMU TCG, x86_64, 3 boots per kernel and spectre_v2= setting)", text)
        self.assertNotIn("t0-a", text)
        self.assertNotIn("t0-b", text)


class Rounded(Stored):
    """compare --backends: where ranges widened to whole instructions look
    as if they overlapped but the counts do not, the legend says that the
    delta is taken before rounding."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.a = store(cls.top, "t0-d1", THREE, [
            row("T0/net_port/dynset/n1/k-", "baseline", "retpoline", "-", "971.40..972.80", "3"),
            row("T0/net_port/hash/n1/k-", "baseline", "retpoline", "-", "1015", "2")])
        cls.b = store(cls.top, "t0-d2", THREE, [
            row("T0/net_port/dynset/n1/k0", "patched", "retpoline", "0", "973.00..973.90", "2"),
            row("T0/net_port/hash/n1/k0", "patched", "retpoline", "0", "1029", "0")])

    def test_rounding_said(self):
        """971.4..972.8 against 973.0..973.9 shows as 971..973 and 973..974:
        the delta counts, and the legend says it is taken before rounding"""
        text = t0compare.compare([self.a, self.b], backends=["dynset"])
        self.assertEqual(line_of(text, "  dynset")[2:], ["971..973 / 3", "973..974 / 2", "+0.2..+2.5"])
        self.assertIn("the ranges before rounding", text)

    def test_plain_legend_otherwise(self):
        """a table without such a row keeps the shorter legend"""
        text = t0compare.compare([self.a, self.b], backends=["hash"])
        self.assertEqual(line_of(text, "  hash n1")[2:4], ["1015 / 2", "1029 / 0"])
        self.assertNotIn("before rounding", text)


class Summary(Stored):
    """compare --summary: a cover letter's table, before -> after."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        a = store(cls.top, "t0-before", dict(THREE, base="7.3"), [
            row("T0/net_port/drop/n0/k-", "baseline", "retpoline", "-", "539", "2"),
            row("T0/net_port/drop/n0/k-", "baseline", "off", "-", "489", "0"),
            row("T0/net_port/drop/n0/k--10k", "baseline", "retpoline", "-", "539", "2"),
            row("T0/net_port/drop/n0/k--10k", "baseline", "off", "-", "489", "0"),
            row("T0/ct/ct/n1/k-", "baseline", "retpoline", "-", "3944.2..4001.7", "6"),
            row("T0/ct/ct/n1/k-", "baseline", "off", "-", "3968..4082", "0")])
        b = store(cls.top, "t0-after", dict(THREE, base="7.3", labels={"patched": "7.3 1-7"}), [
            row("T0/net_port/drop/n0/k-", "patched", "retpoline", "-", "518", "0"),
            row("T0/net_port/drop/n0/k-", "patched", "off", "-", "489", "0"),
            row("T0/net_port/drop/n0/k--10k", "patched", "retpoline", "-", "518", "0"),
            row("T0/net_port/drop/n0/k--10k", "patched", "off", "-", "489", "0"),
            row("T0/ct/ct/n1/k-", "patched", "retpoline", "-", "4087..4089", "3"),
            row("T0/ct/ct/n1/k-", "patched", "off", "-", "3914..3975", "0")])
        cls.runs = [a, b]
        cls.text = t0compare.compare(cls.runs, summary=["drop", "ct"])

    def test_row_before_after(self):
        """a cell's thunks before -> after, then its four counts"""
        self.assertEqual(line_of(self.text, "  hook only"), ["hook only", "2 -> 0", "539", "518", "489", "489"],
                         self.text)

    def test_ranges_widened(self):
        """a range in whole instructions, widened outwards"""
        self.assertEqual(line_of(self.text, "  conntrack + nft")[1:3], ["6 -> 3", "3944..4002"], self.text)

    def test_drop_of_another_set_size_left_out(self):
        """the drop cell of the 10k group counts what drop counts: no row"""
        self.assertNotIn("10k", self.text)

    def test_kernels_named_not_runs(self):
        """the kernels are named, the lab's run directories are not"""
        self.assertIn("before (7.3 baseline) -> after (7.3 1-7)", self.text)
        self.assertNotIn("t0-before", self.text)

    def test_more_than_two_kernels_fails(self):
        """--summary of three kernels fails and says how to choose two"""
        c = store(self.top, "t0-third", dict(THREE, base="7.3", labels={"patched": "7.3 1-6"}), [
            row("T0/net_port/drop/n0/k-", "patched", "retpoline", "-", "518", "0")])
        with self.assertRaises(SystemExit) as cm:
            t0compare.compare(self.runs + [c], summary=["drop"])
        self.assertIn("--kernels", str(cm.exception))

    def test_lines_fit_a_cover_letter(self):
        """every line fits 80 columns"""
        self.assertLessEqual(max(len(ln) for ln in self.text.splitlines()), 80, self.text)


if __name__ == "__main__":
    sys.exit(tap.run_file(__file__))
