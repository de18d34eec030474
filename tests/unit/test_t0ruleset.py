#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of T0 for anyone's ruleset (nft_concat_range/nftbench/
t0/ruleset.py): the packet SPEC, the ruleset files, the plan of a ruleset run,
validate's expected cells, the report's cost table.  No kernel, no QEMU.

python3 tests/unit/test_t0ruleset.py: TAP (lib/tap.py); -v: unittest's own
runner."""
import json
import os
import runpy
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
runpy.run_path(os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..", "lib", "bootstrap.py"))
import tap  # noqa: E402
from nftbench.t0 import cells as t0cells, ruleset as t0ruleset, text as t0text  # noqa: E402

CORPUS = os.path.join(HERE, "..", "corpus")


def refused(spec):
    """The message parse_packets(SPEC) refuses SPEC with."""
    try:
        t0ruleset.parse_packets(spec)
    except SystemExit as e:
        return str(e)
    raise AssertionError("--packets %s was accepted" % spec)


class Packets(unittest.TestCase):
    def test_defaults(self):
        """--packets daddr=A: UDP from TEST-NET-1, pktgen's ports, 80 bytes, delivered locally"""
        self.assertEqual(t0ruleset.parse_packets("daddr=10.0.0.1"),
                         dict(ipver=4, daddr="10.0.0.1", saddr="192.0.2.1", route="local", proto="udp",
                              sport=9, dport=9, size=80))

    def test_ipv6_and_every_key(self):
        """--packets: an IPv6 packet, every key given"""
        p = t0ruleset.parse_packets("daddr=2001:db8::1,saddr=2001:db8:1::2,sport=1234,dport=22,size=120,"
                                    "proto=udp,route=forward")
        self.assertEqual((p["ipver"], p["saddr"], p["sport"], p["dport"], p["size"], p["route"]),
                         (6, "2001:db8:1::2", 1234, 22, 120, "forward"))
        self.assertEqual(t0ruleset.parse_packets("daddr=2001:db8::1")["saddr"], "2001:db8:ffff::1")

    def test_spec_text_round_trip(self):
        """spec_text() gives back a SPEC that parses to the same packet"""
        p = t0ruleset.parse_packets("daddr=10.0.0.1,dport=443,route=none")
        self.assertEqual(t0ruleset.parse_packets(t0ruleset.spec_text(p)), p)

    def test_refusals(self):
        """--packets: whatever T0 cannot send as asked is refused, naming why"""
        for spec, why in (("dport=22", "needs daddr"), ("daddr=10.0.0.1,port=22", "unknown key 'port'"),
                          ("daddr=10.0.0.1,dport=1,dport=2", "given twice"),
                          ("daddr=10.0.0.1,proto=tcp", "UDP only"), ("daddr=10.0.0.300", "not an IPv4"),
                          ("daddr=10.0.0.1,saddr=2001:db8::1", "not of one IP version"),
                          ("daddr=10.0.0.1,saddr=10.0.0.1", "martian"),
                          ("daddr=10.0.0.1,dport=0", "from 1 to 65535"),
                          ("daddr=2001:db8::1,size=60", "from 80"),
                          ("daddr=10.0.0.1,route=bridge", "one of local, forward, none"),
                          ("daddr=10.0.0.1,", "not KEY=VALUE"), ("daddr=10.0.0.1,saddr6=::1", "unknown key")):
            self.assertIn(why, refused(spec), spec)


