#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of the kselftest comparison (tests/lab/kselftest_compare.py):
what counts as the same result on the baseline and the patched kernel.
No kernel.

python3 tests/unit/test_kselftest_compare.py: TAP (lib/tap.py); -v:
unittest's own runner."""
import io
import json
import os
import runpy
import sys
import tempfile
import unittest
from contextlib import redirect_stdout

runpy.run_path(os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..", "lib", "bootstrap.py"))
import tap  # noqa: E402
import kselftest_compare  # noqa: E402

QUEUE_A = ("PASS: ns1-hLrpzP can reach ns2-TI8W3z\n"
           "2026/12/06 21:52:59 socat[208] E write(5, 0x5500000a7000, 8192): Broken pipe\n"
           "FAIL: tcp and nfqueue in forward chain (duration: 3s)\n"
           "cmp: EOF on /tmp/tmp.P0Yg696pJS which is empty\n"
           "testing for cmd: nft -f /tmp/tmp.9CJVOyxkBz ... FAIL\n")
QUEUE_B = ("PASS: ns1-HTNkGm can reach ns2-62eFDi\n"
           "2026/12/07 00:56:53 socat[211] E write(5, 0x5500000a7000, 8192): Broken pipe\n"
           "FAIL: tcp and nfqueue in forward chain (duration: 4s)\n"
           "cmp: EOF on /tmp/tmp.drWLM4XS9f which is empty\n"
           "testing for cmd: nft -f /tmp/tmp.f0JES1GSca ... FAIL\n")


def run(kernels, tests, reports=None):
    """kselftest_compare.py's exit status, output and results.json for
    KERNELS: {"baseline"|"patched": {test: (rc, log text)}}; REPORTS:
    {kernel: [first lines of splats.py's reports]} (default: none on
    either kernel; a kernel not in it: its log was not scanned)"""
    if reports is None:
        reports = {"baseline": [], "patched": []}
    with tempfile.TemporaryDirectory() as d:
        for kernel, runs in kernels.items():
            os.mkdir(os.path.join(d, kernel))
            if kernel in reports:
                os.makedirs(os.path.join(d, kernel, "splats"))
                with open(os.path.join(d, kernel, "splats", "splats.json"), "w") as f:
                    json.dump({"reports": [{"first": r} for r in reports[kernel]]}, f)
            with open(os.path.join(d, kernel, "results.txt"), "w") as f:
                for test, (rc, text) in runs.items():
                    f.write("%s %d 10\n" % (test, rc))
                    with open(os.path.join(d, kernel, test + ".log"), "w") as lf:
                        lf.write(text)
        out = io.StringIO()
        with redirect_stdout(out):
            rc = kselftest_compare.main(["kselftest_compare.py", d] + tests)
        with open(os.path.join(d, "results.json")) as f:
            res = json.load(f)
        # --render makes the same report from results.json alone
        with open(os.path.join(d, "report.md")) as f:
            first = f.read()
        os.remove(os.path.join(d, "report.md"))
        with redirect_stdout(io.StringIO()):
            rendered_rc = kselftest_compare.main(["kselftest_compare.py", "--render", d])
        with open(os.path.join(d, "report.md")) as f:
            assert f.read() == first and rendered_rc == 0, "--render differs"
        return rc, out.getvalue(), res


class Compare(unittest.TestCase):
    def test_boot_to_boot_names_are_the_same(self):
        """namespaces, temporary files, pids, times and durations do not make a difference"""
        rc, out, res = run({"baseline": {"q.sh": (0, QUEUE_A)}, "patched": {"q.sh": (0, QUEUE_B)}}, ["q.sh"])
        self.assertEqual(rc, 0)
        self.assertEqual(res["tests"][0]["verdict"], "same")
        self.assertIn("| q.sh | 0: 1/2/0 | 0: 1/2/0 | same |", out)

    def test_another_result_line_differs(self):
        """a PASS on one kernel that is a FAIL on the other differs, and the report names the lines"""
        worse = QUEUE_B.replace("PASS: ns1", "FAIL: ns1")
        rc, out, res = run({"baseline": {"q.sh": (0, QUEUE_A)}, "patched": {"q.sh": (0, worse)}}, ["q.sh"])
        self.assertEqual(rc, 1)
        self.assertEqual(res["tests"][0]["verdict"], "differs")
        self.assertEqual(res["tests"][0]["only_patched"], ["FAIL: ns1-X can reach ns2-X"])
        self.assertIn("## q.sh differs", out)

    def test_exit_status_differs(self):
        """the same lines with another exit status differ"""
        rc, _, res = run({"baseline": {"q.sh": (0, QUEUE_A)}, "patched": {"q.sh": (1, QUEUE_A)}}, ["q.sh"])
        self.assertEqual((rc, res["tests"][0]["verdict"]), (1, "differs"))

    def test_timeout_on_both_is_inconclusive(self):
        """a test killed on both kernels proved nothing: inconclusive, not same, and not a failure"""
        rc, out, res = run({"baseline": {"b.sh": (124, "")}, "patched": {"b.sh": (124, "")}}, ["b.sh"])
        self.assertEqual((rc, res["tests"][0]["verdict"]), (0, "inconclusive"))
        self.assertIn("| b.sh | timeout | timeout | inconclusive |", out)

    def test_timeout_on_one_differs(self):
        """a test that finishes on one kernel only differs"""
        rc, _, res = run({"baseline": {"b.sh": (0, QUEUE_A)}, "patched": {"b.sh": (124, QUEUE_A)}}, ["b.sh"])
        self.assertEqual((rc, res["tests"][0]["verdict"]), (1, "differs"))

    def test_missing_test_fails(self):
        """a test that one guest never ran is missing, which fails the comparison"""
        rc, _, res = run({"baseline": {"q.sh": (0, QUEUE_A)}, "patched": {}}, ["q.sh"])
        self.assertEqual((rc, res["tests"][0]["verdict"]), (1, "missing"))

    def test_kernel_report_fails(self):
        """a WARN in the patched kernel's log fails the comparison even where every test gives the same"""
        same = {"baseline": {"q.sh": (0, QUEUE_A)}, "patched": {"q.sh": (0, QUEUE_B)}}
        rc, out, res = run(same, ["q.sh"], {"baseline": [], "patched": ["WARNING: CPU: 0 PID: 9 at core.c:1"]})
        self.assertEqual(rc, 1)
        self.assertEqual(res["kernel_reports"]["patched"], ["WARNING: CPU: 0 PID: 9 at core.c:1"])
        self.assertIn("- patched kernel: 1 kernel report(s)", out)

    def test_unscanned_log_fails(self):
        """a kernel log that splats.py did not scan is no pass"""
        same = {"baseline": {"q.sh": (0, QUEUE_A)}, "patched": {"q.sh": (0, QUEUE_B)}}
        rc, out, _ = run(same, ["q.sh"], {"baseline": []})
        self.assertEqual(rc, 1)
        self.assertIn("- patched kernel: its log was not scanned", out)


if __name__ == "__main__":
    sys.exit(tap.run_file(__file__))
