# SPDX-License-Identifier: GPL-2.0
"""T0 per function (t0.py run --per-function): where a cell's instructions
go, and what a retpoline kernel executes more than the same kernel booted
with spectre_v2=off.

The pktcount plugin (funcs=PATH) attributes every instruction it counts
inside a region to the function that holds it (the kernel's text symbols,
symbols.parse_functions(); "(none)": an address in no symbol), exactly as
kernel_insns counts them.  Per packet is the same slope as for the totals
(t0/cells.py per_packet()), per run (boot and pass); a row keeps every
run's figure, exactly (Fractions as strings), so that validate can check
from t0.json alone that each run's functions add up to its instructions.

Retpoline against off: per function and per category (CATEGORIES), the
difference of the means over the runs of each command line (means, so
that the categories add up to the total difference exactly even in a
cell whose count moves between boots; every run's figure stays in
t0.json, the function table shows min..max).

Used by t0/cells.py: analyse() (row_data), render() (render), validate()
(check_sums)."""
import textwrap
from fractions import Fraction

from ..model import parse_cell_id
from ..render import render_table
from .symbols import THUNK_RE
from .text import fmt, fmt_range, short_cell

# The categories of the report, in its order.  A function's category says
# where in the packet path its instructions are spent; the difference
# between retpoline and spectre_v2=off in a category is what that part of
# the path costs once the thunks are gone.
EXPR, SET, HOOK, THUNKS, OTHER = ("expression dispatch", "set lookup chain", "hook entry", "thunks", "other")
CATEGORIES = (EXPR, SET, HOOK, THUNKS, OTHER)

# Function -> category: the one place.  Where each compare chain is was
# checked with objdump -d of the 6.12 patched x86_64 retpoline kernel as
# built (kernel/builder/build x86_64 patched retpoline, gcc 12.2, stamp
# tree:27c4b834f8bd... b71ce6ebb2e0): every chain is inlined into the
# function named here, none is a function of its own, and each sits
# behind the jump of a static key (nf_skip_indirect_calls(), enabled at
# boot when the CPU needs no retpolines: with spectre_v2=off the code
# jumps over the chain to the plain indirect call).
FUNC_CATEGORY = {
    # nf_tables_core.c: expr_call_ops_eval(), the compare chain over the
    # expressions' eval functions, inlined into nft_do_chain(): 14 compares
    # (nft_payload_eval, nft_cmp_eval, nft_counter_eval, nft_meta_get_eval,
    # nft_lookup_eval, nft_ct_get_fast_eval, nft_range_eval,
    # nft_immediate_eval, nft_byteorder_eval, nft_dynset_eval,
    # nft_rt_get_eval, nft_bitwise_eval, nft_objref_eval,
    # nft_objref_map_eval) behind the static key's jump at
    # nft_do_chain+0xd3.  The fast paths tested before it (the ops of
    # nft_cmp_fast, nft_cmp16_fast, nft_bitwise_fast, nft_payload_fast) do
    # not depend on the mitigation, nor does the rest of the rule walk.
    "nft_do_chain": EXPR,
    # nft_objref.c: the objref expression's call of its object's eval
    # (patch 3: compare with nft_counter_obj_eval, then a direct jmp),
    # inlined into nft_objref_eval(): an expression's dispatch to its
    # object.
    "nft_objref_eval": EXPR,
    # nft_lookup.c: the set backends' compare chain (patch 1:
    # __nft_set_do_lookup(), 7 compares, as compiled: the ops of
    # hash_fast, bitmap, rhash, hash, rbtree, pipapo_avx2, pipapo) is
    # inlined into nft_set_do_lookup(),
    # which nft_lookup_eval() calls; nft_lookup_eval() itself is the
    # expression around it.
    "nft_set_do_lookup": SET,
    "nft_lookup_eval": SET,
    # The same chain where a kernel keeps it out of line (7.3 names it so).
    "__nft_set_do_lookup": SET,
    # nft_dynset.c: the update chain of patch 2 (compare with
    # nft_rhash_update, then a direct call; the delete chain the same
    # with nft_rhash_delete), inlined into nft_dynset_eval(): the set
    # update's counterpart of the lookup chain.
    "nft_dynset_eval": SET,
    # core.c: nf_hook_slow() walks the hook entries; patch 4's static call
    # (nf_hook_entry_hookfn(), inlined there) is a call of the trampoline
    # __SCT__nf_hook_nft in the image, which x86 rewrites at boot into a
    # direct call of nft_do_chain_hook() (the trampoline itself is not
    # executed then); nft_do_chain_hook()'s compare chain over the base
    # chains' hook functions jumps to nft_do_chain_netdev() (ipv4, ...).
    # With spectre_v2=off the static branch takes the indirect call to
    # the hook function instead.  nf_hook_nft_entry() is the entries'
    # hook function while nf_tables is installed in the static call: the
    # lab knob's forced indirect call reaches it, and it jumps through
    # the static call.  7.3's patch 5 tests no key per entry: while
    # nf_tables is installed the nf_hook_slow static call reaches
    # nf_hook_slow_nft(), nf_hook_slow()'s loop with the compare, and
    # nf_hook_slow() otherwise.
    "nf_hook_slow": HOOK,
    "nf_hook_slow_nft": HOOK,
    "nf_hook_entry_hookfn": HOOK,
    "nf_hook_nft_entry": HOOK,
    "__SCT__nf_hook_nft": HOOK,
    "nft_do_chain_hook": HOOK,
    "nft_do_chain_netdev": HOOK,
    "nft_do_chain_ipv4": HOOK,
    "nft_do_chain_ipv6": HOOK,
    "nft_do_chain_inet": HOOK,
    "nft_do_chain_inet_ingress": HOOK,
    "nft_do_chain_arp": HOOK,
    "nft_do_chain_bridge": HOOK,
}
# How many of a cell's functions the report lists by count.
TOP = 8


