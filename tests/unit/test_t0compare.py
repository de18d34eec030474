#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of t0.py compare (nft_concat_range/nftbench/t0compare.py):
runs of two bases side by side, the lookup less its drop cell, ranges,
the patched kernel shown with knob 0 only.  No kernel, no QEMU.

python3 tests/unit/test_t0compare.py (TAP, as tests/lab/t0.sh runs it),
or python3 tests/unit/test_t0compare.py -v (unittest's own runner)."""
import json
import os
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "nft_concat_range"))
from nftbench import t0compare  # noqa: E402


def row(cell, variant, mitigation, knob, insns, thunks):
    return dict(cell=cell, variant=variant, mitigation=mitigation, knob=knob, kernel_insns=insns,
                indirect_thunks=thunks)


def store(top, name, run, rows):
    d = os.path.join(top, name)
    os.makedirs(os.path.join(d, "t0"))
    with open(os.path.join(d, "t0", "t0.json"), "w") as f:
        json.dump(dict(run=run, rows=rows), f)
    return d


def line_of(text, start, section=0):
    """The SECTION-th table row of TEXT that starts with START."""
    rows = [ln for ln in text.splitlines() if ln.startswith(start)]
    return [c.strip() for c in rows[section].split("|")]


class Compare(unittest.TestCase):
    """Two stored runs: 6.12 baseline and patched (knob 0 and 1), 7.3
    baseline with the larger rbtree set (tag -10k)."""

    @classmethod
    def setUpClass(cls):
        cls.top = tempfile.mkdtemp(prefix="t0compare-")
        cls.old = store(cls.top, "t0-old", dict(rounds=1, reps=2), [
            row("T0/net_port/drop/n0/k-", "baseline", "retpoline", "-", "503", "2"),
            row("T0/net_port/rbtree/n1/k-", "baseline", "retpoline", "-", "2556", "2"),
            row("T0/net_port/drop/n0/k0", "patched", "retpoline", "0", "516", "0"),
            row("T0/net_port/rbtree/n1/k0", "patched", "retpoline", "0", "922", "0"),
            row("T0/net_port/rbtree/n1/k1", "patched", "retpoline", "1", "999999", "9")])
        cls.new = store(cls.top, "t0-new", dict(rounds=2, reps=1, base="7.3",
                                                base_version="linux-source-7.3 7.3.4-1~bpo13+1", nft="host"), [
            row("T0/net_port/drop/n0/k-", "baseline", "retpoline", "-", "500..502", "2"),
            row("T0/net_port/rbtree/n1/k-", "baseline", "retpoline", "-", "1600", "12"),
            row("T0/net_port/drop/n0/k--10k", "baseline", "retpoline", "-", "500", "2"),
            row("T0/net_port/rbtree/n1/k--10k", "baseline", "retpoline", "-", "1800", "16")])
        cls.text = t0compare.compare([cls.old, cls.new])

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.top, ignore_errors=True)

    def test_columns(self):
        """one column per base and kernel, in the order of the runs"""
        self.assertEqual(line_of(self.text, "scenario")[2:], ["6.12 baseline", "6.12 patched", "7.3 baseline"])

    def test_cell(self):
        """a cell's instructions / thunks in every column"""
        self.assertEqual(line_of(self.text, "rbtree n1  ")[2:], ["2556 / 2", "922 / 0", "1600 / 12"])

    def test_knob_1_left_out(self):
        """the patched kernel's forced-indirect runs (knob 1) are left out"""
        self.assertNotIn("999999", self.text)

    def test_lookup_alone(self):
        """the lookup alone is the cell less its group's drop cell; a range stays a range"""
        self.assertEqual(line_of(self.text, "rbtree n1  ", 1)[2:], ["2053 / 0", "406 / 0", "1098..1100 / 10"])

    def test_larger_set(self):
        """a cell of the larger set is paired with the drop cell of its own group"""
        self.assertEqual(line_of(self.text, "rbtree n1 10k", 1)[2:], ["-", "-", "1300 / 14"])

    def test_bases_named(self):
        """each run's base is named"""
        self.assertIn("linux-source-7.3 7.3.4-1~bpo13+1", self.text)
        self.assertIn("linux-source-6.12", self.text)

    def test_lookups(self):
        """--lookups rbtree: the lookup table of that backend alone, naming the runs"""
        text = t0compare.compare([self.old, self.new], lookups=["rbtree"])
        self.assertEqual(line_of(text, "  rbtree n1 10k")[2:], ["-", "-", "1300 / 14"])
        self.assertIn("rbtree n1  ", text)
        self.assertNotIn("drop", text)
        self.assertIn("t0-old, t0-new", text)

    def test_lookups_missing(self):
        """--lookups of a backend no run counted fails"""
        with self.assertRaises(SystemExit) as e:
            t0compare.compare([self.old, self.new], lookups=["pipapo"])
        self.assertIn("no cell of backend(s) pipapo", str(e.exception))


if __name__ == "__main__":
    sys.path.insert(0, HERE)
    import unittest_tap
    sys.exit(unittest_tap.run_file(__file__))
