#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of T0 per function (t0.py run --per-function,
nft_concat_range/nftbench/t0/breakdown.py and its hooks in t0/cells.py
and t0/run.py): the function list from nm, the plugin's per-function
snapshots to per-packet figures, every boot's figure kept, the sum check
of validate, the category table of the report.  No kernel, no QEMU.

python3 tests/unit/test_t0breakdown.py: TAP (lib/tap.py, nested in
tests/lab/t0-quick.sh's stream); -v: unittest's own runner."""
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
from nftbench.t0 import breakdown as t0breakdown, cells as t0, symbols as t0symbols  # noqa: E402
import test_t0 as base  # noqa: E402  (its synthetic boots)

# A packet's instructions per function (1500 in all), and what a run
# costs once, in a function of its own.
SPLIT = {"nft_do_chain": 700, "nf_hook_slow": 300, "__netif_receive_skb_core": 500}
ONCE = 300


def add_funcs(bdir, split, once_name="pktgen_xmit"):
    """Rewrite BDIR's counts.jsonl (test_t0.write_boot's, ONCE
    instructions per run) as the plugin writes it with funcs=PATH: per
    snapshot the region's instructions per function, SPLIT per packet and
    the rest in ONCE_NAME."""
    path = os.path.join(bdir, "counts.jsonl")
    snaps = [json.loads(line) for line in open(path)]
    with open(path, "w") as f:
        for s in snaps:
            packets, insns = s["counters"]["packets"][1], s["counters"]["kernel_insns"][1]
            funcs = {k: v * packets for k, v in split.items()}
            funcs[once_name] = insns - sum(funcs.values())
            s["funcs"] = {k: v for k, v in funcs.items() if v}
            f.write(json.dumps(s) + "\n")


def per_function_run(splits, mitigation="retpoline", per_function=True):
    """report() and validate() of one boot per entry of SPLITS (the hash
    cell's per-function split of that boot): (t0.json, validate's exit
    status, its TAP, t0.md)."""
    with tempfile.TemporaryDirectory() as d:
        for i, split in enumerate(splits, 1):
            bdir = base.write_boot(d, "patched-%s-r%d" % (mitigation, i), "patched", i, sum(split.values()),
                                   ONCE, 0, cell=("net_port", "hash", "-"))
            add_funcs(bdir, split)
        run = dict(quick=False, rounds=len(splits), reps=1, variants=["patched"], mitigations=["retpoline"],
                   counts=base.COUNTS, cells=["hash"], knob={"patched": False})
        if per_function:
            run["per_function"] = True
        base.write_json(os.path.join(d, "t0", "run.json"), run)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            t0.report(d, quiet=True)
            rc = t0.validate(d)
        res = json.loads(base.read(os.path.join(d, "t0", "t0.json")))
        md = base.read(os.path.join(d, "t0", "t0.md"))
    return res, rc, out.getvalue(), md


def validate_json(res):
    """validate() of a t0.json RES alone: (exit status, TAP)."""
    with tempfile.TemporaryDirectory() as d:
        os.makedirs(os.path.join(d, "t0"))
        base.write_json(os.path.join(d, "t0", "t0.json"), res)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            rc = t0.validate(d)
    return rc, out.getvalue()


def row(mitigation, funcs, cid="T0/net_port/hash/n1/k0", boots=(1, 2, 3)):
    """A t0.json row with per-function data: FUNCS {name: value or
    [value per run]} (strings), instructions their sum per run."""
    n = len(boots)
    vals = {k: t0breakdown.as_list(v, n) for k, v in funcs.items()}
    insns = [str(sum(Fraction(v[i]) for v in vals.values())) for i in range(n)]
    return dict(cell=cid, variant="patched", mitigation=mitigation, knob="0",
                per_function=dict(boots=list(boots), insns=t0breakdown.one_or_list(insns), funcs=funcs))


NM = """\
ffffffff81000000 0000000000000010 t __pfx_alpha
ffffffff81000010 0000000000000040 T alpha
ffffffff81000010 0000000000000040 W alpha_alias
ffffffff81000050 0000000000000020 t beta
ffffffff81000060 0000000000000008 t beta_inner
ffffffff81000080 T no_size
ffffffff81000090 0000000000000000 T zero_size
ffffffff810000a0 0000000000000100 T __x86_indirect_thunk_array
ffffffff810000a0 0000000000000020 T __x86_indirect_thunk_rax
ffffffff810001a0 0000000000000010 w weak_fn
ffffffff82000000 0000000000000010 D some_data
ffffffff82000010 0000000000000010 r some_rodata
"""


class ParseFunctions(unittest.TestCase):
    """t0symbols.parse_functions() on nm -S --defined-only output."""

    @classmethod
    def setUpClass(cls):
        cls.funcs = t0symbols.parse_functions(NM)
        cls.by_name = {n: (a, s) for a, s, n in cls.funcs}

    def test_text_symbols_only(self):
        """parse_functions: t, T, w and W symbols with a size; data, read-only data and sizeless ones left out"""
        for name in ("some_data", "some_rodata", "no_size", "zero_size"):
            self.assertNotIn(name, self.by_name, name)
        for name in ("__pfx_alpha", "alpha", "beta", "weak_fn"):
            self.assertIn(name, self.by_name, name)

    def test_one_name_per_address(self):
        """parse_functions: aliases at one address get one name: the widest, not an _array one, global first"""
        self.assertNotIn("alpha_alias", self.by_name, "the weak alias of alpha")
        self.assertNotIn("__x86_indirect_thunk_rax", self.by_name, "the narrower thunk name")
        self.assertEqual(self.by_name.get("__x86_indirect_thunk_array"), (0xffffffff810000a0, 0x100))

    def test_no_overlap(self):
        """parse_functions: a symbol starting inside another's range ends that range there"""
        self.assertEqual(self.by_name.get("beta"), (0xffffffff81000050, 0x10), "beta ends where beta_inner starts")
        self.assertTrue(all(a + s <= b for (a, s, _), (b, _, _) in zip(self.funcs, self.funcs[1:])),
                        self.funcs)

    def test_sorted_by_address(self):
        """parse_functions: sorted by address, as the plugin's funcs=PATH file"""
        self.assertEqual([a for a, _, _ in self.funcs], sorted(a for a, _, _ in self.funcs))


