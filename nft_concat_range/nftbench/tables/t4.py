# SPDX-License-Identifier: GPL-2.0
"""T4: egress: no egress hook vs a netdev egress chain with one counting
rule, baseline vs patched (retpoline flavor), pktgen queue_xmit."""
from ..analysis import summary
from ..model import cell, cell_id
from ..plots import err_bar, hist_body
from ..render import cell_text, fmt_summary, render_table

ROLES = ("baseline-retpoline", "patched-retpoline")
NOHOOK = cell_id("T4", "net_port", "nohook", 0, "-")
EGRESS = cell_id("T4", "net_port", "egress", 1, "-")


def groups(role, t2n, every, types):
    return [(dict(gid="T4-egress", table="T4", type="net_port", mode="egress"),
             [cell("T4", "net_port", "nohook", 0, "-"), cell("T4", "net_port", "egress", 1, "-")])]


def analyse(rep):
    base, pat = ROLES
    cells = rep.cells
    rows = []
    hook_ns = {}
    for role in (base, pat):
        r = dict(role=role)
        for b, cid in (("nohook", NOHOOK), ("egress", EGRESS)):
            r["status_" + b] = cells.status(role, cid)
            r[b] = summary([p / 1e6 for p in cells.pps(role, cid)]) if r["status_" + b] == "ok" else None
        ok = r["nohook"] and r["egress"]
        hook_ns[role] = cells.paired_ns(role, EGRESS, NOHOOK, 1) if ok else []
        r["hook_ns"] = summary(hook_ns[role])
        rows.append(r)
    if hook_ns[base] and hook_ns[pat]:
        cmp_ = rep.compare("T4 egress hook ns baseline vs patched", hook_ns[base], hook_ns[pat], "baseline", "patched")
    else:
        cmp_ = dict(verdict="not compared")
    return dict(title="T4: egress, pktgen queue_xmit on a dummy device", rows=rows, cmp=cmp_, roles=[base, pat])


def render(t):
    out = [t["title"], "", "Mpps median [95% CI]; hook cost = 1e9/rate(egress) - 1e9/rate(no hook), paired:", ""]
    hdr = ["kernel", "no egress hook", "egress chain, 1 rule", "hook cost ns"]
    rows = []
    for r in t["rows"]:
        rows.append([r["role"].split("-")[0], cell_text(r["status_nohook"], r["nohook"]),
                     cell_text(r["status_egress"], r["egress"]),
                     fmt_summary(r["hook_ns"], 1) if r["hook_ns"] else "-"])
    out.append(render_table(hdr, rows))
    out += ["", "hook cost, ministat -c 95 (patched - baseline): " + t["cmp"]["verdict"]]
    return "\n".join(out)


def plot(tab):
    lines = ["# kernel nohook lo hi egress lo hi"]
    for row in tab["rows"]:
        lines.append("%s %s %s" % (row["role"].split("-")[0], " ".join(err_bar(row["nohook"])),
                                   " ".join(err_bar(row["egress"]))))
    return lines, hist_body(lines, ("no egress hook", "egress chain, 1 rule"), "Mpps (median, 95% CI)")


def shape(t):
    return [r["role"] for r in t["rows"]] == list(ROLES)