def category(name):
    """The report's category of function NAME."""
    if name in FUNC_CATEGORY:
        return FUNC_CATEGORY[name]
    if THUNK_RE.match(name):
        return THUNKS
    return OTHER


def one_or_list(values):
    """A row's figure: one string when every run counted the same, else
    one per run."""
    return values[0] if len(set(values)) == 1 else values


def as_list(value, n):
    return [value] * n if isinstance(value, str) else list(value)


def row_data(runs, boots):
    """The per-function data of a row from its runs (t0/cells.py
    per_packet() dicts, each with "funcs") and each run's boot: None when
    a run was not counted per function."""
    if not runs or not all("funcs" in p for p in runs):
        return None
    names = sorted({k for p in runs for k, v in p["funcs"].items() if v})
    return dict(boots=list(boots), insns=one_or_list([str(p["kernel_insns"]) for p in runs]),
                funcs={k: one_or_list([str(p["funcs"].get(k, 0)) for p in runs]) for k in names})


def run_values(pf):
    """(insns, {function: [Fraction per run]}) of a row's data."""
    n = len(pf["boots"])
    insns = [Fraction(x) for x in as_list(pf["insns"], n)]
    return insns, {k: [Fraction(x) for x in as_list(v, n)] for k, v in pf["funcs"].items()}


def sum_errors(row):
    """The runs of ROW whose functions do not add up to its instructions
    per packet exactly, or whose instructions are not the row's: [text]."""
    pf = row["per_function"]
    insns, funcs = run_values(pf)
    out = []
    for i, total in enumerate(insns):
        got = sum((v[i] for v in funcs.values()), Fraction(0))
        if got != total:
            out.append("boot %s run %d: functions add up to %s, instructions %s"
                       % (pf["boots"][i], i + 1, fmt(got), fmt(total)))
    values = {}
    for x in insns:
        values[fmt(x)] = values.get(fmt(x), 0) + 1
    if values != row.get("insns_values"):
        out.append("runs counted %s, the row %s" % (values, row.get("insns_values")))
    return out


def mean(xs):
    return sum(xs, Fraction(0)) / len(xs)


def sfmt(x):
    """A signed difference as printed."""
    if x == 0:
        return "0"
    return ("+" if x > 0 else "-") + fmt(abs(x))


