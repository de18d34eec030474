# SPDX-License-Identifier: GPL-2.0
"""T1: set lookups per set type and backend, baseline vs patched (retpoline).

Rows of seed 002 x netdev drop / every backend; Mpps and ns per lookup
(paired with the drop cell of the same repetition), ministat per cell.
"""
from ..analysis import summary
from ..model import BACKENDS, SPEC_NOTE, TYPES, TYPE_ORDER, cell, cell_id
from ..plots import err_bar, hist_body
from ..render import cell_text, paired, render_table, samples_word

ROLES = ("baseline-retpoline", "patched-retpoline")
PLOT_WIDTH = 1200           # seven types x three backends
COLUMNS = ("drop",) + tuple(BACKENDS)


def _cid(t, b):
    return cell_id("T1", t, b, 0, "-") if b == "drop" else cell_id("T1", t, b, 1, "-")


def groups(role, t2n, every, types):
    return [(dict(gid="T1-" + t, table="T1", type=t, mode="ingress"),
             [cell("T1", t, "drop", 0, "-")] + [cell("T1", t, b, 1, "-") for b in BACKENDS])
            for t in types]


def analyse(rep):
    base, pat = ROLES
    cells = rep.cells
    rows = []
    for t in TYPE_ORDER:
        row = dict(type=t, display=TYPES[t].display, entries=TYPES[t].entries, kernels={}, verdicts={})
        drop = _cid(t, "drop")
        for role in (base, pat):
            k = dict(status={}, mpps={}, ns={})
            for b in COLUMNS:
                cid = _cid(t, b)
                k["status"][b] = cells.status(role, cid)
                sm = summary([p / 1e6 for p in cells.pps(role, cid)]) if k["status"][b] == "ok" else None
                k["mpps"][b] = sm
                if b != "drop":
                    ok = k["status"][b] == "ok" and k["status"]["drop"] == "ok"
                    k["ns"][b] = summary(cells.paired_ns(role, cid, drop, 1)) if ok else None
            row["kernels"][role] = k
        for b in BACKENDS:
            kb, kp = row["kernels"][base], row["kernels"][pat]
            if kb["ns"].get(b) and kp["ns"].get(b):
                cid = _cid(t, b)
                a = cells.paired_ns(base, cid, drop, 1)
                bb = cells.paired_ns(pat, cid, drop, 1)
                row["verdicts"][b] = rep.compare("T1 %s %s ns-per-lookup" % (t, b), a, bb, "baseline", "patched")
            else:
                row["verdicts"][b] = dict(verdict="not compared: %s" % ("; ".join(
                    "%s %s" % (r, st) for r, st in ((base, kb["status"][b]), (pat, kp["status"][b]))
                    if st != "ok") or "drop cell not valid"))
        rows.append(row)
    # The drop cells of all groups together: the hook entry and one
    # rule without a lookup, the part of the path the lookups share.
    drops = {}
    for role in (base, pat):
        cids = [_cid(t, "drop") for t in TYPE_ORDER]
        if all(cells.status(role, c) == "ok" for c in cids):
            drops[role] = [1e9 / p for c in cids for p in cells.pps(role, c)]
    if len(drops) == 2:
        drop_all = dict(n=len(drops[base]), baseline=summary(drops[base]), patched=summary(drops[pat]),
                        verdict=rep.compare("T1 netdev drop ns-per-packet all types",
                                            drops[base], drops[pat], "baseline", "patched"))
    else:
        drop_all = None
    return dict(title="T1: set lookups, baseline vs patched (retpoline flavor)", rows=rows,
                roles=[base, pat], drop_all=drop_all)


def render(t):
    base, pat = t["roles"]
    out = [t["title"], "", "Mpps, median [95% CI of the median]:", ""]
    hdr = ["type, entries", "kernel", "netdev drop"] + [BACKENDS[b].label for b in BACKENDS]
    rows = []
    for r in t["rows"]:
        for role in (base, pat):
            k = r["kernels"][role]
            rows.append(["%s %d" % (r["display"], r["entries"]) if role == base else "",
                         role.split("-")[0]] +
                        [cell_text(k["status"][b], k["mpps"][b]) for b in COLUMNS])
    out.append(render_table(hdr, rows))
    d = t.get("drop_all")
    if d:
        out += ["", "netdev drop, all types together (%d %s per kernel), ns per packet: baseline %s, patched %s"
                % (d["n"], samples_word(t), cell_text("ok", d["baseline"], 1), cell_text("ok", d["patched"], 1)),
                "  ministat -c 95 (patched - baseline): %s" % d["verdict"]["verdict"]]
    out += ["", "Note: " + SPEC_NOTE]
    out += ["", "ns per lookup = 1e9/rate - 1e9/drop rate (paired per %s), median [95%% CI];" % paired(t),
            "verdict: ministat -c 95 on the per-lookup samples, patched vs baseline:", ""]
    hdr = ["type, entries", "backend", "baseline ns", "patched ns", "verdict (patched - baseline)"]
    rows = []
    for r in t["rows"]:
        for i, b in enumerate(BACKENDS):
            kb, kp = r["kernels"][base], r["kernels"][pat]
            rows.append(["%s %d" % (r["display"], r["entries"]) if i == 0 else "", b,
                         cell_text(kb["status"][b], kb["ns"].get(b), 1),
                         cell_text(kp["status"][b], kp["ns"].get(b), 1),
                         r["verdicts"][b]["verdict"]])
    out.append(render_table(hdr, rows))
    return "\n".join(out)


def plot(tab):
    """(data lines, gnuplot body) of T1.svg."""
    base, pat = tab["roles"]
    lines = ["# label baseline lo hi patched lo hi"]
    for row in tab["rows"]:
        for b in BACKENDS:
            vb = err_bar(row["kernels"][base]["ns"].get(b))
            vp = err_bar(row["kernels"][pat]["ns"].get(b))
            lines.append('"%s/%s" %s %s' % (row["display"], b, " ".join(vb), " ".join(vp)))
    return lines, hist_body(lines, ("baseline", "patched"), "ns per lookup (median, 95% CI)",
                            "set bmargin 10\nset rmargin 8\n")


def shape(t):
    return len(t["rows"]) == len(TYPE_ORDER) and all(set(r["kernels"]) == set(ROLES) for r in t["rows"])
