# SPDX-License-Identifier: GPL-2.0
"""t0.py compare: T0 runs of different bases and kernels side by side.

Each run's t0.json (t0/cells.py's analysis) gives, per cell, kernel and
spectre_v2= setting, the instructions and thunks per packet.  A lookup's own
cost is its cell less the drop cell of the same group (same knob and tag):
the hook and the chain around it cancel, so what is left is the set lookup
and its expression.  Patched kernels are shown with the lab knob at 0 (the
series' direct calls); the knob's forced-indirect runs are the patched
kernel's own control and stay in its run's report.

A difference between two kernels counts only where their instruction
ranges do not overlap, each range the min..max of at least t0cells.MIN_BOOTS
boots: one boot cannot show what the next one counts (the v4 run's hash
cell read 1056 on a kernel that counted 1015 in five other boots).  The
delta table marks every other difference "not proven".
"""
import json
import math
import os
from fractions import Fraction

from ..model import parse_cell_id
from ..render import render_table
from . import breakdown as t0breakdown, cells as t0cells, code as t0code
from .text import fmt, fmt_range, parse_range, short_cell

# The backends whose lookups get a per-lookup row.
LOOKUP_BACKENDS = ("hash", "rbtree", "pipapo")


def kernel_label(run, variant):
    """The label of VARIANT's kernel in RUN (t0.json's run): "BASE VARIANT"
    unless the run was given another (t0.py run --label)."""
    return (run.get("labels") or {}).get(variant) or "%s %s" % (run["base"], variant)


def load(resdir):
    """(run, rows) of one run: rows keyed by (cell name, mitigation, label),
    the label "BASE VARIANT" per kernel unless the run was given another
    (t0.py run --label: two runs of one base whose patched kernels carry
    different parts of the series)."""
    with open(os.path.join(resdir, "t0", "t0.json")) as f:
        t0 = json.load(f)
    rows = {}
    for r in t0["rows"]:
        if r["knob"] == "1":
            continue
        label = kernel_label(t0["run"], r["variant"])
        # t0.json before per-boot figures: every cell ran in every boot
        r = dict(r, boots=r.get("boots", t0["run"]["rounds"]))
        rows[(r["cell"].replace("/k0", "/k-"), r["mitigation"], label)] = r
    return t0["run"], rows


def cell_text(r):
    return "-" if r is None else "%s / %s" % (r["kernel_insns"], r["indirect_thunks"])


def lookup_text(r, drop):
    """Instructions and thunks of the lookup alone: the cell less its drop
    cell.  A range where either count is one (lo..hi less lo..hi)."""
    if r is None or drop is None:
        return "-"
    ilo, ihi = parse_range(r["kernel_insns"])
    dlo, dhi = parse_range(drop["kernel_insns"])
    tlo, thi = parse_range(r["indirect_thunks"])
    slo, shi = parse_range(drop["indirect_thunks"])
    return "%s / %s" % (fmt_range(ilo - dhi, ihi - dlo), fmt_range(tlo - shi, thi - slo))


def signed(x):
    return ("+" if x > 0 else "") + fmt(x)


def delta_verdict(a, b):
    """(lo, hi, verdict) of row B less row A in instructions per packet:
    verdict None where the difference is proven (the two ranges do not
    overlap and each comes from at least t0cells.MIN_BOOTS boots), else why
    not ("same", "same in N boots", "not proven: overlap", ...)."""
    alo, ahi = parse_range(a["kernel_insns"])
    blo, bhi = parse_range(b["kernel_insns"])
    lo, hi = blo - ahi, bhi - alo
    boots = min(a["boots"], b["boots"])
    few = "%d boot%s" % (boots, "" if boots == 1 else "s")
    if alo == ahi == blo == bhi:
        verdict = "same" if boots >= t0cells.MIN_BOOTS else "same in " + few
    elif bhi >= alo and blo <= ahi:
        verdict = "not proven: overlap"
    elif boots < t0cells.MIN_BOOTS:
        verdict = "not proven: " + few
    else:
        verdict = None
    return lo, hi, verdict