def rfmt(xs):
    """min..max of a function's runs."""
    return fmt_range(min(xs), max(xs))


def compare(ret, off):
    """Retpoline row RET against off row OFF (rows with per_function):
    dict(total=(ret, off, diff), cats={category: diff}, funcs=[(name,
    category, ret runs, off runs, diff)]), differences of means."""
    ri, rf = run_values(ret["per_function"])
    oi, of = run_values(off["per_function"])
    zero_r, zero_o = [Fraction(0)] * len(ri), [Fraction(0)] * len(oi)
    funcs = []
    for name in sorted(set(rf) | set(of)):
        r, o = rf.get(name, zero_r), of.get(name, zero_o)
        funcs.append((name, category(name), r, o, mean(r) - mean(o)))
    cats = {c: sum((f[4] for f in funcs if f[1] == c), Fraction(0)) for c in CATEGORIES}
    return dict(total=(ri, oi, mean(ri) - mean(oi)), cats=cats, funcs=funcs)


def pairs(t0):
    """[(variant, cell, knob, retpoline row, off row)] of the rows with
    per-function data, in the report's order."""
    rows = {}
    for r in t0["rows"]:
        if r.get("per_function"):
            rows.setdefault((r["variant"], r["cell"], r["knob"]), {})[r["mitigation"]] = r
    out = []
    for key in sorted(rows, key=lambda k: (parse_cell_id(k[1])["backend"], k[1], k[0], k[2])):
        m = rows[key]
        if "retpoline" in m and "off" in m:
            out.append(key + (m["retpoline"], m["off"]))
    return out


def category_line(c):
    """'expression dispatch: +X, set lookup chain: +Y, ...' of compare() C."""
    return ", ".join("%s: %s" % (k, sfmt(c["cats"][k])) for k in CATEGORIES)


def render(t0):
    """The report's section: [lines], empty when no row was counted per
    function."""
    ps = pairs(t0)
    if not ps:
        return []
    # "t0breakdown.py": this module's name before t0/, as the stored
    # reports print it (docs/results/ renders again byte for byte)
    out = ["", "Where the instructions go (t0.py run --per-function): retpoline less spectre_v2=off, per packet,",
           "  by category (t0breakdown.py FUNC_CATEGORY: the function each compare chain is inlined into);",
           "  differences of the means over every boot and pass, so that the categories add up to diff exactly;",
           "  a function's own count: min..max over them",
           ""]
    hdr = ["scenario", "kernel", "knob", "retpoline", "off", "diff"] + list(CATEGORIES)
    rows = []
    comps = []
    for variant, cid, knob, ret, off in ps:
        c = compare(ret, off)
        comps.append((variant, cid, knob, c))
        ri, oi, d = c["total"]
        rows.append([short_cell(cid), variant, knob, rfmt(ri), rfmt(oi), sfmt(d)] +
                    [sfmt(c["cats"][k]) for k in CATEGORIES])
    out.append(render_table(hdr, rows))
    for variant, cid, knob, c in comps:
        ri, oi, d = c["total"]
        out += ["", "%s, %s, knob %s: retpoline %s, off %s, %s = %s" % (
            short_cell(cid), variant, knob, rfmt(ri), rfmt(oi), sfmt(d), category_line(c))]
        diff = sorted((f for f in c["funcs"] if f[4] != 0), key=lambda f: (-abs(f[4]), f[0]))
        if diff:
            table = render_table(["function", "category", "retpoline", "off", "diff"],
                                 [[f[0], f[1], rfmt(f[2]), rfmt(f[3]), sfmt(f[4])] for f in diff])
            out += ["  " + line for line in table.split("\n")]
        else:
            out.append("  no function differs")
        top = sorted((f for f in c["funcs"] if mean(f[2])), key=lambda f: (-mean(f[2]), f[0]))[:TOP]
        out += textwrap.wrap("most instructions (retpoline): " + ", ".join("%s %s" % (f[0], rfmt(f[2])) for f in top),
                             width=110, initial_indent="  ", subsequent_indent="    ")
    return out
