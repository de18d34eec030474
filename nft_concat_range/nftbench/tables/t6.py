# SPDX-License-Identifier: GPL-2.0
"""T6: the dynset update path (patch 3): `update @dyn { ip saddr }` on an
rhash set, patched retpoline kernel, knob 0 (direct) vs 1 (forced
indirect) interleaved in one boot, each with its own drop-only cell so that
the update cost is paired with the same knob."""
from ..analysis import summary
from ..model import DYNSET_ADDRS, DYNSET_SET, DYNSET_SRC, cell, cell_id
from ..plots import err_bar, hist_body
from ..render import cell_text, fmt_summary, paired, render_table

ROLES = ("patched-retpoline",)
KNOB = True                 # compares the force-indirect knob, 0 vs 1
# burst 1: with a burst, pktgen sends the same skb again and the source
# address would not change.
PGOPTS = DYNSET_SRC + ";burst 1"


def groups(role, t2n, every, types):
    return [(dict(gid="T6-dynset", table="T6", type="dynset", mode="ingress"),
             [cell("T6", "dynset", b, n, k) for k in ("0", "1") for b, n in (("drop", 0), ("update", 1))])]


def analyse(rep):
    pat = ROLES[0]
    cells = rep.cells
    knob_missing = pat in cells.knob_missing
    rows, vals = [], {}
    for k, name in (("0", "direct"), ("1", "indirect")):
        drop, upd = cell_id("T6", "dynset", "drop", 0, k), cell_id("T6", "dynset", "update", 1, k)
        r = dict(knob=k, name=name, status_drop=cells.status(pat, drop),
                 status_update=cells.status(pat, upd))
        if knob_missing and r["status_update"] == "ok":
            r["status_update"] = "knob missing"
        for b, cid in (("drop", drop), ("update", upd)):
            ok = r["status_" + b] == "ok"
            vals[(k, b)] = [1e9 / x for x in cells.pps(pat, cid)] if ok else []
            r[b] = summary(vals[(k, b)])
        ok = r["status_drop"] == "ok" and r["status_update"] == "ok"
        vals[(k, "cost")] = cells.paired_ns(pat, upd, drop, 1) if ok else []
        r["cost"] = summary(vals[(k, "cost")])
        rows.append(r)

    def cmp_(what, title):
        a, b = vals[("1", what)], vals[("0", what)]
        if a and b:
            return rep.compare(title, a, b, "indirect", "direct")
        return dict(verdict="not compared (%s)" % ", ".join(
            "knob %s %s: %s" % (r["knob"], what, r.get("status_update" if what != "drop" else "status_drop"))
            for r in rows if not vals[(r["knob"], what)]))
    return dict(title="T6: dynset, 'update @%s { ip saddr }' on an rhash set (%d source addresses, pktgen "
                "burst 1), patched retpoline kernel, knob 0 vs 1" % (DYNSET_SET, DYNSET_ADDRS),
                rows=rows, knob_missing=knob_missing, roles=[pat],
                cmp_packet=cmp_("update", "T6 dynset update ns-per-packet direct vs indirect"),
                cmp_cost=cmp_("cost", "T6 dynset update cost direct vs indirect"),
                cmp_drop=cmp_("drop", "T6 drop ns-per-packet knob0 vs knob1"))


def render(t):
    out = [t["title"], ""]
    if t["knob_missing"]:
        out += ["The patched retpoline kernel has no force-indirect knob: direct/indirect not measured.", ""]
    out += ["ns per packet, median [95%% CI]; update cost = ns/packet(update) - ns/packet(drop), paired per "
            "%s with the drop cell of the same knob:" % paired(t), ""]
    hdr = ["knob", "drop only", "update @%s + drop" % DYNSET_SET, "update cost"]
    rows = []
    for r in t["rows"]:
        rows.append(["%s (knob %s)" % (r["name"], r["knob"]), cell_text(r["status_drop"], r["drop"], 1),
                     cell_text(r["status_update"], r["update"], 1),
                     fmt_summary(r["cost"], 1) if r["cost"] else "-"])
    out.append(render_table(hdr, rows))
    out += ["", "ministat -c 95 (direct - indirect):",
            "  ns per packet, update rule: %s" % t["cmp_packet"]["verdict"],
            "  update cost (paired):       %s" % t["cmp_cost"]["verdict"],
            "  ns per packet, drop only:   %s" % t["cmp_drop"]["verdict"]]
    return "\n".join(out)


def plot(tab):
    lines = ["# what direct lo hi indirect lo hi"]
    for what, label in (("drop", "drop"), ("update", "update+drop"), ("cost", "update-cost")):
        lines.append("%s %s" % (label, " ".join(" ".join(err_bar(r[what])) for r in tab["rows"])))
    return lines, hist_body(lines, ("direct (knob 0)", "indirect (knob 1)"), "ns per packet (median, 95% CI)")


def shape(t):
    return [r["knob"] for r in t["rows"]] == ["0", "1"] and all(k in t for k in ("cmp_packet", "cmp_cost", "cmp_drop"))