def delta_text(a, b):
    """Instructions per packet of row B less row A, and whether that
    difference is proven (delta_verdict())."""
    if a is None or b is None:
        return "-"
    lo, hi, verdict = delta_verdict(a, b)
    text = signed(lo) if lo == hi else "%s..%s" % (signed(lo), signed(hi))
    return text if verdict is None else "%s (%s)" % (text, verdict)


def delta_rows(cells, rows, labels):
    """Each cell's instructions per packet in every kernel after the first,
    less the first kernel's."""
    return [[short_cell(c), m] + [delta_text(rows.get((c, m, labels[0])), rows.get((c, m, lab)))
                                  for lab in labels[1:]]
            for c, m in cells]


def drop_key(cid):
    c = cid.split("/")
    return "/".join(c[:2] + ["drop", "n0"] + c[4:])


def lookup_rows(backends, cells, rows, labels):
    """The per-lookup table's rows: each cell of BACKENDS less its drop cell,
    one column per kernel label."""
    return [[short_cell(c), m] + [lookup_text(rows.get((c, m, lab)), rows.get((drop_key(c), m, lab)))
                                  for lab in labels]
            for c, m in cells if parse_cell_id(c)["backend"] in backends]


# A commit message wraps at 75 columns (checkpatch: COMMIT_LOG_LONG_LINE).
MESSAGE_WIDTH = 75


def run_name(resdir):
    """A stored run's name: its directory's."""
    return os.path.basename(os.path.normpath(resdir))


def run_names(resdirs):
    """The runs' names, comma-separated, for an error message."""
    return ", ".join(run_name(d) for d in resdirs)


# t0.py compare --posting: tables for a posting name no lab run (a
# directory of the lab's tree means nothing on the list; the lab's run
# README says which table came from where).
POSTING = {"on": False}


def runs_lines(resdirs):
    """The line(s) naming the runs a table comes from, one run per line
    after the first so that each stays within MESSAGE_WIDTH; with
    --posting, one line saying how they were counted instead."""
    if POSTING["on"]:
        boots = min(load(d)[0].get("rounds", 1) for d in resdirs)
        return ["  (QEMU TCG, x86_64, %d boot%s per kernel and spectre_v2= setting)"
                % (boots, "" if boots == 1 else "s")]
    names = [run_name(d) for d in resdirs]
    out = ["  (T0 run%s %s" % ("s" if len(names) > 1 else "", names[0])]
    out += ["   " + n for n in names[1:]]
    out[:-1] = [ln + "," for ln in out[:-1]]
    out[-1] += ")"
    return out


def lookups_only(resdirs, backends, cells, rows, labels):
    """The lookup table alone, for BACKENDS, with one line naming the runs:
    what a commit message quotes ([[include]] of a stored file)."""
    names = run_names(resdirs)
    out = ["  instructions / retpoline thunks per lookup"] + runs_lines(resdirs) + [""]
    table = lookup_rows(backends, cells, rows, labels)
    if not table:
        raise SystemExit("t0 compare: no cell of backend(s) %s in %s" % (",".join(backends), names))
    out += ["  " + line for line in render_table(["scenario", "spectre_v2"] + labels, table).split("\n")]
    return "\n".join(out) + "\n"


def widened(x, up, step=1):
    """X rounded outwards to a multiple of STEP (a Fraction): up for a
    range's max, down for its min."""
    return (math.ceil(x / step) if up else math.floor(x / step)) * step


def shown_range(text):
    """(lo, hi) of a count as compact() shows it: a range widened outwards
    to whole instructions (min rounded down, max up), a single count as
    it is."""
    lo, hi = parse_range(text)
    if lo == hi:
        return lo, hi
    return widened(lo, False), widened(hi, True)


