#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of nft_concat_range/nftbench/stats.py: medians and their CI,
Student's t, the slope fit, the prediction interval, and our pooled t
against Debian's ministat on the same data.

python3 tests/unit/test_suite_stats.py: TAP (lib/tap.py,
nested in bench-quick's stream); -v: unittest's own runner."""
import math
import os
import random
import runpy
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
runpy.run_path(os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..", "lib", "bootstrap.py"))
import tap  # noqa: E402
from nftbench.stats import (linfit, mean_ci, median, median_ci, parse_ministat_difference, pooled_t,  # noqa: E402
                            prediction_interval, run_ministat, stdev, t_two_sided)


class Close:
    """assertClose() for the TestCases below."""

    def assertClose(self, a, b, tol):
        """A within TOL of B, relative (absolute below 1)."""
        self.assertLessEqual(abs(a - b), tol * max(1.0, abs(b)), "%r is not %r within %g" % (a, b, tol))


class Stats(Close, unittest.TestCase):

    def test_median(self):
        """median of odd and even samples"""
        self.assertEqual(median([3, 1, 2]), 2)
        self.assertEqual(median([4, 1, 3, 2]), 2.5)

    def test_median_ci_5(self):
        """median CI: none for n=5 at 95%"""
        self.assertIsNone(median_ci(list(range(1, 6))))

    def test_median_ci_6(self):
        """median CI: n=6 -> [x(1), x(6)]"""
        self.assertEqual(median_ci(list(range(1, 7))), (1, 6))

    def test_median_ci_10(self):
        """median CI: n=10 -> [x(2), x(9)]"""
        # k=2 gives coverage 1-2*P(B<=1) = 0.9785; k=3 gives 0.891
        self.assertEqual(median_ci(list(range(1, 11))), (2, 9))

    def test_median_ci_20(self):
        """median CI: n=20 -> [x(6), x(15)]"""
        self.assertEqual(median_ci(list(range(1, 21))), (6, 15))

    def test_t_quantiles(self):
        """Student's t quantiles (97.5%) match the table for df 1..100"""
        known = {1: 12.706, 2: 4.303, 5: 2.571, 10: 2.228, 30: 2.042, 100: 1.984}
        for df, v in known.items():
            with self.subTest(df=df):
                self.assertClose(t_two_sided(df), v, 5e-4)

    def test_mean_ci(self):
        """mean CI half width = t(4) s / sqrt(n)"""
        xs = [10.0, 12.0, 11.0, 13.0, 9.0]
        self.assertClose(mean_ci(xs), 2.776 * stdev(xs) / math.sqrt(5), 1e-3)

    def test_fit_exact(self):
        """slope fit: exact line"""
        f = linfit([0, 1, 2, 3, 4], [1.0, 3.0, 5.0, 7.0, 9.0])
        self.assertClose(f["slope"], 2.0, 1e-12)
        self.assertClose(f["intercept"], 1.0, 1e-12)
        self.assertLess(f["slope_half"], 1e-9)

    def test_fit_noisy(self):
        """slope fit: noisy line, CI covers the true slope"""
        # y = 3 + 0.5 x + noise; reference values computed by hand (numpy-free)
        x = [0, 1, 10, 50, 100] * 3
        noise = [0.3, -0.2, 0.1, -0.4, 0.2, -0.1, 0.25, -0.3, 0.35, -0.15, 0.05, 0.0, -0.25, 0.4, -0.2]
        y = [3 + 0.5 * a + e for a, e in zip(x, noise)]
        f = linfit(x, y)
        n = len(x)
        mx = sum(x) / n
        sxx = sum((a - mx) ** 2 for a in x)
        b = sum((a - mx) * (c - sum(y) / n) for a, c in zip(x, y)) / sxx
        self.assertClose(f["slope"], b, 1e-12)
        self.assertLess(f["slope"] - f["slope_half"], 0.5, f)
        self.assertLess(0.5, f["slope"] + f["slope_half"], f)

    def test_prediction_interval(self):
        """prediction interval mean +/- t s sqrt(1 + 1/n)"""
        lo, hi = prediction_interval([1.0, 2.0, 3.0])
        self.assertAlmostEqual(hi, 2 + t_two_sided(2) * math.sqrt(4.0 / 3), delta=1e-9)
        self.assertAlmostEqual(lo + hi, 4, delta=1e-9)


class Ministat(Close, unittest.TestCase):
    """Our pooled Student's t against Debian's ministat -c 95.  No
    ministat is a failure, not a skip: make deps installs it."""

    def setUp(self):
        self.assertTrue(shutil.which("ministat"), "ministat installed (apt-get install ministat)")
        self.wd = tempfile.mkdtemp(prefix="bench-selftest-")
        self.addCleanup(shutil.rmtree, self.wd, True)

    def test_agrees(self):
        """own pooled Student's t agrees with ministat -c 95 (verdicts, difference, CI) on 6 data sets"""
        rng = random.Random(4)
        sets = []
        for i in range(6):
            na, nb = rng.randint(5, 14), rng.randint(5, 14)
            shift = (0, 0.5, 2.0, 5.0, -3.0, 0.1)[i]
            a = [100 + rng.gauss(0, 2) for _ in range(na)]
            bb = [100 + shift + rng.gauss(0, 2) for _ in range(nb)]
            sets.append((a, bb))
        for i, (a, bb) in enumerate(sets):
            with self.subTest(set=i):
                verdict, out = run_ministat(a, bb, "a%d" % i, "b%d" % i, self.wd)
                ours = pooled_t(a, bb)
                self.assertIsNotNone(verdict, "ministat output unparsed: " + out[-200:])
                proven = verdict[0].startswith("Difference")
                # a verdict on the very edge of the interval may go either way
                if abs(abs(ours["diff"]) - ours["half"]) > 1e-3 * ours["half"]:
                    self.assertEqual(proven, ours["proven"], "ministat: %s, ours: %s" % (verdict[0], ours))
                if proven:
                    d = parse_ministat_difference(verdict)
                    self.assertClose(d[0], ours["diff"], 1e-4)
                    self.assertClose(d[1], ours["half"], 2e-3)
                    self.assertClose(d[2], ours["rel"], 1e-4)
                    self.assertClose(d[3], ours["rel_half"], 2e-3)
        # the data sets must hold both verdicts, or the comparison says little
        nproven = sum(1 for a, bb in sets if pooled_t(a, bb)["proven"])
        self.assertTrue(0 < nproven < len(sets), "%d of %d sets proven different" % (nproven, len(sets)))

    def test_verbatim(self):
        """ministat verdict quoted verbatim"""
        verdict, _ = run_ministat([1, 2, 3, 4, 5], [2, 3, 4, 5, 9], "x", "y", self.wd)
        self.assertEqual(verdict, ["No difference proven at 95.0% confidence"])


if __name__ == "__main__":
    sys.exit(tap.run_file(__file__))