class Snapshots(unittest.TestCase):
    """The plugin's per-function snapshots to runs and per-packet figures."""

    @classmethod
    def setUpClass(cls):
        with tempfile.TemporaryDirectory() as d:
            bdir = base.write_boot(d, "patched-retpoline-r1", "patched", 1, 1500, ONCE, 0)
            add_funcs(bdir, SPLIT)
            cls.snaps = [json.loads(line) for line in open(os.path.join(bdir, "counts.jsonl"))]
        cls.runs = t0.runs_from_snapshots(cls.snaps)
        cls.pp = t0.per_packet(cls.runs[1], cls.runs[2])

    def test_runs_carry_funcs(self):
        """runs_from_snapshots: each run's instructions per function, a function absent from a snapshot being 0"""
        first = self.runs[0]["funcs"]
        self.assertEqual(first.get("nft_do_chain"), 700 * base.COUNTS[0])
        self.assertEqual(first.get("pktgen_xmit"), ONCE)

    def test_per_packet_slope_per_function(self):
        """per_packet: every function's slope, what a run costs once cancelled"""
        self.assertEqual(self.pp["funcs"].get("nft_do_chain"), Fraction(700))
        self.assertEqual(self.pp["funcs"].get("pktgen_xmit", 0), 0)

    def test_per_packet_sum_is_insns(self):
        """per_packet: the functions' slopes add up to the instructions' slope"""
        self.assertEqual(sum(self.pp["funcs"].values()), self.pp["kernel_insns"])

    def test_no_funcs_without_attribution(self):
        """runs_from_snapshots: snapshots without funcs (a run without --per-function) give runs without"""
        plain = [{k: v for k, v in s.items() if k != "funcs"} for s in self.snaps]
        runs = t0.runs_from_snapshots(plain)
        self.assertFalse(any("funcs" in r for r in runs))
        self.assertNotIn("funcs", t0.per_packet(runs[1], runs[2]))