def compact(text):
    """A count for a commit message's table: shown_range()."""
    lo, hi = shown_range(text)
    if lo == hi:
        return fmt(lo)
    return "%d..%d" % (lo, hi)


def compact_cell(r):
    return "-" if r is None else "%s / %s" % (compact(r["kernel_insns"]), r["indirect_thunks"])


def hides_gap(rs):
    """Whether ranges in whole instructions (compact()) make the first
    kernel's range and a later one's in the row RS look as if they
    overlapped when the counts do not (delta_verdict() proves the
    difference): the legend must then say that deltas are taken on the
    counts before rounding.  A tenth would show the gap, but the table
    would no longer fit a commit message."""
    a = rs[0]
    for b in rs[1:]:
        if a is None or b is None or delta_verdict(a, b)[2] is not None:
            continue
        alo, ahi = shown_range(a["kernel_insns"])
        blo, bhi = shown_range(b["kernel_insns"])
        if blo <= ahi and bhi >= alo:
            return True
    return False


def compact_signed(x, up, step=1):
    """widened() with its sign; STEP 1/10: one decimal."""
    n = widened(x, up, step)
    text = "%d" % abs(n) if step == 1 else "%.1f" % abs(n)
    return ("+" if n > 0 else "-" if n < 0 else "") + text


def compact_delta(a, b):
    """delta_text() in the units of compact(): a proven range to a tenth,
    widened outwards; an overlap marked "?", too few boots "(N boots)"."""
    if a is None or b is None:
        return "-"
    lo, hi, verdict = delta_verdict(a, b)
    if verdict is None:
        if lo == hi:
            return signed(lo)
        return "%s..%s" % (compact_signed(lo, False, Fraction(1, 10)), compact_signed(hi, True, Fraction(1, 10)))
    if verdict.startswith("same"):
        return "0" if verdict == "same" else "0 (%s)" % verdict[len("same in "):]
    span = signed(lo) if lo == hi else "%s..%s" % (compact_signed(lo, False), compact_signed(hi, True))
    why = verdict[len("not proven: "):]
    return "%s ?" % span if why == "overlap" else "%s (%s)" % (span, why)


def fit(lines):
    """LINES, refused if one is wider than a commit message allows."""
    wide = [ln for ln in lines if len(ln) > MESSAGE_WIDTH]
    if wide:
        raise SystemExit("t0 compare: %d line(s) wider than %d columns, too wide for a commit message"
                         " (fewer kernels or cells): %s" % (len(wide), MESSAGE_WIDTH, wide[0].strip()))
    return "\n".join(lines) + "\n"


def kernel_table(labels, table, legend):
    """The lines of TABLE (rows: scenario, spectre_v2, one column per kernel
    of LABELS, then each later kernel less the first), indented, and the
    LEGEND lines after it."""
    hdr = ["scenario", "spectre_v2"] + labels + ["delta" if len(labels) == 2 else "less %s" % labels[0]
                                                for lab in labels[1:]]
    return ["  " + line for line in render_table(hdr, table).split("\n")] + legend


def cells_only(resdirs, backends, cells, rows, labels):
    """Per packet, the cells of BACKENDS in every kernel and each later
    kernel less the first (delta_text: proven or not): what the commit
    message of one patch quotes, its kernel against the one before it.
    Ranges in whole instructions (compact()), lines within MESSAGE_WIDTH."""
    out = ["  instructions / retpoline thunks per packet"] + runs_lines(resdirs) + [""]
    table, rounded = [], False
    for c, m in cells:
        if parse_cell_id(c)["backend"] not in backends:
            continue
        rs = [rows.get((c, m, lab)) for lab in labels]
        rounded = rounded or hides_gap(rs)
        table.append([short_cell(c), m] + [compact_cell(r) for r in rs]
                     + [compact_delta(rs[0], r) for r in rs[1:]])
    if not table:
        names = run_names(resdirs)
        raise SystemExit("t0 compare: no cell of backend(s) %s in %s" % (",".join(backends), names))
    if rounded:
        legend = ["  (a range is min..max over the boots of a kernel, widened to whole",
                  "  instructions; a delta counts where the ranges before rounding,",
                  "  of at least %d boots each, do not overlap; \"?\": they overlap," % t0cells.MIN_BOOTS,
                  "  no difference proven)"]
    else:
        legend = ["  (a range is min..max over the boots of a kernel; a delta counts",
                  "  where the ranges of at least %d boots each do not overlap; \"?\":" % t0cells.MIN_BOOTS,
                  "  they overlap, no difference proven)"]
    return fit(out + kernel_table(labels, table, legend))


