# SPDX-License-Identifier: GPL-2.0
"""T3: 1 vs 100 lookup rules per packet (pipapo net,port 1000), knob 0 vs 1:
Mpps, and the per-lookup cost as the least-squares slope of ns/packet over
the number of lookup rules."""
import math

from ..analysis import summary
from ..model import cell, cell_id
from ..plots import NODATA
from ..render import cell_text, render_table
from ..stats import linfit

ROLES = ("patched-retpoline",)
KNOB = True                 # compares the force-indirect knob, 0 vs 1
LOOKUPS = (0, 1, 10, 50, 100)
ROWS = (1, 100)


def groups(role, t2n, every, types):
    return [(dict(gid="T3-net_port", table="T3", type="net_port", mode="ingress"),
             [cell("T3", "net_port", "pipapo", n, k) for k in ("0", "1") for n in LOOKUPS])]


def analyse(rep):
    pat = ROLES[0]
    cells = rep.cells
    knob_missing = pat in cells.knob_missing
    out = dict(title="T3: 1 vs 100 lookup rules per packet (pipapo net,port 1000, patched retpoline kernel)",
               knob_missing=knob_missing, fits={}, points={}, status={}, rows=[])
    for k in ("0", "1"):
        xs, ys = [], []
        st = []
        for n in LOOKUPS:
            cid = cell_id("T3", "net_port", "pipapo", n, k)
            st.append(cells.status(pat, cid))
            for s in cells.get(pat, cid):
                if s["valid"]:
                    xs.append(n)
                    ys.append(1e9 / s["pps"])
        bad = [s for s in st if s != "ok"]
        out["status"][k] = "ok" if not bad else ", ".join(sorted(set(bad)))
        out["points"][k] = list(zip(xs, ys))
        out["fits"][k] = linfit(xs, ys) if not bad else None
    for n in ROWS:
        r = dict(n=n)
        vals = {}
        for k in ("0", "1"):
            cid = cell_id("T3", "net_port", "pipapo", n, k)
            ok = cells.status(pat, cid) == "ok"
            vals[k] = [p / 1e6 for p in cells.pps(pat, cid)] if ok else []
            r["k" + k] = summary(vals[k]) if ok else None
            r["status_k" + k] = cells.status(pat, cid)
        if r["k0"] and r["k1"]:
            r["diff_pct"] = (r["k0"]["median"] / r["k1"]["median"] - 1) * 100
            r["cmp"] = rep.compare("T3 %d rules Mpps direct vs indirect" % n, vals["1"], vals["0"], "indirect", "direct")
        else:
            r["diff_pct"] = None
            r["cmp"] = dict(verdict="not compared")
        out["rows"].append(r)
    return out


def render(t):
    out = [t["title"], ""]
    if t["knob_missing"]:
        out += ["The kernel has no force-indirect knob: both columns ran the kernel's default path.", ""]
    hdr = ["lookup rules", "indirect (knob 1) Mpps", "direct (knob 0) Mpps", "diff (medians)",
           "ministat -c 95 (direct - indirect)"]
    rows = []
    for r in t["rows"]:
        rows.append([str(r["n"]), cell_text(r["status_k1"], r["k1"]), cell_text(r["status_k0"], r["k0"]),
                     "-" if r["diff_pct"] is None else "%+.1f%%" % r["diff_pct"], r["cmp"]["verdict"]])
    out.append(render_table(hdr, rows))
    out += ["", "per-lookup cost: least-squares slope of ns/packet over N in %s, 95%% CI (Student's t, n-2 df):"
            % ", ".join(str(n) for n in LOOKUPS)]
    for k, name in (("1", "indirect (knob 1)"), ("0", "direct (knob 0)")):
        f = t["fits"][k]
        if f:
            out.append("  %-18s %.2f +/- %.2f ns per lookup (intercept %.1f ns, n=%d)" % (
                name, f["slope"], f["slope_half"], f["intercept"], f["n"]))
        else:
            out.append("  %-18s not fitted (%s)" % (name, t["status"][k]))
    f0, f1 = t["fits"]["0"], t["fits"]["1"]
    if f0 and f1:
        d = f0["slope"] - f1["slope"]
        h = math.hypot(f0["slope_half"], f1["slope_half"])
        out.append("  direct - indirect: %+.2f +/- %.2f ns per lookup (CIs combined in quadrature)%s" %
                   (d, h, "" if abs(d) > h else ": no difference proven at 95% confidence"))
    return "\n".join(out)


def plot(tab):
    lines = ["# knob N ns_per_packet"]
    for k in ("0", "1"):
        for x, y in tab["points"][k]:
            lines.append("%s %d %.3f" % (k, x, y))
    fits = []
    for k, name in (("0", "direct (knob 0)"), ("1", "indirect (knob 1)")):
        f = tab["fits"][k]
        if f:
            fits.append("%.6f + %.6f*x lw 2 title '%s fit: %.1f +/- %.1f ns/lookup'" % (
                f["intercept"], f["slope"], name, f["slope"], f["slope_half"]))
    pts = []
    for k, name, pt in (("0", "direct (knob 0)", 7), ("1", "indirect (knob 1)", 6)):
        if tab["points"][k]:
            pts.append("'@DAT@' using ($1==%s?$2:1/0):3 with points pt %d title '%s'" % (k, pt, name))
    body = NODATA if not pts else (
        "set xlabel 'lookup rules per packet'\nset ylabel 'ns per packet'\nset grid\nset key top left\n"
        "plot " + ", ".join(pts + fits))
    return lines, body


def shape(t):
    return [r["n"] for r in t["rows"]] == list(ROWS) and set(t["fits"]) == {"0", "1"}