class Rows(unittest.TestCase):
    """report() and validate() of three boots counted per function."""

    def test_every_boots_figure_kept(self):
        """analyse: a function counting differently in one boot keeps each run's figure, the others one"""
        moved = dict(SPLIT, nf_hook_slow=301)
        res, rc, out, md = per_function_run([SPLIT, moved, SPLIT])
        pf = base.first_row(self, res).get("per_function", {})
        self.assertEqual(pf.get("boots"), [1, 2, 3])
        self.assertEqual(pf.get("funcs", {}).get("nf_hook_slow"), ["300", "301", "300"])
        self.assertEqual(pf.get("funcs", {}).get("nft_do_chain"), "700")
        self.assertEqual(pf.get("insns"), ["1500", "1501", "1500"])

    def test_sum_check_passes(self):
        """validate: a run counted per function passes its sum check"""
        res, rc, out, md = per_function_run([SPLIT] * 3)
        self.assertEqual(rc, 0, out)
        self.assertIn("ok 9 - T0: per function: in every run of every cell the functions add up", out)

    def test_dropped_instruction_fails(self):
        """validate: a function dropped from a run's attribution fails the sum check, naming the boot"""
        res, _, _, _ = per_function_run([SPLIT] * 3)
        pf = base.first_row(self, res)["per_function"]
        pf["funcs"]["nf_hook_slow"] = ["300", "299", "300"]
        rc, out = validate_json(res)
        self.assertNotEqual(rc, 0, out)
        self.assertIn("boot 2 run 2: functions add up to 1499, instructions 1500", out)

    def test_insns_not_the_rows_fails(self):
        """validate: per-function instructions other than the row's own count fail the sum check"""
        res, _, _, _ = per_function_run([SPLIT] * 3)
        r = base.first_row(self, res)
        r["per_function"]["insns"] = "1501"
        r["per_function"]["funcs"]["nf_hook_slow"] = "301"
        rc, out = validate_json(res)
        self.assertNotEqual(rc, 0, out)
        self.assertIn("runs counted {'1501': 3}, the row {'1500': 3}", out)

    def test_row_without_attribution_fails(self):
        """validate: a row of a --per-function run without per-function data fails"""
        res, _, _, _ = per_function_run([SPLIT] * 3)
        del base.first_row(self, res)["per_function"]
        rc, out = validate_json(res)
        self.assertNotEqual(rc, 0, out)
        self.assertIn("not counted per function", out)

    def test_off_by_default(self):
        """report and validate: a run without --per-function has no per-function data, check or section"""
        res, rc, out, md = per_function_run([SPLIT] * 3, per_function=False)
        self.assertEqual(rc, 0, out)
        self.assertNotIn("per function", out)
        self.assertNotIn("Where the instructions go", md)


class Categories(unittest.TestCase):
    """compare() and render(): retpoline against off per category."""

    RET = {"nft_do_chain": "240", "nft_lookup_eval": ["60", "61", "60"], "nf_hook_slow": "50",
           "nft_do_chain_hook": "20", "__netif_receive_skb_core": "500", "(none)": "3"}
    OFF = {"nft_do_chain": "200", "nft_lookup_eval": "50", "nf_hook_slow": "44", "__netif_receive_skb_core": "500",
           "__x86_indirect_thunk_rax": "1", "(none)": "3"}

    @classmethod
    def setUpClass(cls):
        cls.ret, cls.off = row("retpoline", cls.RET), row("off", cls.OFF)
        cls.c = t0breakdown.compare(cls.ret, cls.off)

    def test_category_of_functions(self):
        """category: the compare chains' functions, the thunks, the rest other"""
        for name, cat in (("nft_do_chain", "expression dispatch"), ("nft_lookup_eval", "set lookup chain"),
                          ("nft_dynset_eval", "set lookup chain"), ("nf_hook_slow", "hook entry"),
                          ("nft_do_chain_netdev", "hook entry"), ("__x86_indirect_thunk_rax", "thunks"),
                          ("__x86_return_thunk", "thunks"), ("(none)", "other"), ("kfree_skb_reason", "other")):
            self.assertEqual(t0breakdown.category(name), cat, name)

    def test_categories_add_up(self):
        """compare: the categories add up to the total difference exactly (means over runs)"""
        self.assertEqual(sum(self.c["cats"].values()), self.c["total"][2])
        self.assertEqual(self.c["total"][2], Fraction(226, 3), "873.33 less 798")

    def test_category_figures(self):
        """compare: each category's difference, a function only one side ran counted against 0"""
        self.assertEqual(self.c["cats"], {"expression dispatch": 40, "set lookup chain": Fraction(31, 3),
                                          "hook entry": 26, "thunks": -1, "other": 0})

    def test_category_line(self):
        """category_line: the report's short table, every category with its sign"""
        self.assertEqual(t0breakdown.category_line(self.c),
                         "expression dispatch: +40, set lookup chain: +10.33, hook entry: +26, thunks: -1, other: 0")

    def test_render(self):
        """render: the summary table, each cell's category line, its differing functions and its top functions"""
        text = "\n".join(t0breakdown.render(dict(rows=[self.ret, self.off])))
        self.assertIn("hash n1, patched, knob 0: retpoline 873..874, off 798, +75.33 = expression dispatch: +40",
                      text)
        self.assertIn("  nft_do_chain_hook        | hook entry          | 20        | 0   | +20", text)
        self.assertIn("  nft_lookup_eval          | set lookup chain    | 60..61", text)
        self.assertNotIn("  __netif_receive_skb_core |", text, "a function that does not differ is listed")
        self.assertNotIn("__x86_indirect_thunk_rax 0", text, "a function the retpoline boots never ran is top")
        self.assertIn("most instructions (retpoline): __netif_receive_skb_core 500, nft_do_chain 240", text)

    def test_render_needs_both_mitigations(self):
        """render: nothing without a retpoline and an off row of the same cell"""
        self.assertEqual(t0breakdown.render(dict(rows=[self.ret])), [])


if __name__ == "__main__":
    sys.exit(tap.run_file(__file__))
