# SPDX-License-Identifier: GPL-2.0
"""Drift: why samples of one cell differ within a boot.

Every valid sample is expressed as its deviation from the median ns/packet
of its own cell (same kernel, same cell over all boots), so cells of
different cost can be pooled; the deviations are then grouped by what could
cause a drift: warm-up (position in the boot, first sample after a group's
sets were loaded), order (the repetition, the cell that ran just before),
the boot (round, host load at its start) and time.  The samples of a boot
are in results.json in the order they ran, so stored runs without raw/
qualify.
"""
import json
import math
import os
import re

from .ingest import load_run, stored
from .model import BACKENDS, drop_cell_id
from .stats import mean, median, median_ci


def load_for_drift(path):
    """(name, meta, boots) of a results directory or of a results .json."""
    if os.path.isfile(path):
        with open(path) as f:
            meta, boots = stored(json.load(f))
        return path, meta, boots
    meta, boots, _ = load_run(path)
    return path, meta, boots


def boot_loads(meta, boots):
    """{boot dir: 1-minute host load before it}: bench's host load has one
    row per boot in the order they ran, so the k-th row of a kernel role
    belongs to its k-th round."""
    rows = {}
    for ln in meta.get("load_during", []):
        m = re.match(r"\S+ (\S+) load (\S+)", ln)
        if m:
            rows.setdefault(m.group(1), []).append(float(m.group(2)))
    out = {}
    for b in sorted(boots, key=lambda b: b.get("round", 0)):
        lst = rows.get(b.get("role"), [])
        k = sum(1 for x in out if x.startswith("r") and x.split("-", 1)[1] == b.get("role"))
        if k < len(lst):
            out[b["dir"]] = lst[k]
    return out


def iso_s(t):
    m = re.match(r"\d+-\d+-\d+T(\d+):(\d+):(\d+)", t or "")
    return int(m.group(1)) * 3600 + int(m.group(2)) * 60 + int(m.group(3)) if m else None


def drift_rows(boots):
    """One dict per valid sample: its deviation (ns/packet over its cell's
    median, minus 1) and the candidate causes."""
    cellv = {}
    for b in boots:
        for s in b["samples"]:
            if s["valid"] and s["pps"]:
                cellv.setdefault((b["role"], s["cell"]), []).append(1e9 / s["pps"])
    med = {k: median(v) for k, v in cellv.items()}
    rows = []
    for b in boots:
        ss = b["samples"]
        t0, t1 = iso_s(b.get("guest", {}).get("start")), iso_s(b.get("guest", {}).get("end"))
        prev, gpos = None, 0
        for i, s in enumerate(ss):
            gid = (s["table"], s["type"])
            if prev is None or (prev["table"], prev["type"]) != gid:
                gpos = 0
                prev_cell = None
            else:
                gpos += 1
                prev_cell = (b["role"], prev["cell"])
            prev = s
            if not (s["valid"] and s["pps"]):
                continue
            key = (b["role"], s["cell"])
            r = dict(boot=b["dir"], role=b["role"], round=b.get("round"), cell=s["cell"], i=i, n=len(ss),
                     rep=s["rep"], gpos=gpos, dev=1e9 / s["pps"] / med[key] - 1, backend=s["backend"],
                     table=s["table"])
            if prev_cell in med:
                r["prev_ratio"] = med[prev_cell] / med[key]
            if t0 is not None and t1 is not None and t1 > t0:
                # linear in the sample's position: the boot's samples take
                # about the same time each (set loading aside)
                r["t"] = (t1 - t0) * i / max(len(ss), 1)
            rows.append(r)
    return rows