# Issue #26's target: a retpoline kernel with the series executes at most
# this many times the instructions per packet of the same kernel booted
# with spectre_v2=off (seed 002's goal, 106 cycles against 104).
RATIO_TARGET = Fraction(103, 100)


def ratio_text(ret, off):
    """RET's instructions over OFF's, worst case of the ranges (highest RET,
    lowest OFF), rounded up to three decimals: a ratio above RATIO_TARGET
    never prints as the target itself."""
    r = parse_range(ret["kernel_insns"])[1] / parse_range(off["kernel_insns"])[0]
    return "%.3f" % (Fraction(math.ceil(r * 1000), 1000))


def over_target_text(ret, off):
    """Instructions per packet RET executes beyond RATIO_TARGET times OFF's,
    worst case of the ranges (highest RET, lowest OFF), to a tenth: what is
    left to take out; negative: the margin under the target."""
    rhi = parse_range(ret["kernel_insns"])[1]
    olo = parse_range(off["kernel_insns"])[0]
    return compact_signed(rhi - RATIO_TARGET * olo, True, Fraction(1, 10))


def ratio_only(resdirs, backends, cells, rows, labels):
    """Per cell of BACKENDS and kernel: the instructions (and retpoline
    thunks) per packet with spectre_v2=retpoline, the instructions with
    =off, their ratio, and how far the retpoline count is above
    RATIO_TARGET times the off one.
    Lines within MESSAGE_WIDTH."""
    table = []
    for c in dict.fromkeys(c for c, _ in cells):
        if parse_cell_id(c)["backend"] not in backends:
            continue
        for lab in labels:
            ret, off = rows.get((c, "retpoline", lab)), rows.get((c, "off", lab))
            if ret is None or off is None:
                continue
            table.append([where_cell(c), lab, compact_cell(ret), compact(off["kernel_insns"]),
                          ratio_text(ret, off), over_target_text(ret, off)])
    if not table:
        names = run_names(resdirs)
        raise SystemExit("t0 compare: no cell of backend(s) %s counted with both spectre_v2=retpoline"
                         " and =off in %s" % (",".join(backends), names))
    target = "%.2fx" % RATIO_TARGET
    out = ["  retpoline against spectre_v2=off, instructions per packet"] + runs_lines(resdirs) + [""]
    hdr = ["scenario", "kernel", "retpoline", "off", "ratio", "over " + target]
    out += ["  " + line for line in render_table(hdr, table).split("\n")]
    out += ["  (retpoline: instructions / retpoline thunks; ratio and over %s:" % target,
            "  the highest retpoline and lowest off count of a range, rounded",
            "  up; over %s: retpoline less %s off, negative: under it)" % (target, target)]
    return fit(out)


