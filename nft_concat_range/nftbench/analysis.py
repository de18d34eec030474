# SPDX-License-Identifier: GPL-2.0
"""From samples to figures: cells, paired per-lookup costs, summaries,
ministat comparisons, and what the run says about its own noise."""
import math
import os
import re

from .stats import mean, mean_ci, median, median_ci, parse_ministat_difference, pooled_t, run_ministat, stdev


# What a cell's figures are made of (meta "estimator", bench --estimator):
# - "samples": every valid sample (the runs before the estimator existed);
# - "boot-best": each boot's fastest valid sample of the cell, one value
#   per boot.  What disturbs the guest (the host, another guest, the guest
#   itself) can only slow a sample, and it does so in episodes that last
#   several samples (nft_concat_range/smp-noise's timelines), so the best
#   of a boot's repetitions is the one least disturbed; across boots it
#   varies far less than the samples do.  Medians, CIs and ministat then
#   run over the boots, and a cell's per-lookup cost pairs the bests of
#   one boot.
ESTIMATORS = ("samples", "boot-best")
# boot-best needs this many boots per kernel (bench --rounds): the median's
# distribution-free 95 % CI (stats.median_ci) needs 6 values.
BOOT_BEST_MIN_BOOTS = 6


def boot_bests(ss):
    """Of samples SS, the fastest valid one of each boot, in the order of
    the boots' first samples."""
    best = {}
    for s in ss:
        if s["valid"] and s["pps"] and (s["boot"] not in best or s["pps"] > best[s["boot"]]["pps"]):
            best[s["boot"]] = s
    return list(best.values())


class Cells:
    """Samples grouped by (role, cell id): all of them (.all, which the
    status of a cell reads) and those the figures use (.by, ESTIMATOR)."""

    def __init__(self, boots, estimator="samples"):
        if estimator not in ESTIMATORS:
            raise ValueError("unknown estimator %r (%s)" % (estimator, ", ".join(ESTIMATORS)))
        self.estimator = estimator
        self.all = {}
        self.knob_missing = set()
        for b in boots:
            for s in b["samples"]:
                self.all.setdefault((b["role"], s["cell"]), []).append(s)
                if s["knob_req"] in ("0", "1") and s["knob"] == "missing":
                    self.knob_missing.add(b["role"])
        self.by = self.all if estimator == "samples" else {k: boot_bests(v) for k, v in self.all.items()}

    def get(self, role, cid):
        return self.by.get((role, cid), [])

    def status(self, role, cid):
        ss = self.all.get((role, cid), [])
        if not ss:
            return "not measured"
        bad = [s for s in ss if not s["valid"]]
        if bad:
            return "INVALID %d/%d" % (len(bad), len(ss))
        return "ok"

    def pps(self, role, cid):
        return [s["pps"] for s in self.get(role, cid) if s["valid"]]

    def all_pps(self, role, cid):
        """Every valid sample's rate, whatever the estimator: for what
        compares single samples (basecmp's prediction interval)."""
        return [s["pps"] for s in self.all.get((role, cid), []) if s["valid"]]

    def paired_ns(self, role, cid, drop_cid, n):
        """ns per lookup, paired per (boot, rep) with the drop cell (per
        boot with boot-best: the two bests of a boot)."""
        key = ((lambda s: s["boot"]) if self.estimator == "boot-best" else (lambda s: (s["boot"], s["rep"])))
        drop = {key(s): s for s in self.get(role, drop_cid)}
        out = []
        for s in self.get(role, cid):
            d = drop.get(key(s))
            if d is None or not s["valid"] or not d["valid"]:
                continue
            out.append((1e9 / s["pps"] - 1e9 / d["pps"]) / max(n, 1))
        return out


def summary(xs):
    if not xs:
        return None
    ci = median_ci(xs)
    return dict(n=len(xs), median=median(xs), ci=list(ci) if ci else None,
                min=min(xs), max=max(xs), mean=mean(xs),
                mean_ci=mean_ci(xs))


