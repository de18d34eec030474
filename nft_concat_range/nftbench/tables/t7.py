# SPDX-License-Identifier: GPL-2.0
"""T7: what hooks that are not nf_tables chains pay, timed: conntrack's
hooks with and without an nf_tables chain at the same hook, baseline vs
patched (retpoline flavor), pktgen netif_receive with a new skb per packet.
The cells are generators.CT_HOOKS; T0 counts the same cells exactly."""
from ..analysis import summary
from ..generators import CT_PGOPTS
from ..model import cell, cell_id
from ..plots import err_bar, hist_body
from ..render import cell_text, fmt_summary, paired, render_table

ROLES = ("baseline-retpoline", "patched-retpoline")
PGOPTS = CT_PGOPTS
CELLS = (("ctbase", "netdev"), ("ctonly", "+ ct"), ("ct", "+ nft"))
# (name, cell, the cell it is paired with): per repetition, the difference
# of ns per packet is what the added hooks cost.
COSTS = (("conntrack", "ctonly", "ctbase", "ct cost"), ("chain", "ct", "ctonly", "nft cost"))


def _cid(backend):
    return cell_id("T7", "ct", backend, 0, "-")


def groups(role, t2n, every, types):
    return [(dict(gid="T7-ct", table="T7", type="ct", mode="ingress"),
             [cell("T7", "ct", b, 0, "-") for b, _ in CELLS])]


def analyse(rep):
    cells = rep.cells
    rows, vals = [], {}
    for role in ROLES:
        r = dict(role=role)
        for b, _ in CELLS:
            r["status_" + b] = cells.status(role, _cid(b))
            vals[(role, b)] = [1e9 / x for x in cells.pps(role, _cid(b))] if r["status_" + b] == "ok" else []
            r[b] = summary(vals[(role, b)])
        for name, a, b, _ in COSTS:
            ok = r["status_" + a] == "ok" and r["status_" + b] == "ok"
            vals[(role, name)] = cells.paired_ns(role, _cid(a), _cid(b), 1) if ok else []
            r[name] = summary(vals[(role, name)])
        rows.append(r)
    base, pat = ROLES
    cmps = {}
    for what, title in [(b, "T7 %s ns-per-packet" % b) for b, _ in CELLS] + \
                       [(name, "T7 %s cost" % name) for name, _, _, _ in COSTS]:
        a, b = vals[(base, what)], vals[(pat, what)]
        cmps[what] = rep.compare(title + " baseline vs patched", a, b, "baseline", "patched") if a and b \
            else dict(verdict="not compared")
    return dict(title="T7: conntrack and nf_tables hooks, UML retpoline kernels, pktgen netif_receive burst 1 "
                "(the packet has no route: dropped after prerouting)", rows=rows, cmp=cmps, roles=list(ROLES))


def render(t):
    out = [t["title"], "", "ns per packet, median [95% CI]: netdev = the netdev counting chain only; + ct = and",
           "conntrack's hooks at prerouting (its ip chain sits at the output hook); + nft = and an nf_tables",
           "prerouting chain beside them.  ct cost = (+ ct) - netdev, nft cost = (+ nft) - (+ ct), paired per",
           "%s." % paired(t), ""]
    hdr = ["kernel"] + [label for _, label in CELLS] + [label for _, _, _, label in COSTS]
    rows = []
    for r in t["rows"]:
        rows.append([r["role"].split("-")[0]] + [cell_text(r["status_" + b], r[b], 1) for b, _ in CELLS] +
                    [fmt_summary(r[name], 1) if r[name] else "-" for name, _, _, _ in COSTS])
    out.append(render_table(hdr, rows))
    out += ["", "ministat -c 95 (patched - baseline):"]
    for key, label in [(b, label) for b, label in CELLS] + [(name, label) for name, _, _, label in COSTS]:
        out.append("  %-15s %s" % (label + ":", t["cmp"][key]["verdict"]))
    return "\n".join(out)


def plot(tab):
    lines = ["# what baseline lo hi patched lo hi"]
    for b, _ in CELLS:
        lines.append("%s %s" % (b, " ".join(" ".join(err_bar(r[b])) for r in tab["rows"])))
    return lines, hist_body(lines, ("baseline", "patched"), "ns per packet (median, 95% CI)")


def shape(t):
    return [r["role"] for r in t["rows"]] == list(ROLES) and \
        set(t["cmp"]) == {b for b, _ in CELLS} | {name for name, _, _, _ in COSTS}