def summary_only(resdirs, backends, cells, rows, labels):
    """A cover letter's one table: per cell of BACKENDS (the drop cells of
    other set sizes left out: they count what drop counts), the retpoline
    thunks and the instructions per packet with spectre_v2=retpoline and
    =off, first kernel ("before") and second ("after").  Exactly two
    kernels; lines within SUMMARY_WIDTH, no run names (the letter says
    where the runs are)."""
    if len(labels) != 2:
        raise SystemExit("t0 compare: --summary takes two kernels (these runs have %d: %s);"
                         " choose them with --kernels" % (len(labels), ", ".join(labels)))
    a, b = labels
    table = []
    for c in dict.fromkeys(c for c, _ in cells):
        cell = parse_cell_id(c)
        if cell["backend"] not in backends or (cell["backend"] == "drop" and cell["tag"]):
            continue
        ra, rb = rows.get((c, "retpoline", a)), rows.get((c, "retpoline", b))
        oa, ob = rows.get((c, "off", a)), rows.get((c, "off", b))
        if None in (ra, rb, oa, ob):
            raise SystemExit("t0 compare: --summary: %s is not counted with both spectre_v2=retpoline"
                             " and =off in both kernels" % short_cell(c))
        name = where_cell(c)
        table.append([SUMMARY_NAMES.get(name, name), "%s -> %s" % (ra["indirect_thunks"], rb["indirect_thunks"]),
                      compact(ra["kernel_insns"]), compact(rb["kernel_insns"]),
                      compact(oa["kernel_insns"]), compact(ob["kernel_insns"])])
    if not table:
        raise SystemExit("t0 compare: no cell of backend(s) %s in %s" % (",".join(backends), run_names(resdirs)))
    out = ["  Per packet, before (%s) -> after (%s): retpoline" % (a, b),
           "  thunks, and instructions with retpolines (ret) and with", "  spectre_v2=off (off)", ""]
    hdr = ["scenario", "thunks", "ret before", "ret after", "off before", "off after"]
    out += ["  " + line for line in render_table(hdr, table).split("\n")]
    out += ["  (a range is min..max over the boots of a kernel)"]
    wide = [ln for ln in out if len(ln) > SUMMARY_WIDTH]
    if wide:
        raise SystemExit("t0 compare: --summary: %d line(s) wider than %d columns: %s"
                         % (len(wide), SUMMARY_WIDTH, wide[0].strip()))
    return "\n".join(out) + "\n"


# A cover letter's lines: at most 80 columns (kernel/series/postings).
SUMMARY_WIDTH = 80
# The cells' names in --summary, as a reader of the list knows them.
SUMMARY_NAMES = {"ct": "conntrack + nft", "ctonly": "conntrack only", "ctbase": "netdev only",
                 "drop": "hook only", "nohook": "egress, no hook", "egress": "egress hook",
                 "dynset": "dynset update", "hash": "hash", "pipapo": "pipapo", "rbtree": "rbtree",
                 "rbtree 10k": "rbtree, 10k"}


# --where's short names of t0breakdown's categories, within MESSAGE_WIDTH.
WHERE_SHORT = {t0breakdown.EXPR: "disp", t0breakdown.SET: "set", t0breakdown.HOOK: "hook",
               t0breakdown.THUNKS: "thunk", t0breakdown.OTHER: "other"}


def where_cell(cid):
    """A cell's name in --where's table: its backend and set size tag."""
    c = parse_cell_id(cid)
    return c["backend"] + (" %s" % c["tag"].lstrip("-") if c["tag"] else "")


