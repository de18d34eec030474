# SPDX-License-Identifier: GPL-2.0
"""T5: eibrs flavor, baseline vs patched: the cost of the static key that
skips the direct-call chain (drop, and DEFAULT_T2_LOOKUPS lookup rules per
packet for every backend)."""
from ..analysis import summary
from ..model import BACKENDS, cell, cell_id
from ..plots import err_bar, hist_body
from ..render import cell_text, render_table

ROLES = ("baseline-eibrs", "patched-eibrs")
DROP = cell_id("T5", "net_port", "drop", 0, "-")


def groups(role, t2n, every, types):
    return [(dict(gid="T5-net_port", table="T5", type="net_port", mode="ingress"),
             [cell("T5", "net_port", "drop", 0, "-")] + [cell("T5", "net_port", b, t2n, "-") for b in BACKENDS])]


def analyse(rep):
    base, pat = ROLES
    cells = rep.cells
    n = rep.t2n
    rows = []
    for b in ("drop",) + tuple(BACKENDS):
        r = dict(backend=b)
        vals = {}
        for role in (base, pat):
            cid = DROP if b == "drop" else cell_id("T5", "net_port", b, n, "-")
            st = cells.status(role, cid)
            if b != "drop" and st == "ok":
                st = cells.status(role, DROP)
            r["status_" + role] = st
            if st != "ok":
                vals[role] = []
            elif b == "drop":
                vals[role] = [1e9 / p for p in cells.pps(role, cid)]
            else:
                vals[role] = cells.paired_ns(role, cid, DROP, n)
            r[role] = summary(vals[role])
        r["cmp"] = rep.compare("T5 eibrs %s" % b, vals[base], vals[pat], "baseline", "patched") \
            if vals[base] and vals[pat] else dict(verdict="not compared (%s)" % ", ".join(
                "%s: %s" % (ro, r["status_" + ro]) for ro in (base, pat) if r["status_" + ro] != "ok"))
        rows.append(r)
    return dict(title="T5: eibrs flavor, baseline vs patched (cost of the static key), net,port 1000, "
                "%d lookup rules per packet" % n, rows=rows, roles=[base, pat])


def render(t):
    base, pat = t["roles"]
    out = [t["title"], "", "drop row: ns per packet; lookup rows: ns per lookup (paired against drop); median [95% CI]", ""]
    hdr = ["cell", "baseline eibrs", "patched eibrs", "ministat -c 95 (patched - baseline)"]
    rows = []
    for r in t["rows"]:
        rows.append([r["backend"], cell_text(r["status_" + base], r[base], 1),
                     cell_text(r["status_" + pat], r[pat], 1), r["cmp"]["verdict"]])
    out.append(render_table(hdr, rows))
    return "\n".join(out)


def plot(tab):
    lines = ["# cell baseline lo hi patched lo hi"]
    for row in tab["rows"]:
        lines.append("%s %s %s" % (row["backend"], " ".join(err_bar(row[tab["roles"][0]])),
                                   " ".join(err_bar(row[tab["roles"][1]]))))
    return lines, hist_body(lines, ("baseline eibrs", "patched eibrs"), "ns (drop: per packet; others: per lookup)")


def shape(t):
    return [r["backend"] for r in t["rows"]] == ["drop"] + list(BACKENDS)