def drift_text(name, meta, boots):
    rows = drift_rows(boots)
    if not rows:
        return "%s: no valid samples" % name
    loads = boot_loads(meta, boots)
    out = ["%s: %d valid samples in %d boots (%s, %s reps per boot, %s s per sample)" % (
        name, len(rows), len(boots), meta.get("mode"), meta.get("reps_per_boot"), meta.get("duration")),
        "deviation = ns/packet / median ns/packet of the same cell (kernel, cell) - 1, + is slower;",
        "median [95% CI of the median, order statistics] and mean, in %", ""]

    def group(title, keyf):
        g = {}
        for r in rows:
            k = keyf(r)
            if k is not None:
                g.setdefault(k, []).append(r["dev"] * 100)
        out.append(title)
        for k in sorted(g, key=lambda x: (isinstance(x, str), x)):
            v = g[k]
            ci = median_ci(v)
            out.append("  %-28s n=%4d  median %+6.2f%% %-18s mean %+6.2f%%" % (
                k, len(v), median(v), "[%+.1f, %+.1f]" % ci if ci else "(no CI)", mean(v)))

    group("position in the boot (sample index, 0 = first of the boot):",
          lambda r: "%d" % r["i"] if r["i"] < 4 else ">= 4")
    group("position in the boot (fifths of its samples):", lambda r: "fifth %d" % (5 * r["i"] // r["n"] + 1))
    group("time since the boot started (estimated from its position):",
          lambda r: None if "t" not in r else ("%3d-%3d s" % (60 * (r["t"] // 60), 60 * (r["t"] // 60) + 60)
                                               if r["t"] < 240 else ">= 240 s"))
    group("first sample after the group's sets were loaded:", lambda r: "first of group" if r["gpos"] == 0
          else "later")
    group("repetition within the boot:", lambda r: "rep %d" % r["rep"])
    group("cell that ran just before (its median over this cell's):",
          lambda r: None if "prev_ratio" not in r else ("heavier (> 1.3x)" if r["prev_ratio"] > 1.3 else
                                                        "lighter (< 0.77x)" if r["prev_ratio"] < 0.77
                                                        else "similar"))
    group("boot round (order of the boots, wall clock):", lambda r: "round %s" % r["round"])
    steal = meta.get("steal") or {}
    if steal:
        group("host CPU steal during the boot:",
              lambda r: None if r["boot"] not in steal else ("steal < 1%" if steal[r["boot"]] < 1 else
                                                             "steal 1-5%" if steal[r["boot"]] < 5 else "steal >= 5%"))
    if loads:
        group("host 1-minute load before the boot:",
              lambda r: None if r["boot"] not in loads else "load %.1f-%.1f" % (
                  math.floor(loads[r["boot"]] * 5) / 5, math.floor(loads[r["boot"]] * 5) / 5 + 0.2))
    # variance between boots vs within, per cell
    share, null = [], []
    by = {}
    for r in rows:
        by.setdefault((r["role"], r["cell"]), {}).setdefault(r["boot"], []).append(r["dev"])
    for bb in by.values():
        xs = [x for v in bb.values() for x in v]
        if len(bb) < 2 or len(xs) < 3:
            continue
        m = mean(xs)
        tot = sum((x - m) ** 2 for x in xs)
        if tot > 0:
            share.append(sum(len(v) * (mean(v) - m) ** 2 for v in bb.values()) / tot)
            # E[SS between / SS total] = (boots - 1) / (samples - 1) when
            # the boot does not matter (one-way ANOVA under the null)
            null.append((len(bb) - 1) / (len(xs) - 1))
    out.append("")
    if share:
        out.append("between-boot share of a cell's variance: mean %.2f (median %.2f) over %d cells; "
                   "%.2f expected if the boot did not matter" % (mean(share), median(share), len(share), mean(null)))
    # serial correlation of the deviations within a boot
    corr = []
    for lag in (1, 2, 3, 5, 10):
        xs, ys = [], []
        for b in boots:
            dv = {r["i"]: math.log1p(r["dev"]) for r in rows if r["boot"] == b["dir"]}
            for i, x in dv.items():
                if i + lag in dv:
                    xs.append(x)
                    ys.append(dv[i + lag])
        if len(xs) > 2:
            corr.append("lag %d: %+.2f (n=%d)" % (lag, pearson(xs, ys), len(xs)))
    out.append("serial correlation of log deviations within a boot: " + ", ".join(corr))
    # lookup sample vs its paired drop sample, by their distance in the boot
    pos = {(r["boot"], r["cell"], r["rep"]): r for r in rows}
    pairs = {}
    for r in rows:
        if r["backend"] not in tuple(BACKENDS) + ("update",):
            continue
        d = pos.get((r["boot"], drop_cell_id(r["cell"]), r["rep"]))
        if d:
            k = min(abs(d["i"] - r["i"]), 4)
            pairs.setdefault(k, []).append((math.log1p(r["dev"]), math.log1p(d["dev"])))
    pc = ["%s%d: %+.2f (n=%d)" % (">=" if k == 4 else "", k, pearson([a for a, _ in v], [b for _, b in v]), len(v))
          for k, v in sorted(pairs.items()) if len(v) > 2]
    if pc:
        out.append("correlation of a lookup sample with its paired drop sample, by distance: " + ", ".join(pc))
    return "\n".join(out)


def pearson(xs, ys):
    mx, my = mean(xs), mean(ys)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    return sxy / math.sqrt(sxx * syy) if sxx > 0 and syy > 0 else float("nan")


def drift(paths):
    """The drift text of every run of PATHS and, with several, of all pooled."""
    texts = []
    runs = [load_for_drift(p) for p in paths]
    for r in runs:
        texts.append(drift_text(*r))
    if len(runs) > 1:
        # all runs together: each keeps its own cell medians (the role is
        # prefixed with the run), host load is per run and left out
        pooled = []
        for k, (_, _, boots) in enumerate(runs):
            for b in boots:
                pooled.append(dict(b, dir="%d:%s" % (k, b["dir"]), role="%d:%s" % (k, b.get("role")),
                                   samples=[dict(s_, boot="%d:%s" % (k, s_["boot"])) for s_ in b["samples"]]))
        texts.append(drift_text("all %d runs pooled" % len(runs), dict(mode="mixed", reps_per_boot="-",
                                                                       duration="-"), pooled))
    return "\n\n".join(texts)
