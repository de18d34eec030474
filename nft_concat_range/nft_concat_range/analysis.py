# SPDX-License-Identifier: GPL-2.0
"""From samples to figures: cells, paired per-lookup costs, summaries,
ministat comparisons, and what the run says about its own noise."""
import math
import os
import re

from .stats import mean, mean_ci, median, median_ci, parse_ministat_difference, pooled_t, run_ministat, stdev


class Cells:
    """Samples grouped by (role, cell id)."""

    def __init__(self, boots):
        self.by = {}
        self.knob_missing = set()
        for b in boots:
            for s in b["samples"]:
                self.by.setdefault((b["role"], s["cell"]), []).append(s)
                if s["knob_req"] in ("0", "1") and s["knob"] == "missing":
                    self.knob_missing.add(b["role"])

    def get(self, role, cid):
        return self.by.get((role, cid), [])

    def status(self, role, cid):
        ss = self.get(role, cid)
        if not ss:
            return "not measured"
        bad = [s for s in ss if not s["valid"]]
        if bad:
            return "INVALID %d/%d" % (len(bad), len(ss))
        return "ok"

    def pps(self, role, cid):
        return [s["pps"] for s in self.get(role, cid) if s["valid"]]

    def paired_ns(self, role, cid, drop_cid, n):
        """ns per lookup, paired per (boot, rep) with the drop cell."""
        drop = {(s["boot"], s["rep"]): s for s in self.get(role, drop_cid)}
        out = []
        for s in self.get(role, cid):
            d = drop.get((s["boot"], s["rep"]))
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

    def __init__(self, resdir, boots, t2n):
        self.resdir = resdir
        self.cells = Cells(boots)
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


def noise_floor(aa, boots):
    """The noise the run observed: the A/A difference with its CI and the
    spread of same-cell samples (coefficient of variation of ns/packet of
    every (kernel, cell) with at least 2 valid samples)."""
    by = {}
    for b in boots:
        for s in b["samples"]:
            if s["valid"] and s["pps"]:
                by.setdefault((b.get("role"), s["cell"]), []).append(1e9 / s["pps"])
    cvs = sorted(stdev(v) / mean(v) * 100 for v in by.values() if len(v) >= 2)
    state, text = aa_state(aa)
    out = dict(aa_state=state, aa_text=text, cells=len(cvs))
    if aa and aa.get("ours"):
        out["aa_rel"], out["aa_rel_half"] = aa["ours"]["rel"], aa["ours"]["rel_half"]
    if cvs:
        out["cv_median"] = median(cvs)
        out["cv_p90"] = cvs[min(len(cvs) - 1, int(math.ceil(0.9 * len(cvs))) - 1)]
        out["cv_max"] = cvs[-1]
    return out
