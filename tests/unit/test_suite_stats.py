#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of nft_concat_range/nftbench/stats.py: medians and their CI,
Student's t, the slope fit, the prediction interval, and our pooled t
against Debian's ministat on the same data.

TAP; [--tap-start N] [--count-file PATH] as bench-quick chains its tests."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "nft_concat_range"))
import math  # noqa: E402
import random  # noqa: E402
import shutil  # noqa: E402
import tempfile  # noqa: E402

from nftbench import tap as taplib  # noqa: E402
from nftbench.stats import (linfit, mean_ci, median, median_ci, parse_ministat_difference, pooled_t,  # noqa: E402
                            prediction_interval, run_ministat, stdev, t_two_sided)


def close(a, b, tol):
    return abs(a - b) <= tol * max(1.0, abs(b))


def main():
    tap, count_file = taplib.from_argv()
    tap.ok(median([3, 1, 2]) == 2 and median([4, 1, 3, 2]) == 2.5, "median of odd and even samples")
    tap.ok(median_ci(list(range(1, 6))) is None, "median CI: none for n=5 at 95%")
    tap.ok(median_ci(list(range(1, 7))) == (1, 6), "median CI: n=6 -> [x(1), x(6)]")
    # n=10: k=2 gives coverage 1-2*P(B<=1) = 0.9785; k=3 gives 0.891 -> [x(2), x(9)]
    tap.ok(median_ci(list(range(1, 11))) == (2, 9), "median CI: n=10 -> [x(2), x(9)]")
    tap.ok(median_ci(list(range(1, 21))) == (6, 15), "median CI: n=20 -> [x(6), x(15)]")
    known = {1: 12.706, 2: 4.303, 5: 2.571, 10: 2.228, 30: 2.042, 100: 1.984}
    tap.ok(all(close(t_two_sided(df), v, 5e-4) for df, v in known.items()),
           "Student's t quantiles (97.5%) match the table for df 1..100",
           {df: t_two_sided(df) for df in known})
    xs = [10.0, 12.0, 11.0, 13.0, 9.0]
    tap.ok(close(mean_ci(xs), 2.776 * stdev(xs) / math.sqrt(5), 1e-3), "mean CI half width = t(4) s / sqrt(n)")
    f = linfit([0, 1, 2, 3, 4], [1.0, 3.0, 5.0, 7.0, 9.0])
    tap.ok(close(f["slope"], 2.0, 1e-12) and close(f["intercept"], 1.0, 1e-12) and f["slope_half"] < 1e-9,
           "slope fit: exact line")
    # y = 3 + 0.5 x + noise; reference values computed by hand (numpy-free)
    x = [0, 1, 10, 50, 100] * 3
    noise = [0.3, -0.2, 0.1, -0.4, 0.2, -0.1, 0.25, -0.3, 0.35, -0.15, 0.05, 0.0, -0.25, 0.4, -0.2]
    y = [3 + 0.5 * a + e for a, e in zip(x, noise)]
    f = linfit(x, y)
    n = len(x)
    mx = sum(x) / n
    sxx = sum((a - mx) ** 2 for a in x)
    b = sum((a - mx) * (c - sum(y) / n) for a, c in zip(x, y)) / sxx
    tap.ok(close(f["slope"], b, 1e-12) and f["slope"] - f["slope_half"] < 0.5 < f["slope"] + f["slope_half"],
           "slope fit: noisy line, CI covers the true slope", f)
    # ministat agreement on several data sets
    if shutil.which("ministat"):
        rng = random.Random(4)
        wd = tempfile.mkdtemp(prefix="ncr-selftest-")
        agree, details = True, []
        sets = []
        for i in range(6):
            na, nb = rng.randint(5, 14), rng.randint(5, 14)
            shift = (0, 0.5, 2.0, 5.0, -3.0, 0.1)[i]
            a = [100 + rng.gauss(0, 2) for _ in range(na)]
            bb = [100 + shift + rng.gauss(0, 2) for _ in range(nb)]
            sets.append((a, bb))
        for i, (a, bb) in enumerate(sets):
            verdict, out = run_ministat(a, bb, "a%d" % i, "b%d" % i, wd)
            ours = pooled_t(a, bb)
            if verdict is None:
                agree = False
                details.append("ministat output unparsed: " + out[-200:])
                continue
            proven = verdict[0].startswith("Difference")
            if proven != ours["proven"] and abs(abs(ours["diff"]) - ours["half"]) > 1e-3 * ours["half"]:
                agree = False
                details.append("set %d: ministat %s, ours proven=%s" % (i, verdict[0], ours["proven"]))
            if proven:
                d = parse_ministat_difference(verdict)
                if not (close(d[0], ours["diff"], 1e-4) and close(d[1], ours["half"], 2e-3) and
                        close(d[2], ours["rel"], 1e-4) and close(d[3], ours["rel_half"], 2e-3)):
                    agree = False
                    details.append("set %d: ministat %s ours %s" % (i, d, ours))
        shutil.rmtree(wd, ignore_errors=True)
        nproven = sum(1 for a, bb in sets if pooled_t(a, bb)["proven"])
        tap.ok(agree and 0 < nproven < len(sets),
               "own pooled Student's t agrees with ministat -c 95 (verdicts, difference, CI) on 6 data sets",
               "\n".join(details) or "need both verdicts among the sets")
        verdict, _ = run_ministat([1, 2, 3, 4, 5], [2, 3, 4, 5, 9], "x", "y", tempfile.mkdtemp(prefix="ncr-"))
        tap.ok(verdict == ["No difference proven at 95.0% confidence"], "ministat verdict quoted verbatim", verdict)
    else:
        tap.ok(False, "ministat installed (apt-get install ministat)")
    lo, hi = prediction_interval([1.0, 2.0, 3.0])
    tap.ok(abs(hi - (2 + t_two_sided(2) * math.sqrt(4.0 / 3))) < 1e-9 and abs(lo + hi - 4) < 1e-9,
           "prediction interval mean +/- t s sqrt(1 + 1/n)", (lo, hi))
    return taplib.done(tap, count_file)


if __name__ == "__main__":
    sys.exit(main())
