#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of check-debug's summary (tests/reliability/summary.py): the
counts of part hookstress, as guest-hookstress.sh writes them, in
summary.md.  No kernel.

python3 tests/unit/test_summary.py: TAP (lib/tap.py); -v: unittest's own
runner."""
import io
import json
import os
import runpy
import sys
import tempfile
import unittest
from contextlib import redirect_stdout

HERE = os.path.dirname(os.path.abspath(__file__))
runpy.run_path(os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..", "lib", "bootstrap.py"))
import tap  # noqa: E402
import summary  # noqa: E402

# What guest-hookstress.sh wrote in a passing run (numbers distinct, so
# that a value in the wrong column shows).
FULL = {"cycles_asked": 50, "packets_asked": 20, "ops_asked": 300,
        "unload": {"cycles": 50, "packets": 1000, "flood_packets": 4321, "flood_answered": 4321},
        "nfqueue": {"packets": 20, "queued": 20, "reinjected": 15, "dropped": 5, "answered": 15},
        "bridge": {"packets": 21, "answered": 21, "chain_packets": 84},
        "churn": {"operations": 303, "packets": 777, "answered": 777},
        "tracing": {"packets": 22, "nft_do_chain_ipv4": 23, "nf_hook_slow_nft": 24, "nf_hook_slow": 0,
                    "after_rmmod": {"packets": 25, "nf_hook_slow": 26, "nf_hook_slow_nft": 0}}}


def render(files):
    """summary.py's exit status and summary.md for a run directory holding FILES (path -> text)."""
    with tempfile.TemporaryDirectory() as d:
        for path, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(d, path)), exist_ok=True)
            with open(os.path.join(d, path), "w") as f:
                f.write(text)
        with redirect_stdout(io.StringIO()):
            rc = summary.main(["summary.py", d])
        with open(os.path.join(d, "summary.md")) as f:
            return rc, f.read()


def row(text, first_cell):
    """The cells of the table row of TEXT that starts with FIRST_CELL."""
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if line.startswith("|") and cells[0] == first_cell:
            return cells
    raise AssertionError("no row starting with %r in:\n%s" % (first_cell, text))


class Hookstress(unittest.TestCase):
    def test_counts_in_their_columns(self):
        """every count of hookstress.json lands in its own column, per kernel"""
        rc, text = render({"hookstress-x86_64-7.3-debug/hookstress.json": json.dumps(FULL)})
        self.assertEqual(rc, 0)
        self.assertIn("Hookstress, x86_64-7.3-debug (2 vCPUs, spectre_v2=retpoline; 20 packets", text)
        self.assertEqual(row(text, "50"), ["50", "1000", "4321", "20", "15", "5", "21", "303", "777"])
        self.assertEqual(row(text, "nf_tables loaded"), ["nf_tables loaded", "23", "24", "0", "22"])
        self.assertEqual(row(text, "after modprobe -r nf_tables (br_netfilter's hook)"),
                         ["after modprobe -r nf_tables (br_netfilter's hook)", "-", "0", "26", "25"])

    def test_part_that_did_not_run_is_a_dash(self):
        """a part missing from hookstress.json (not run, or the guest died) shows "-", not 0"""
        partial = {k: v for k, v in FULL.items() if k not in ("churn", "tracing")}
        rc, text = render({"hookstress-x86_64-7.3-kcsan/hookstress.json": json.dumps(partial)})
        self.assertEqual(rc, 0)
        self.assertEqual(row(text, "50")[-2:], ["-", "-"])
        self.assertEqual(row(text, "nf_tables loaded")[1:], ["-", "-", "-", "-"])

    def test_late_replies_listed_per_part(self):
        """the replies ping stopped waiting for, per part that counted them; none: no line"""
        late = json.loads(json.dumps(FULL))
        late["unload"]["late"] = 3
        late["churn"]["late"] = 0
        rc, text = render({"hookstress-x86_64-7.3-debug/hookstress.json": json.dumps(late)})
        self.assertEqual(rc, 0)
        self.assertIn("after ping stopped waiting (answered; guest-hookstress.sh's pings()): unload 3, churn 0",
                      text)
        rc, text = render({"hookstress-x86_64-7.3-debug/hookstress.json": json.dumps(FULL)})
        self.assertNotIn("stopped waiting", text)

    def test_part_line_and_kernels_in_order(self):
        """hookstress.tap counts in the parts table; one table per kernel, sorted by name"""
        tap = "ok 1 - a\nnot ok 2 - b\nok 3 - c # SKIP d\n1..3\n"
        rc, text = render({"hookstress.tap": tap,
                           "hookstress-x86_64-7.3-kcsan/hookstress.json": json.dumps(FULL),
                           "hookstress-x86_64-7.3-debug/hookstress.json": json.dumps(FULL)})
        self.assertEqual(rc, 0)
        self.assertEqual(row(text, "hookstress"), ["hookstress", "1", "1", "0", "1"])
        self.assertLess(text.index("Hookstress, x86_64-7.3-debug"), text.index("Hookstress, x86_64-7.3-kcsan"))

    def test_no_hookstress_no_table(self):
        """a run without the part has no hookstress table"""
        rc, text = render({"smp.tap": "ok 1 - a\n1..1\n"})
        self.assertEqual(rc, 0)
        self.assertNotIn("Hookstress", text)


if __name__ == "__main__":
    sys.exit(tap.run_file(__file__))