class Analysis:
    """What a table's analyse() works with: the cells, the run's lookup
    amplification, and ministat comparisons (whose outputs the report's
    appendix lists in the order they were made)."""

    def __init__(self, resdir, boots, t2n, estimator="samples"):
        self.resdir = resdir
        self.cells = Cells(boots, estimator)
        self.t2n = t2n
        self.ministat = []         # (title, full output)

    def compare(self, title, a, b, name_a, name_b):
        """ministat on a vs b: dict with verdict line(s) and our own t."""
        res = dict(title=title, a=name_a, b=name_b, na=len(a), nb=len(b))
        if len(a) < 2 or len(b) < 2:
            res["verdict"] = "not compared (fewer than 2 valid samples)"
            return res
        wd = os.path.join(self.resdir, "ministat")
        safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", title)
        verdict, out = run_ministat(a, b, safe + ".a-" + name_a, safe + ".b-" + name_b, wd)
        ours = pooled_t(a, b)
        res["ours"] = ours
        if verdict is None:
            res["verdict"] = "ministat failed: " + out.strip().splitlines()[-1] if out.strip() else "ministat failed"
            return res
        self.ministat.append((title, out))
        if verdict[0].startswith("No difference"):
            res["verdict"] = verdict[0]
            res["proven"] = False
        else:
            d = parse_ministat_difference(verdict)
            res["proven"] = True
            res["ministat"] = dict(diff=d[0], half=d[1], rel=d[2], rel_half=d[3])
            res["verdict"] = "%s: %+.2f%% +/- %.2f%%" % (verdict[0], d[2], d[3])
        return res


# --------------------------------------------------------------------------
# Timing honesty: what the run itself says about its noise.  The nominal CIs
# of one cell assume independent samples; the A/A pair (the same cell twice,
# interleaved in one boot) is the only direct test of that assumption, so a
# "Difference" there means every verdict of the run is suspect and the report
# must say so at the top, not in a table row.
# --------------------------------------------------------------------------
def aa_state(aa):
    """('fail' | 'skip' | 'pass', text) for the T2 A/A comparison dict
    (T2's analyse()["aa"]); None = T2 not in the run.  'skip' when it could
    not be compared (quick runs have one sample per cell): a skip is never
    a pass."""
    if aa is None:
        return "skip", "T2 (the A/A pair) not in this run"
    v = aa.get("verdict", "?")
    if aa.get("proven") is True:
        return "fail", "A/A pair (pipapo knob 0 twice, interleaved) shows a difference: %s" % v
    if aa.get("proven") is False:
        o = aa.get("ours") or {}
        return "pass", "A/A pair shows no difference (%+.2f%% +/- %.2f%%, %s)" % (
            o.get("rel", float("nan")), o.get("rel_half", float("nan")), v)
    return "skip", "A/A pair not compared: %s" % v


def noise_floor(aa, cells):
    """The noise the run observed: the A/A difference with its CI and the
    spread of the values CELLS' figures use (coefficient of variation of
    ns/packet of every (kernel, cell) with at least 2 valid ones: samples,
    or with the boot-best estimator the boots' bests)."""
    vals = ([1e9 / s["pps"] for s in ss if s["valid"] and s["pps"]] for ss in cells.by.values())
    cvs = sorted(stdev(v) / mean(v) * 100 for v in vals if len(v) >= 2)
    state, text = aa_state(aa)
    out = dict(aa_state=state, aa_text=text, cells=len(cvs))
    if cells.estimator != "samples":
        out["estimator"] = cells.estimator
    if aa and aa.get("ours"):
        out["aa_rel"], out["aa_rel_half"] = aa["ours"]["rel"], aa["ours"]["rel_half"]
    if cvs:
        out["cv_median"] = median(cvs)
        out["cv_p90"] = cvs[min(len(cvs) - 1, int(math.ceil(0.9 * len(cvs))) - 1)]
        out["cv_max"] = cvs[-1]
    return out