def where_only(resdirs, backends):
    """Retpoline less spectre_v2=off per packet, by t0breakdown's
    categories, for the cells of BACKENDS in every kernel of RESDIRS that
    was counted per function (t0.py run --per-function): where a patch
    took its instructions out, or put them.  Lines within MESSAGE_WIDTH."""
    table = []
    for d in resdirs:
        with open(os.path.join(d, "t0", "t0.json")) as f:
            t0 = json.load(f)
        for variant, cid, knob, ret, off in t0breakdown.pairs(t0):
            if knob == "1" or parse_cell_id(cid)["backend"] not in backends:
                continue
            c = t0breakdown.compare(ret, off)
            table.append((where_cell(cid), kernel_label(t0["run"], variant),
                          [t0breakdown.sfmt(c["total"][2])] +
                          [t0breakdown.sfmt(c["cats"][k]) for k in t0breakdown.CATEGORIES]))
    if not table:
        names = run_names(resdirs)
        raise SystemExit("t0 compare: no cell of backend(s) %s counted per function in %s"
                         % (",".join(backends), names))
    table.sort(key=lambda r: r[0])
    # a posting names no tool of the lab: "counted per function" says it
    out = ["  retpoline less spectre_v2=off, instructions per packet, by where",
           "  they are spent (counted per function)" if POSTING["on"] else
           "  they are spent (t0.py run --per-function)"] + runs_lines(resdirs) + [""]
    hdr = ["scenario", "kernel", "total"] + [WHERE_SHORT[k] for k in t0breakdown.CATEGORIES]
    out += ["  " + line for line in render_table(hdr, [[a, b] + c for a, b, c in table]).split("\n")]
    out += ["  (disp: expression dispatch, nft_do_chain() and nft_objref_eval();",
            "  set: the set lookup and dynset chains; hook: nf_hook_slow() to",
            "  the base chain's function; thunk: the retpoline thunks; means",
            "  over the boots of each kernel)"]
    return fit(out)


def function_row(r, names):
    """Row R's instructions per packet in the functions NAMES (summed), as
    a row of its own (kernel_insns: min..max over R's runs, boots: R's)
    that the delta functions take; None where R was not counted per
    function."""
    pf = r.get("per_function") if r else None
    if not pf:
        return None
    insns, funcs = t0breakdown.run_values(pf)
    per_run = [sum(funcs.get(n, [0] * len(insns))[i] for n in names) for i in range(len(insns))]
    lo, hi = min(per_run), max(per_run)
    return dict(kernel_insns=fmt_range(lo, hi), boots=r["boots"])


def function_cell(cid):
    """A cell's name in --function's table: a ruleset's cell by the
    ruleset's name alone (its cell without the ruleset runs no hook)."""
    c = parse_cell_id(cid)
    if c["type"] == "ruleset" and c["backend"] == "ruleset":
        return c["tag"].lstrip("-")
    return short_cell(cid)


def function_only(resdirs, names, cells, rows, labels):
    """Per packet, the instructions spent in the functions NAMES (summed:
    one loop that a patch moved into another function counts as one), in
    every kernel counted per function, and each later kernel less the
    first (proven or not, as the --cells table): what one function of a
    patch costs, in every cell.  Lines within MESSAGE_WIDTH."""
    table = []
    for c, m in cells:
        found = [function_row(rows.get((c, m, lab)), names) for lab in labels]
        # cells whose packets never ran the functions say nothing about them
        if all(f is None or f["kernel_insns"] == "0" for f in found):
            continue
        table.append([function_cell(c), m] + ["-" if f is None else compact(f["kernel_insns"]) for f in found]
                     + [compact_delta(found[0], f) for f in found[1:]])
    if not table:
        runs = run_names(resdirs)
        raise SystemExit("t0 compare: no run counted per function in %s" % runs)
    out = ["  instructions per packet in %s" % " + ".join("%s()" % n for n in names)] \
        + runs_lines(resdirs) + [""]
    return fit(out + kernel_table(labels, table, [
        "  (%s; a range is min..max over the boots of"
        % ("counted per function" if POSTING["on"] else "t0.py run --per-function"),
        "  a kernel; a delta counts where the ranges of at least %d boots" % t0cells.MIN_BOOTS,
        "  each do not overlap; \"?\": they overlap, no difference proven)"]))


def run_codes(runs):
    """{kernel label: {function: digest}} of the t0/code.json (t0/code.py) of
    RUNS, [(resdir, run)] as compare() loads them."""
    return {kernel_label(run, v): c for d, run in runs for v, c in t0code.load(d).items()}


def code_text(name, codes, labels):
    """Whether function NAME's code is the same in the two kernels LABELS:
    "same", "changed", "new", "gone", or "?" where a run has no code.json."""
    a, b = (codes.get(lab) for lab in labels)
    if a is None or b is None:
        return "?"
    if name not in a:
        return "new" if name in b else "?"
    if name not in b:
        return "gone"
    return "same" if a[name] == b[name] else "changed"


