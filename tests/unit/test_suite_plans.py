#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of nft_concat_range/nftbench's generators and plans: sets,
elements and packets as nft_concat_range.sh makes them, rules, the
nftlab side of a load.

python3 tests/unit/test_suite_plans.py: TAP (lib/tap.py,
nested in bench-quick's stream); -v: unittest's own runner."""
import json
import os
import re
import runpy
import shlex
import shutil
import subprocess
import sys
import tempfile
import unittest
from dataclasses import replace

HERE = os.path.dirname(os.path.abspath(__file__))
runpy.run_path(os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..", "lib", "bootstrap.py"))
import tap  # noqa: E402
from nftbench import loads  # noqa: E402
from nftbench.generators import (CT_HOOKS, element, entry_bounds, fmt_addr6, gen_ct_rules, gen_rules,  # noqa: E402
                                 gen_sets, lookup_expr, packet, set_defs)
from nftbench.model import CHAIN, TABLE, TYPES, fields_cell_id  # noqa: E402
from nftbench.plans import expected_cells, write_plan  # noqa: E402
from nftbench.tables import ALL_TABLES, TABLES  # noqa: E402


NFTLAB = os.path.join(HERE, "..", "..", "userspace", "build", "nftlab")


class Generators(unittest.TestCase):
    """Sets, elements, rules and packets, against nft_concat_range.sh's method."""

    def test_bounds(self):
        """generator: entries+1 ranges [s, s+1] two apart; packet hits the last one"""
        b, v = entry_bounds(TYPES["net_port"])
        self.assertEqual(len(b), 1001)
        self.assertEqual(b[0], (1, 2))
        self.assertEqual(b[1], (3, 4))
        self.assertEqual(v, b[-1][0])

    def test_element_formats(self):
        """generator: element formats as in nft_concat_range.sh (test, norange, noconcat)"""
        self.assertEqual(element(TYPES["net_port"], "test", 1, 2), "10.0.0.6-10.0.0.7 . 2-3")
        self.assertEqual(element(TYPES["net_port"], "norange", 1, 2), "10.0.0.6 . 2")
        self.assertEqual(element(TYPES["net_port"], "noconcat", 1, 2), "10.0.0.6-10.0.0.7")

    def test_element_fields(self):
        """generator: IPv6, MAC and proto fields"""
        self.assertEqual(element(TYPES["net6_port_mac_proto"], "test", 10, 11),
                         "2001:db8::0000:000a-2001:db8::0000:000b . 11-12 . 00:01:00:00:00:0a-00:01:00:00:00:0b . udp")

    def test_port_wrap(self):
        """generator: no range crosses a port wrap"""
        b, _ = entry_bounds(replace(TYPES["net_port"], entries=40000))
        self.assertEqual([(s, e) for s, e in b if s // 65534 != e // 65534], [])

    def test_rules(self):
        """rules: N lookup rules, the last one counts and drops"""
        r = gen_rules(TYPES["net_port"], "pipapo", 3)
        self.assertEqual(r.count("@test"), 3)
        self.assertEqual(r.count("drop"), 1)
        self.assertTrue(r.startswith("flush chain"), r[:40])

    def test_drop_rules(self):
        """rules: drop-only cell"""
        self.assertIn("counter name \"test\" drop", gen_rules(TYPES["net_port"], "drop", 0))

    def test_nftlab_load(self):
        """nftlab load: one script of the table, its counter, 3 sets (types quoted), the chain and 3 element files with the elements of the nft script"""
        sets = set_defs(TYPES["net_port"])
        script, files = loads.nftlab_script(TABLE, CHAIN, "d0", sets, "sets-x")
        nft = gen_sets(sets, "d0")
        # nftlab -f splits its lines as a shell does (nftlab(8), SCRIPTS)
        cmds = [shlex.split(ln) for ln in script.splitlines() if not ln.startswith("#")]
        self.assertEqual([c[:2] for c in cmds], [["table", "add"], ["counter", "add"]] + [["set", "add"]] * 3 +
                         [["chain", "add"]] + [["element", "add"]] * 3)
        self.assertEqual(cmds[2], ["set", "add", "netdev", TABLE, "test", "--type", "ipv4_addr . inet_service",
                                   "--flags", "interval"])
        self.assertEqual(sorted(c[-1] for c in cmds[6:]), sorted(files))
        self.assertEqual(sorted(files), ["sets-x-noconcat.elems", "sets-x-norange.elems", "sets-x-test.elems"])
        self.assertEqual([e for e in files["sets-x-test.elems"].splitlines() if e not in nft], [])
        self.assertEqual(len(files["sets-x-norange.elems"].splitlines()), 1001)

    def test_packet(self):
        """packet fields of net6,port"""
        p = packet(TYPES["net6_port"])
        self.assertEqual(p["ipver"], 6)
        self.assertEqual(p["addr"], fmt_addr6(2010))
        self.assertEqual(p["size"], 100)

    def test_lookups(self):
        """lookups: hash on the set without ranges, rbtree on the first field, pipapo on the ranged concatenation"""
        # a backend record names the set its lookups go to (model.BACKENDS)
        self.assertEqual([lookup_expr(TYPES["net_port"], b) for b in ("hash", "rbtree", "pipapo")],
                         ["ip daddr . udp dport @norange", "ip daddr @noconcat", "ip daddr . udp dport @test"])

    def test_conntrack(self):
        """conntrack cells: no ip table, a ct chain at output (conntrack's hooks alone at prerouting), at prerouting; each counts and accepts at netdev ingress"""
        ct = {b: gen_ct_rules(b) for b in CT_HOOKS}
        self.assertNotIn("hook", ct["ctbase"])
        self.assertIn("hook output", ct["ctonly"])
        self.assertIn("hook prerouting", ct["ct"])
        for b in ("ctonly", "ct"):
            self.assertIn("ct state", ct[b], b)
        for b, r in ct.items():
            self.assertIn("counter name \"test\" accept", r, b)


class Plan(unittest.TestCase):
    """The plan of a quick run of the patched retpoline kernel, every table, two repetitions."""

    @classmethod
    def setUpClass(cls):
        cls.dir = d = tempfile.mkdtemp(prefix="suite-plans-")
        cls.n = write_plan("patched-retpoline", list(ALL_TABLES), 2, "1", 1, "d0", 10, True, d)
        with open(os.path.join(d, "plan.tsv")) as f:
            cls.plan = [ln.split("\t") for ln in f if not ln.startswith("#")]
        # cell GID KNOB RULES REP CHECKS FIELDS
        cls.cells = [f for f in cls.plan if f[0] == "cell"]
        cls.groups = {f[1]: f for f in cls.plan if f[0] == "group"}

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    def test_cells(self):
        """plan (quick): every table's cells twice, each with its rules file; sets files; T6's and T7's pktgen options"""
        want = expected_cells("patched-retpoline", list(ALL_TABLES), 10, every=True)
        self.assertEqual(self.n, len(self.cells))
        self.assertEqual(len(self.cells), 2 * len(want))
        self.assertEqual({fields_cell_id(json.loads(f[6]), f[2]) for f in self.cells}, want)
        self.assertEqual([f[3] for f in self.cells if not os.path.isfile(os.path.join(self.dir, f[3]))], [])
        self.assertEqual([g[9] for g in self.groups.values()
                          if g[9] != "-" and not os.path.isfile(os.path.join(self.dir, g[9]))], [])
        self.assertEqual(self.groups["T6-dynset"][10].strip(), TABLES["T6"].PGOPTS)
        self.assertEqual(self.groups["T7-ct"][10].strip(), TABLES["T7"].PGOPTS)

    def test_tables(self):
        """plan: the tables the scripts create are the plan's table lines"""
        # every table a cell's script may create is one the guest deletes
        listed = {(f[1], f[2].strip()) for f in self.plan if f[0] == "table"}
        made = set()
        for name in os.listdir(self.dir):
            if name.endswith(".nft"):
                with open(os.path.join(self.dir, name)) as f:
                    made |= set(re.findall(r"^(?:add )?table (\w+) (\w+)", f.read(), re.M))
        self.assertTrue(made)
        self.assertEqual(made - listed, set())

    def test_checks(self):
        """plan: ingress samples check the rule counter; egress ones tx_packets and pktgen's errors, the counter where the hook has one and its absence where not"""
        checks = {(self.groups[f[1]][2], json.loads(f[6])["backend"], f[5]) for f in self.cells}
        self.assertEqual({c for m, _, c in checks if m == "ingress"}, {"counter"})
        self.assertEqual({(b, c) for m, b, c in checks if m == "egress"},
                         {("nohook", "tx,nocounter,noerrors"), ("egress", "counter,tx,noerrors")})


class PlanReload(unittest.TestCase):
    """The plan of T1 with three repetitions, each setting its group up anew (smp-noise --settings reload)."""

    def test_reload(self):
        """plan (reload): each repetition of a group comes after a setup line of its own, the same as the first; the cells are those of a plan without reload"""
        d = tempfile.mkdtemp(prefix="suite-plans-")
        self.addCleanup(shutil.rmtree, d, True)
        plans = {}
        for reload in (False, True):
            out = os.path.join(d, str(reload))
            n = write_plan("patched-retpoline", ["T1"], 3, "1", 1, "d0", 10, False, out, reload=reload)
            with open(os.path.join(out, "plan.tsv")) as f:
                plans[reload] = ([ln.split("\t") for ln in f if not ln.startswith("#")], n)
        plain, n_plain = plans[False]
        plan, n = plans[True]
        self.assertEqual(n, n_plain)
        self.assertEqual([f for f in plan if f[0] == "cell"], [f for f in plain if f[0] == "cell"])
        groups = [f for f in plain if f[0] == "group"]
        self.assertTrue(groups)
        for g in groups:
            with self.subTest(group=g[1]):
                self.assertEqual(plain.count(g), 1)
                self.assertEqual(plan.count(g), 3)
        # every setup line is followed by one repetition's cells: REP counts up from 1 after each
        rep_after = []
        for i, f in enumerate(plan):
            if f[0] == "group":
                rep_after.append((f[1], plan[i + 1][4]))
        self.assertEqual([r for _, r in rep_after], ["1", "2", "3"] * len(groups))


class NftlabGen(unittest.TestCase):
    @unittest.skipUnless(os.access(NFTLAB, os.X_OK), "userspace/build/nftlab not built (make userspace)")
    def test_gen(self):
        """nftlab gen prints the elements of our ranged sets for every set type"""
        # the tooling's element generator (userspace/src/gen.c) against
        # ours: the ranged concatenation and the first field of every set type
        for t in TYPES.values():
            sets = {name: elems for name, _, _, elems in set_defs(t)}
            for name, fields in (("test", t.fields), ("noconcat", t.fields[:1])):
                with self.subTest(type=t.name, set=name):
                    r = subprocess.run([NFTLAB, "gen", ",".join(fields), "--count", str(t.entries + 1),
                                        "--start", str(t.start), "--range-size", "1"],
                                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                    self.assertEqual(r.returncode, 0, r.stdout[-400:])
                    self.assertEqual(r.stdout.splitlines(), sets[name])


if __name__ == "__main__":
    sys.exit(tap.run_file(__file__))
