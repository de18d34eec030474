# SPDX-License-Identifier: GPL-2.0
"""Statistics of nftbench, the performance suite (Python stdlib only).

Medians with a distribution-free CI (order statistics), Student's t from
the regularised incomplete beta function, the pooled two-sample t exactly
as ministat computes it (so that the unit tests can check one against
the other on the same data), a least-squares slope with its CI, and the
ministat runner whose verdict the reports quote verbatim.
"""
import math
import os
import re
import shutil
import subprocess

CONFIDENCE = 95.0


def median(xs):
    s = sorted(xs)
    n = len(s)
    if n == 0:
        raise ValueError("median of nothing")
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2.0


def mean(xs):
    return sum(xs) / len(xs)


def stdev(xs):
    m = mean(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))


def binom_cdf(k, n):
    """P(X <= k) for X ~ Binomial(n, 1/2)."""
    # integer power: 2.0 ** n overflows a float beyond n = 1023
    return sum(math.comb(n, i) for i in range(0, k + 1)) / 2 ** n


def median_ci(xs, conf=CONFIDENCE):
    """Distribution-free CI of the median: [x(k), x(n-k+1)] with the largest
    k such that P(k <= B <= n-k) >= conf, B ~ Bin(n, 1/2).  None if n is too
    small for that confidence (n < 6 at 95 %)."""
    s = sorted(xs)
    n = len(s)
    alpha = 1 - conf / 100.0
    best = None
    cum = 0                    # sum of comb(n, i) for i < k, an exact integer
    for k in range(1, n // 2 + 1):
        # coverage of [x(k), x(n-k+1)] = 1 - 2 * P(B <= k-1); it only
        # shrinks as k grows, so the first k that misses ends the search
        # (binom_cdf summed again for every k is quadratic: minutes at n=2000)
        cum += math.comb(n, k - 1)
        if 1 - 2 * (cum / 2 ** n) >= 1 - alpha:
            best = k
        else:
            break
    if best is None:
        return None
    return (s[best - 1], s[n - best])


def _betacf(a, b, x):
    # Continued fraction of the incomplete beta function (Lentz's method).
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1, a - 1
    c, d = 1.0, 1 - qab * x / qap
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c
        c = c if abs(c) > tiny else tiny
        de = d * c
        h *= de
        if abs(de - 1) < 1e-15:
            break
    return h


def betai(a, b, x):
    """Regularized incomplete beta I_x(a, b)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    lbt = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log(1 - x)
    if x < (a + 1) / (a + b + 2):
        return math.exp(lbt) * _betacf(a, b, x) / a
    return 1 - math.exp(lbt) * _betacf(b, a, 1 - x) / b


def t_cdf(t, df):
    x = df / (df + t * t)
    p = 0.5 * betai(df / 2.0, 0.5, x)
    return 1 - p if t > 0 else p


def t_quantile(p, df):
    """Inverse CDF of Student's t by bisection (p in (0.5, 1))."""
    lo, hi = 0.0, 1000.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def t_two_sided(df, conf=CONFIDENCE):
    return t_quantile(1 - (1 - conf / 100.0) / 2, df)


def prediction_interval(xs, conf=CONFIDENCE):
    """(low, high) of the Student's t prediction interval for one new sample
    of the population XS came from: mean +/- t(n-1) * s * sqrt(1 + 1/n)."""
    h = t_two_sided(len(xs) - 1, conf) * stdev(xs) * math.sqrt(1 + 1.0 / len(xs))
    return mean(xs) - h, mean(xs) + h


def mean_ci(xs, conf=CONFIDENCE):
    """Half width of the Student's t CI of the mean (None if n < 2)."""
    if len(xs) < 2:
        return None
    return t_two_sided(len(xs) - 1, conf) * stdev(xs) / math.sqrt(len(xs))


def pooled_t(a, b, conf=CONFIDENCE):
    """ministat's comparison of B against A (pooled Student's t):
    difference of means B - A, its half width, relative values and the
    verdict.  Returned as a dict; 'proven' False means ministat prints
    "No difference proven at 95.0% confidence"."""
    na, nb = len(a), len(b)
    df = na + nb - 2
    t = t_two_sided(df, conf)
    va, vb = stdev(a) ** 2, stdev(b) ** 2
    spool = math.sqrt(((na - 1) * va + (nb - 1) * vb) / df)
    s = spool * math.sqrt(1.0 / na + 1.0 / nb)
    ma, mb = mean(a), mean(b)
    d = mb - ma
    e = t * s
    # Debian's ministat (20150715) prints the relative half width as e / mean(A).
    return dict(diff=d, half=e, rel=d * 100 / ma, rel_half=e * 100 / ma,
                spool=spool, proven=abs(d) > e, t=t, df=df)


def linfit(xs, ys, conf=CONFIDENCE):
    """Least squares y = a + b x; returns slope, its CI half width
    (Student's t, n - 2 degrees of freedom), intercept, residual sd."""
    n = len(xs)
    if n < 3 or len(set(xs)) < 2:
        return None
    mx, my = mean(xs), mean(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    b = sxy / sxx
    a = my - b * mx
    sse = sum((y - a - b * x) ** 2 for x, y in zip(xs, ys))
    sres = math.sqrt(sse / (n - 2))
    se_b = sres / math.sqrt(sxx)
    return dict(slope=b, slope_half=t_two_sided(n - 2, conf) * se_b, intercept=a,
                sres=sres, n=n)


MINISTAT_VERDICT_RE = re.compile(r"^(No difference proven at [0-9.]+% confidence|Difference at [0-9.]+% confidence)$")


def run_ministat(a, b, name_a, name_b, workdir):
    """Runs ministat -c 95 on two sample lists; returns (verdict lines,
    full output) or (None, reason) when ministat is missing or fails."""
    if not shutil.which("ministat"):
        return None, "ministat not installed (apt-get install ministat)"
    os.makedirs(workdir, exist_ok=True)
    fa = os.path.join(workdir, name_a)
    fb = os.path.join(workdir, name_b)
    for path, xs in ((fa, a), (fb, b)):
        with open(path, "w") as f:
            f.write("".join("%.6f\n" % x for x in xs))
    # Named relative to the results directory (ministat/NAME): the output
    # legend quotes the file names, and a report must not depend on where
    # its directory lies (a stored run re-renders byte for byte anywhere).
    top, sub = os.path.split(os.path.normpath(workdir))
    r = subprocess.run(["ministat", "-c", "95", "-w", "72", os.path.join(sub, name_a), os.path.join(sub, name_b)],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=top or ".")
    out = r.stdout
    lines = out.splitlines()
    for i, line in enumerate(lines):
        if MINISTAT_VERDICT_RE.match(line.strip()):
            return [ln.strip() for ln in lines[i:]], out
    return None, out


def parse_ministat_difference(verdict):
    """(diff, half, rel, rel_half) from ministat's verdict lines."""
    if not verdict or not verdict[0].startswith("Difference"):
        return None
    m1 = re.match(r"(\S+) \+/- (\S+)", verdict[1])
    m2 = re.match(r"(\S+)% \+/- (\S+)%", verdict[2])
    return tuple(float(x) for x in (m1.group(1), m1.group(2), m2.group(1), m2.group(2)))
