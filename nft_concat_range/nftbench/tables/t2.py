# SPDX-License-Identifier: GPL-2.0
"""T2: direct vs indirect calls in one boot of the patched retpoline kernel
(knob 0 vs 1), the patched plain kernel as the limit; ns per lookup with
DEFAULT_T2_LOOKUPS rules per packet.  Also the run's A/A pair: the same
pipapo cell and its drop cell twice, interleaved (the noise floor)."""
from ..analysis import summary
from ..model import BACKENDS, cell, cell_id
from ..plots import err_bar, hist_body
from ..render import cell_text, fmt_num, fmt_summary, render_table

ROLES = ("patched-retpoline", "patched-plain")
KNOB = True                 # compares the force-indirect knob, 0 vs 1
GOAL = 1.05                 # direct <= GOAL x plain


def groups(role, t2n, every, types):
    knobs = ("0", "1") if role == "patched-retpoline" or every else ("-",)
    cells = []
    for k in knobs:
        cells.append(cell("T2", "net_port", "drop", 0, k))
        cells += [cell("T2", "net_port", b, t2n, k) for b in BACKENDS]
    if knobs == ("0", "1"):
        # A/A: a second, identical series interleaved with the first.
        cells.append(cell("T2", "net_port", "drop", 0, "0", "-aa"))
        cells.append(cell("T2", "net_port", "pipapo", t2n, "0", "-aa"))
    return [(dict(gid="T2-net_port", table="T2", type="net_port", mode="ingress"), cells)]


def _not_compared(row, cols):
    return dict(verdict="not compared (%s)" % ", ".join(
        "%s: %s" % (c, row["status"][c]) for c in cols if row["status"][c] != "ok"))


def analyse(rep):
    pat, plain = ROLES
    cells = rep.cells
    n = rep.t2n
    knob_missing = pat in cells.knob_missing
    rows = []
    for b in BACKENDS:
        row = dict(backend=b, n=n, cols={}, status={})
        samples = {}
        for col, role, k in (("direct", pat, "0"), ("indirect", pat, "1"), ("plain", plain, "-")):
            cid = cell_id("T2", "net_port", b, n, k)
            drop = cell_id("T2", "net_port", "drop", 0, k)
            st = cells.status(role, cid)
            std = cells.status(role, drop)
            if st == "ok" and std != "ok":
                st = "drop cell " + std
            if k in ("0", "1") and knob_missing and st == "ok":
                st = "knob missing"
            row["status"][col] = st
            row["cols"][col] = summary(cells.paired_ns(role, cid, drop, n)) if st == "ok" else None
            samples[col] = cells.paired_ns(role, cid, drop, n) if st == "ok" else []
        d, p, i = row["cols"]["direct"], row["cols"]["plain"], row["cols"]["indirect"]
        row["ratio_direct_plain"] = d["median"] / p["median"] if d and p and p["median"] > 0 else None
        row["goal_met"] = None if row["ratio_direct_plain"] is None else row["ratio_direct_plain"] <= GOAL
        row["direct_vs_plain"] = rep.compare("T2 %s direct vs plain" % b, samples["plain"], samples["direct"],
                                             "plain", "direct") if d and p else \
            _not_compared(row, ("direct", "plain"))
        row["direct_vs_indirect"] = rep.compare("T2 %s direct vs indirect" % b, samples["indirect"],
                                                samples["direct"], "indirect", "direct") if d and i else \
            _not_compared(row, ("direct", "indirect"))
        rows.append(row)
    # A/A noise floor: pipapo knob 0, two interleaved identical series.
    a_cid, aa_cid = cell_id("T2", "net_port", "pipapo", n, "0"), cell_id("T2", "net_port", "pipapo", n, "0", "-aa")
    a_drop, aa_drop = cell_id("T2", "net_port", "drop", 0, "0"), cell_id("T2", "net_port", "drop", 0, "0", "-aa")
    a = cells.paired_ns(pat, a_cid, a_drop, n)
    aa = cells.paired_ns(pat, aa_cid, aa_drop, n)
    st = [cells.status(pat, c) for c in (a_cid, aa_cid, a_drop, aa_drop)]
    if all(s == "ok" for s in st):
        aarow = rep.compare("T2 A-A pipapo knob0 vs knob0", a, aa, "A", "A2")
        aarow["a"], aarow["b"] = summary(a), summary(aa)
    else:
        aarow = dict(verdict="not measured (%s)" % ", ".join(sorted(set(st))))
    return dict(title="T2: direct vs indirect calls, ns per lookup (%d lookup rules per packet, net,port 1000)" % n,
                rows=rows, aa=aarow, knob_missing=knob_missing, roles=[pat, plain])


def render(t):
    out = [t["title"], ""]
    if t["knob_missing"]:
        out += ["The patched retpoline kernel has no force-indirect knob: direct/indirect not measured.", ""]
    hdr = ["backend", "direct (knob 0)", "indirect (knob 1)", "plain kernel", "direct/plain", "goal <= %.2fx" % GOAL]
    rows = []
    for r in t["rows"]:
        rows.append([r["backend"]] + [cell_text(r["status"][c], r["cols"][c], 1) for c in ("direct", "indirect", "plain")] +
                    [fmt_num(r["ratio_direct_plain"], 3),
                     "-" if r["goal_met"] is None else ("met (medians)" if r["goal_met"] else "NOT met")])
    out.append(render_table(hdr, rows))
    out += ["", "ministat -c 95:"]
    for r in t["rows"]:
        out.append("  %-7s direct vs indirect: %s" % (r["backend"], r["direct_vs_indirect"]["verdict"]))
        out.append("  %-7s direct vs plain:    %s" % (r["backend"], r["direct_vs_plain"]["verdict"]))
    aa = t["aa"]
    out.append("  A/A noise floor (pipapo, knob 0 vs knob 0, interleaved): %s" % aa["verdict"])
    if aa.get("a"):
        out.append("    A: %s ns   A2: %s ns" % (fmt_summary(aa["a"], 1), fmt_summary(aa["b"], 1)))
    return "\n".join(out)


def plot(tab):
    lines = ["# backend direct lo hi indirect lo hi plain lo hi"]
    for row in tab["rows"]:
        lines.append("%s %s" % (row["backend"], " ".join(" ".join(err_bar(row["cols"][c]))
                                                         for c in ("direct", "indirect", "plain"))))
    return lines, hist_body(lines, ("direct (knob 0)", "indirect (knob 1)", "plain kernel"),
                            "ns per lookup (median, 95% CI)")


def shape(t):
    return [r["backend"] for r in t["rows"]] == list(BACKENDS) and "aa" in t