class Rulesets(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def file(self, name, text):
        path = os.path.join(self.tmp.name, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_load(self):
        """--ruleset: the cell's name from the file's, its text and digest kept"""
        rs = t0ruleset.load(self.file("fw.nft", "table inet t {}\n"), "daddr=10.0.0.1")
        self.assertEqual((rs["name"], rs["text"], len(rs["sha256"])), ("fw", "table inet t {}\n", 64))

    def test_refused_files(self):
        """--ruleset: include, an empty file, a name a cell cannot carry and a missing file are refused"""
        for name, text, why in (("inc.nft", 'include "/etc/x.nft"\n', "'include' is not supported"),
                                ("empty.nft", "\n", "is empty"), ("a b.nft", "table ip t {}\n", "letters")):
            with self.assertRaises(SystemExit) as cm:
                t0ruleset.load(self.file(name, text), "daddr=10.0.0.1")
            self.assertIn(why, str(cm.exception))
        with self.assertRaises(SystemExit) as cm:
            t0ruleset.load(os.path.join(self.tmp.name, "absent.nft"), "daddr=10.0.0.1")
        self.assertIn("No such file", str(cm.exception))

    def test_pairing(self):
        """--ruleset A --ruleset B: one --packets for both, or one each, in order; else refused"""
        a, b = self.file("a.nft", "table ip a {}\n"), self.file("b.nft", "table ip b {}\n")
        both = t0ruleset.load_all([a, b], ["daddr=10.0.0.1"])
        self.assertEqual([r["packets"]["daddr"] for r in both], ["10.0.0.1"] * 2)
        each = t0ruleset.load_all([a, b], ["daddr=10.0.0.1", "daddr=10.0.0.2"])
        self.assertEqual([r["packets"]["daddr"] for r in each], ["10.0.0.1", "10.0.0.2"])
        with self.assertRaises(SystemExit) as cm:
            t0ruleset.load_all([a, b], ["daddr=10.0.0.1"] * 3)
        self.assertIn("one per --ruleset", str(cm.exception))
        with self.assertRaises(SystemExit) as cm:
            t0ruleset.load_all([a, a], ["daddr=10.0.0.1"])
        self.assertIn("two rulesets named a", str(cm.exception))


class Plan(unittest.TestCase):
    """write_plan() of a ruleset run: two corpus rulesets, two passes."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.addClassCleanup(cls.tmp.cleanup)
        cls.d = cls.tmp.name
        cls.rulesets = t0ruleset.load_all([os.path.join(CORPUS, "host-firewall.nft"),
                                           os.path.join(CORPUS, "host-firewall-ipv6.nft")],
                                          ["daddr=10.0.0.1,dport=22", "daddr=2001:db8::1,route=forward"])
        cls.n = t0cells.write_plan(cls.d, "patched", False, reps=2, knob=True, rulesets=cls.rulesets)
        with open(os.path.join(cls.d, "plan.tsv")) as f:
            cls.lines = [ln.split("\t") for ln in f.read().splitlines()]
        cls.groups = [ln for ln in cls.lines if ln[0] == "group"]
        cls.cells = [ln for ln in cls.lines if ln[0] == "cell"]

    def read(self, name):
        with open(os.path.join(self.d, name)) as f:
            return f.read()

    def test_groups(self):
        """a ruleset run: per ruleset, the packet without it and with it, in the SPEC's route mode"""
        self.assertEqual([(g[1], g[2], g[4], g[5], g[6]) for g in self.groups],
                         [("T0-rs-none-host-firewall", "rx-local", "4", "10.0.0.1", "22"),
                          ("T0-rs-host-firewall", "rx-local", "4", "10.0.0.1", "22"),
                          ("T0-rs-none-host-firewall-ipv6", "rx-forward", "6", "2001:db8::1", "9"),
                          ("T0-rs-host-firewall-ipv6", "rx-forward", "6", "2001:db8::1", "9")])

    def test_pktgen_options(self):
        """a ruleset group: a new skb per packet, the SPEC's source address and port"""
        self.assertEqual(self.groups[0][10], "burst 1;src_min 192.0.2.1;src_max 192.0.2.1;"
                                             "udp_src_min 9;udp_src_max 9")
        self.assertEqual(self.groups[2][10], "burst 1;src6 2001:db8:ffff::1;udp_src_min 9;udp_src_max 9")

    def test_sets_files(self):
        """the ruleset group loads the file as it is after 'flush ruleset'; the none group flushes only"""
        self.assertEqual(self.read(self.groups[0][9]), "flush ruleset\n")
        with open(os.path.join(CORPUS, "host-firewall.nft")) as f:
            self.assertTrue(self.read(self.groups[1][9]).startswith("flush ruleset\n# "))
            self.assertTrue(self.read(self.groups[1][9]).endswith(f.read()))

    def test_cells(self):
        """a ruleset run: the kernel as booted (knob -), no counter check but pktgen's own, every pass"""
        self.assertEqual(self.n, 8)
        self.assertEqual({(c[2], c[5]) for c in self.cells}, {("-", "none")})
        self.assertEqual([json.loads(c[6])["backend"] for c in self.cells[:4]], ["none", "none", "ruleset", "ruleset"])

    def test_expected_cells_and_ranged(self):
        """validate expects the ruleset cells of run.json; they are measured across boots"""
        stored = [t0ruleset.stored(r) for r in self.rulesets]
        want = {c["cell"] for _, cells in t0cells.scenarios("patched", False, True, None, 0, stored) for c in cells}
        self.assertEqual(want, {"T0/ruleset/%s/n0/k--%s" % (w, n) for w in ("none", "ruleset")
                                for n in ("host-firewall", "host-firewall-ipv6")})
        self.assertTrue(all(t0cells.ranged(c) for c in want))
        self.assertEqual(t0text.short_cell("T0/ruleset/none/n0/k--host-firewall"), "host-firewall: no ruleset")


class Render(unittest.TestCase):
    def test_cost_table(self):
        """the report: the ruleset's instructions less the packet's without it, ranges at their extremes"""
        rs = dict(name="fw", file="fw.nft", sha256="ab" * 32, packets=t0ruleset.parse_packets("daddr=10.0.0.1"))

        def row(what, insns, thunks):
            return dict(cell="T0/ruleset/%s/n0/k--fw" % what, variant="patched", mitigation="retpoline",
                        kernel_insns=insns, indirect_thunks=thunks, indirect_other="0")
        t0 = dict(run=dict(rulesets=[rs], variants=["patched"], mitigations=["retpoline"]),
                  rows=[row("none", "1000..1004", "3"), row("ruleset", "1500", "5")])
        text = "\n".join(t0ruleset.render(t0))
        line = [ln for ln in text.splitlines() if ln.startswith("fw ")]
        self.assertEqual([c.strip() for c in line[0].split("|")],
                         ["fw", "patched", "retpoline", "1500", "1000..1004", "496..500", "5 (3)", "0 (0)"], text)
        self.assertIn("packets daddr=10.0.0.1,saddr=192.0.2.1,proto=udp,sport=9,dport=9,size=80,route=local", text)

    def test_no_rulesets_no_lines(self):
        """the report of a run of the suite's cells has no ruleset lines"""
        self.assertEqual(t0ruleset.render(dict(run={}, rows=[])), [])


if __name__ == "__main__":
    sys.exit(tap.run_file(__file__))