def mean_of(values):
    """The mean of a function's per-run counts, 0 where it never ran."""
    return sum(values, Fraction(0)) / len(values) if values else Fraction(0)


def attribute_cell(r0, r1, codes, labels):
    """(rows, same, other) of one cell: a row per function whose instructions
    per packet differ between rows R0 and R1, and the sums of the mean
    deltas in functions whose code is the same and in every other one."""
    _, f0 = t0breakdown.run_values(r0["per_function"])
    _, f1 = t0breakdown.run_values(r1["per_function"])
    out, same, other = [], Fraction(0), Fraction(0)
    for name in sorted(set(f0) | set(f1)):
        a, b = function_row(r0, [name]), function_row(r1, [name])
        mean = mean_of(f1.get(name)) - mean_of(f0.get(name))
        # the same mean and no proven difference: nothing to attribute
        if mean == 0 and delta_verdict(a, b)[2] is not None:
            continue
        code = code_text(name, codes, labels)
        if code == "same":
            same += mean
        else:
            other += mean
        out.append([name, compact(a["kernel_insns"]), compact(b["kernel_insns"]), compact_delta(a, b), code])
    return out, same, other


def attribute_only(resdirs, codes, backends, cells, rows, labels):
    """Per cell of BACKENDS, the functions whose instructions per packet
    differ between the two kernels LABELS, and whether each function's code
    differs (CODES: run_codes()): a delta in functions whose code is the same comes
    from data (addresses, allocation order), not from a changed line.  Lines
    within MESSAGE_WIDTH."""
    if len(labels) != 2:
        raise SystemExit("t0 compare: --attribute compares two kernels, these runs have %d (%s): pick two"
                         " with --kernels" % (len(labels), ", ".join(repr(k) for k in labels)))
    out = ["  %s less %s, per function, where the instructions per packet" % (labels[1], labels[0]),
           "  differ"] + runs_lines(resdirs)
    found = False
    for c, m in cells:
        if parse_cell_id(c)["backend"] not in backends:
            continue
        r0, r1 = (rows.get((c, m, lab)) for lab in labels)
        if not (r0 and r1 and r0.get("per_function") and r1.get("per_function")):
            continue
        found = True
        table, same, other = attribute_cell(r0, r1, codes, labels)
        out += ["", "  %s, %s: %s (same code %s, elsewhere %s)"
                % (short_cell(c), m, compact_delta(r0, r1), signed_mean(same), signed_mean(other))]
        if table:
            out += ["  " + line for line in render_table(["function", labels[0], labels[1], "delta", "code"],
                                                         table).split("\n")]
    if not found:
        runs = run_names(resdirs)
        raise SystemExit("t0 compare: no cell of backend(s) %s counted per function in both kernels in %s"
                         % (",".join(backends), runs))
    # "t0code.py": t0/code.py's name before t0/, as the stored commit
    # messages and reports print it (they render again byte for byte)
    return fit(out + [
        "",
        "  (t0.py run --per-function; a range is min..max over the boots of",
        "  a kernel, \"?\" where two ranges overlap; code: whether the",
        "  function's instructions are the same in both kernels (t0code.py,",
        "  t0/code.json), \"?\" for a run without it; the cell's delta is",
        "  split into the functions whose code is the same and the others,",
        "  as sums of the means over the boots)"])


def signed_mean(x):
    """A sum of means, to a tenth."""
    if x == int(x):
        return signed(x)
    return ("+" if x > 0 else "-") + "%.1f" % abs(float(x))


