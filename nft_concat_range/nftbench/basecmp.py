# SPDX-License-Identifier: GPL-2.0
"""The base tree's nft_concat_range_perf.sh beside our T1.

The base tree's script (unmodified, run by `bench --selftest`) prints, per
set type, four rates measured over one perf_duration each:

      net,port                            61s[ OK ]
        baseline (drop from netdev hook):               4567890pps
        baseline hash (non-ranged entries):             3456789pps
        baseline rbtree (match on first field only):    2345678pps
        set with  1000 full, ranged entries:            1234567pps

Where it measured the same cell as our T1 (same kernel, set type, entry
count and column), its single sample should fall inside the 95 % prediction
interval of one new sample from our samples of that cell: mean +/- t(n-1) *
s * sqrt(1 + 1/n).  That interval is the noise floor of a single
measurement; a value outside it is reported as DISAGREE, never hidden.
"""
import os
import re

from .model import BACKENDS, TYPE_ORDER, TYPES, cell_id
from .stats import median, prediction_interval

# "  net,port    235s   [ OK ]", or the name alone when the test printed
# something before its verdict or was stopped; then the verdict may follow
# on a line of its own.  Names are checked against the known set types,
# because error text can follow a SKIP on lines indented alike.
TYPE_LINE = re.compile(r"^  (\S+)(.*)$")
STATUS = re.compile(r"(\d+)s\s*\[ ?(OK|SKIP|FAIL) ?\]")
# One rate line per T1 column: the drop line here, each backend's in its
# record (model.BACKENDS).
RATE_LINES = (("drop", re.compile(r"baseline \(drop from netdev hook\):\s+(\d+)pps")),) + tuple(
    (b.name, re.compile(b.base_line)) for b in BACKENDS.values())


def parse_output(text, names):
    """{display: dict(status, seconds, entries, pps={column: rate})} for
    the set types in NAMES the script started, in its order.  A type's
    rates follow its verdict (the script flushes its info buffer after it);
    a type without a verdict was stopped: "not finished"."""
    out = {}
    cur = None
    for line in text.splitlines():
        m = TYPE_LINE.match(line)
        if m and m.group(1) in names:
            cur = out[m.group(1)] = dict(status="not finished", seconds=None, entries=None, pps={})
        if cur is None:
            continue
        m = STATUS.search(line)
        if m and cur["status"] == "not finished":
            cur["status"], cur["seconds"] = m.group(2), int(m.group(1))
            continue
        for col, rx in RATE_LINES:
            m = rx.search(line)
            if not m:
                continue
            if rx.groups == 2:
                # the ranged set's line names its entry count too
                cur["entries"] = int(m.group(1))
            cur["pps"][col] = int(m.group(rx.groups))
    return out


def compare(parsed, ours, entries, expected=()):
    """Rows comparing the script's rates with ours.

    PARSED: parse_output() of one kernel's log; OURS(display, column) -> our
    valid pps samples of that T1 cell on the same kernel; ENTRIES(display)
    -> our entry count or None if we have no such row; EXPECTED: our T1
    rows, those the script never reached are listed as such.
    """
    rows = []
    for disp, r in parsed.items():
        if not r["pps"]:
            rows.append(dict(type=disp, column="-", theirs=None, status=r["status"],
                             verdict="not measured by the script (%s)" % r["status"]))
            continue
        for col, _ in RATE_LINES:
            theirs = r["pps"].get(col)
            row = dict(type=disp, column=col, theirs=theirs, status=r["status"])
            ours_n = entries(disp)
            if theirs is None:
                row["verdict"] = "not measured by the script (%s)" % r["status"]
            elif ours_n is None:
                row["verdict"] = "no such row in T1"
            elif r["entries"] is not None and r["entries"] != ours_n:
                row["verdict"] = "not the same cell: %d entries there, %d in T1" % (r["entries"], ours_n)
            else:
                xs = ours(disp, col)
                if len(xs) < 2:
                    row["verdict"] = "not compared: fewer than 2 valid samples of ours"
                else:
                    lo, hi = prediction_interval(xs)
                    med = median(xs)
                    row.update(ours_median=med, ours_n=len(xs), interval=[lo, hi],
                               diff_pct=100.0 * (theirs - med) / med)
                    row["verdict"] = "agree" if lo <= theirs <= hi else "DISAGREE"
            rows.append(row)
    rows += [dict(type=d, column="-", theirs=None, status="not reached",
                  verdict="not reached by the script") for d in expected if d not in parsed]
    return rows


def render(per_kernel):
    """PER_KERNEL: {role: (status text, rows)}."""
    lines = ["Base tree nft_concat_range_perf.sh (unmodified) beside T1: Mpps; agree = the",
             "script's single sample lies in the 95 % prediction interval of one new sample",
             "of ours (the noise floor of one measurement):", ""]
    for role, (status, rows) in per_kernel.items():
        lines.append("  %s: %s" % (role, status))
        for r in rows:
            if "interval" in r:
                lines.append("    %-22s %-6s script %7.3f  ours %7.3f (n=%d)  %+6.1f%%  interval [%.3f,%.3f]  %s" % (
                    r["type"], r["column"], r["theirs"] / 1e6, r["ours_median"] / 1e6, r["ours_n"],
                    r["diff_pct"], r["interval"][0] / 1e6, r["interval"][1] / 1e6, r["verdict"]))
            else:
                lines.append("    %-22s %-6s %s%s" % (
                    r["type"], r["column"],
                    "" if r["theirs"] is None else "script %7.3f  " % (r["theirs"] / 1e6), r["verdict"]))
        if rows:
            agree = sum(1 for r in rows if r["verdict"] == "agree")
            compared = sum(1 for r in rows if r["verdict"] in ("agree", "DISAGREE"))
            lines.append("    %d of %d compared cells agree" % (agree, compared))
        lines.append("")
    return "\n".join(lines).rstrip()


def script_logs(resdir, meta):
    """{role: output text} of the base script for every kernel it ran on:
    from its log in RESDIR (selftest-ROLE/output.log from bench, or
    selftest-ROLE.log beside a stored results.json), else from the
    run's meta (selftest_log, which results.json carries)."""
    out = {}
    for role in sorted(meta.get("selftest", {})):
        for log in (os.path.join(resdir, "selftest-%s" % role, "output.log"),
                    os.path.join(resdir, "selftest-%s.log" % role)):
            if os.path.isfile(log):
                out[role] = open(log, errors="replace").read()
                break
        else:
            if role in meta.get("selftest_log", {}):
                out[role] = meta["selftest_log"][role]
    return out


def base_selftest(meta, cells):
    """{role: (status, comparison rows)} for every kernel the base tree's
    perf script ran on (bench --selftest), against our T1 cells."""
    out = {}
    by_display = {TYPES[t].display: t for t in TYPES}

    def ours(disp, col):
        t = by_display[disp]
        cid = cell_id("T1", t, "drop", 0, "-") if col == "drop" else cell_id("T1", t, col, 1, "-")
        # the script's one sample against one new sample of ours: every
        # sample, whatever the run's estimator
        return cells.all_pps(role, cid) if cells.status(role, cid) == "ok" else []

    def entries(disp):
        return TYPES[by_display[disp]].entries if disp in by_display else None

    logs = meta.get("selftest_log", {})
    for role, status in sorted(meta.get("selftest", {}).items()):
        rows = []
        if role in logs:
            parsed = parse_output(logs[role], by_display)
            rows = compare(parsed, ours, entries, [TYPES[t].display for t in TYPE_ORDER])
        out[role] = (status, rows)
    return out