def compare(resdirs, lookups=None, backends=None, where=None, functions=None, kernels=None, attribute=None,
            ratio=None, summary=None):
    """The side-by-side text of the runs in RESDIRS (LOOKUPS: only the
    lookup table of those backends; BACKENDS: only the per-packet table of
    those cells, with the deltas; WHERE: where_only(); FUNCTIONS:
    function_only(); KERNELS: only the kernels of these labels, in this
    order, e.g. one of a run's two; RATIO: ratio_only())."""
    runs, rows, labels = [], {}, []
    for d in resdirs:
        run, r = load(d)
        runs.append((d, run))
        rows.update(r)
        for key in r:
            if key[2] not in labels:
                labels.append(key[2])
    if kernels:
        missing = [k for k in kernels if k not in labels]
        if missing:
            raise SystemExit("t0 compare: no kernel labelled %s in these runs (they have: %s)"
                             % (", ".join(repr(k) for k in missing), ", ".join(repr(k) for k in labels)))
        labels = list(kernels)
        rows = {k: v for k, v in rows.items() if k[2] in labels}
    cells = sorted({(k[0], k[1]) for k in rows},
                   key=lambda cm: (parse_cell_id(cm[0])["backend"], cm[0], cm[1]))
    if lookups:
        return lookups_only(resdirs, lookups, cells, rows, labels)
    if backends:
        return cells_only(resdirs, backends, cells, rows, labels)
    if where:
        return where_only(resdirs, where)
    if functions:
        return function_only(resdirs, functions, cells, rows, labels)
    if attribute:
        return attribute_only(resdirs, run_codes(runs), attribute, cells, rows, labels)
    if ratio:
        return ratio_only(resdirs, ratio, cells, rows, labels)
    if summary:
        return summary_only(resdirs, summary, cells, rows, labels)
    out = ["T0 side by side: instructions / retpoline thunks per packet (knob 0 on patched kernels)", ""]
    for d, run in runs:
        out.append("  %s: %s, guest nft %s, %d boot(s) x %d pass(es)"
                   % (run_name(d), run["base_version"],
                      run.get("nft", "host"), run["rounds"], run.get("reps", 1)))
    out.append("")
    hdr = ["scenario", "spectre_v2"] + labels
    table = [[short_cell(c), m] + [cell_text(rows.get((c, m, lab))) for lab in labels] for c, m in cells]
    out.append(render_table(hdr, table))
    out += ["", "The lookup alone (its cell less the drop cell of its group): instructions / thunks", ""]
    out.append(render_table(hdr, lookup_rows(LOOKUP_BACKENDS, cells, rows, labels)))
    if len(labels) > 1:
        out += ["", "Instructions per packet against %s; a delta counts only where the two ranges do not overlap"
                % labels[0], "and each is the min..max of at least %d boots; every other one is not proven:"
                % t0cells.MIN_BOOTS, ""]
        out.append(render_table(["scenario", "spectre_v2"] + ["%s less %s" % (lab, labels[0]) for lab in labels[1:]],
                                delta_rows(cells, rows, labels)))
    return "\n".join(out) + "\n"


def main(args):
    POSTING["on"] = args.posting
    lookups = args.lookups.split(",") if args.lookups else None
    for b in lookups or ():
        if b not in LOOKUP_BACKENDS:
            raise SystemExit("t0 compare: --lookups takes %s, not '%s'" % (",".join(LOOKUP_BACKENDS), b))
    if sum(1 for a in (lookups, args.cells, args.where, args.function, args.attribute, args.ratio,
                       args.summary) if a) > 1:
        raise SystemExit("t0 compare: --lookups, --cells, --where, --function, --attribute, --ratio and"
                         " --summary are different tables: pass one")
    text = compare(args.runs, lookups, args.cells.split(",") if args.cells else None,
                   args.where.split(",") if args.where else None,
                   args.function.split(",") if args.function else None,
                   args.kernels.split(",") if args.kernels else None,
                   args.attribute.split(",") if args.attribute else None,
                   args.ratio.split(",") if args.ratio else None,
                   args.summary.split(",") if args.summary else None)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    print(text, end="")
    return 0
