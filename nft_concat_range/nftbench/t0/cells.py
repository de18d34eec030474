# SPDX-License-Identifier: GPL-2.0
"""T0: what one packet costs, counted exactly (x86_64 under QEMU TCG).

Theory of operation
-------------------
Timings on shared VMs move by 10-20 %, so the per-lookup effects of the
series (a few percent of a packet) mostly read "no difference proven".
Counts do not move: QEMU's TCG translates every instruction the real x86_64
lab kernel executes, and our TCG plugin (tcg/pktcount.c) counts what the
kernel does for one packet: inside pktgen's call of netif_receive_skb()
(ingress) or __dev_queue_xmit() (egress), interrupts excluded,

  * instructions;
  * executions of each retpoline thunk (__x86_indirect_thunk_<reg>) and of
    the return thunks, found in the kernel's own symbol table;
  * indirect calls and jumps outside the thunks;
  * calls of the functions the series is about (nft_do_chain*, each set
    backend's lookup/update/delete, nf_hook_slow, __dev_queue_xmit, the
    expression evals on the path).

The guest runs the suite's own scenarios (guest/run-plan) with pktgen
sending an exact number of packets (NFTB_COUNTS: a warm-up, then N1 and
N2).  The plugin writes every counter whenever the guest reads a pktgen
device file, which run-plan does after each run, and counts the packets
(regions) itself, so each run's share is known.  Per packet is the slope
between the two runs of a cell:

    per packet = (count(N2 packets) - count(N1 packets)) / (N2 - N1)

so what a run costs once (its first packet, the dynset elements the warm-up
inserted) cancels.  QEMU runs with -icount, so virtual time follows the
instruction count and nothing jiffies-driven on the packet path depends on
the host's speed.  "Exact" is checked, not assumed: every cell runs in
several boots (--rounds, at least MIN_BOOTS) and passes (--reps), and
`validate` fails unless all of them count the same thunks, branches and
calls, and instructions within INSNS_SPREAD_MAX of each other.  A plan
whose data differ between boots is a plan to fix (the hash cell's set,
see PROBE_TAG), not a spread to excuse; what is not fixed yet (RANGED) is
reported as min..max across the boots, each boot's figure kept, and a
delta against it counts only where the ranges do not overlap (t0.py
compare).  One boot proves nothing about the next.

Boots: the x86_64 baseline and patched retpoline kernels, each with
spectre_v2=retpoline (the thunks stay) and spectre_v2=off (the CPU does not
need them: x86 rewrites the thunk calls into plain indirect calls and patch
1's static key skips the direct-call chains); on the patched kernel every
cell runs with the force-indirect knob at 0 and at 1.

With t0.py run --per-function the plugin also counts the instructions per
kernel function; t0/breakdown.py turns them into the report's "where the
instructions go" (retpoline against off, per function and category), and
validate checks that they add up to each run's instructions exactly.

This module: T0's cells, plan, analysis, text and checks; t0/run.py boots
the kernels.  Results in DIR/t0/.
"""
import argparse
import json
import os
import textwrap
from fractions import Fraction

from tap import Tap, done  # lib/tap.py

from .. import guestlog
from ..files import read_json, write
from ..generators import (CT_HOOKS, CT_PGOPTS, element, entry_bounds, gen_dynset_rules, gen_dynset_sets,
                          gen_ingress_table, gen_sets, packet, set_defs)
from ..model import BACKENDS, DEV, DYNSET_SRC, TYPES, cell, parse_cell_id
from ..plans import cell_line, group_line, rules_file, table_lines
from ..render import render_table
from . import breakdown as t0breakdown, code as t0code, ruleset as t0ruleset
from .text import CT_LABELS, fmt, fmt_range, parse_range, short_cell

SCHEMA = "nftlab-t0/2"
# t0.json before the per-boot figures (rendered as they were then)
SCHEMA_V1 = "nftlab-t0/1"

# Counted runs per cell: a warm-up, then the two whose difference is the
# slope.  Multiples of the dynset scenario's 1000 sources, so that every
# source is updated equally often in each run.
COUNTS = (1000, 1000, 3000)
MITIGATIONS = ("retpoline", "off")
QUICK_ENTRIES = 10
# The larger rbtree set, and the tag of its cells.
LARGE_ENTRIES = 10000
LARGE_TAG = "-10k"
# Instructions per packet may move by one or two between runs (data
# placement); more than this means the plan lets the data differ between
# runs, or the counting is broken: `validate` fails it, unless the cell is
# one of RANGED, whose spread is measured instead (min..max over at least
# MIN_BOOTS boots; t0.py compare counts a delta against such a cell only
# where the ranges do not overlap).  The thunks, branches and calls must
# be the same in every run of every cell.
INSNS_SPREAD_MAX = 2
MIN_BOOTS = 3
# The conntrack cells move even between passes of one boot (by up to 218
# instructions per packet in the v4 run): cause not established, measured.
# So does the dynset cell, by 2.63 across five boots of the 6.12 baseline
# (docs/results/t0-6.12-seeds-20261202T143634Z; its two passes in a boot differ
# by 1.00): more than its rhash set's collisions predict (about 4 pairs
# among 1000 keys in 131072 buckets, 0.04 per pair), cause not
# established, measured.
RANGED = ("ct", "ctonly", "dynset")
# An rhash set (the hash cell's) seeds its hash per bucket table at random
# (lib/rhashtable.c: bucket_table_alloc()) and a rehash moves the elements
# tail first into the new table's buckets.  In the selftest's 1001-element
# set the packet's key thus sits at the head of its bucket's chain in some
# sets and behind another element in others, and every element in front of
# it is one more trip through __rhashtable_lookup()'s loop and
# nft_rhash_cmp() (no thunk: the params are constant).  The hash cell's set
# therefore holds the packet's key alone, a one-element chain whatever the
# seed.  --seed-probe N adds N groups per boot that each create the
# 1001-element set anew and look the key up in it (the PROBE_TAG cells,
# RANGED too): the spread the seed causes, per set.
PROBE_TAG = "-1k"


def ranged(cid):
    """Whether cell CID's instructions are measured as a range across
    boots rather than required to be the same (RANGED, PROBE_TAG, and a
    ruleset of the user's: t0/ruleset.py)."""
    c = parse_cell_id(cid)
    return c["backend"] in RANGED or c["tag"] == PROBE_TAG or c["type"] == "ruleset"


def scenarios(variant, quick=False, knob=None, only=None, probe=0, rulesets=None):
    """[(group dict, [cells])] for one kernel variant.  KNOB: whether its
    kernel has the lab knob (6.12's patched kernels; None: the variant is
    "patched", as in the runs before a base without the knob existed).
    ONLY: the cell backends to keep (None: all); groups left without a
    cell are dropped.  PROBE: that many groups with a fresh 1001-element
    hash set each (PROBE_TAG).  RULESETS (t0ruleset.load_all(), or as
    run.json stores them): these instead of the suite's cells, the kernel
    as booted (knob -)."""
    if rulesets:
        return t0ruleset.scenarios(rulesets)
    groups = all_scenarios(variant, quick, knob, probe)
    if only is None:
        return groups
    out = []
    for g, cells in groups:
        cells = [c for c in cells if c["backend"] in only]
        if cells:
            out.append((g, cells))
    return out


def all_scenarios(variant, quick, knob, probe):
    if knob is None:
        knob = variant == "patched"
    knobs = ("0", "1") if knob else ("-",)
    backends = tuple(BACKENDS) if not quick else ("hash",)
    ing = []
    for k in knobs:
        # Counts need no amplification: one lookup rule, against the drop
        # cell, is one lookup exactly.
        ing.append(cell("T0", "net_port", "drop", 0, k))
        ing += [cell("T0", "net_port", b, 1, k) for b in backends]
    egress = [cell("T0", "net_port", "nohook", 0, "-"), cell("T0", "net_port", "egress", 1, "-")]
    if quick:
        egress = egress[1:]
    # The rbtree backend's lookup grows with the set (log2 N probes in
    # 7.3's array): its own group with a larger set ("-10k"; the main
    # group's sets hold entries_for(None) = the type's 1000).
    large = [cell("T0", "net_port", b, n, k, LARGE_TAG) for k in knobs for b, n in (("drop", 0), ("rbtree", 1))]
    dyn = [cell("T0", "dynset", "dynset", 1, k) for k in knobs]
    groups = [(dict(gid="T0-net_port", mode="ingress", type="net_port"), ing),
              (dict(gid="T0-egress", mode="egress", type="net_port"), egress),
              (dict(gid="T0-dynset", mode="ingress", type="dynset"), dyn)]
    if not quick:
        groups.insert(1, (dict(gid="T0-net_port" + LARGE_TAG, mode="ingress", type="net_port",
                               entries=LARGE_ENTRIES), large))
    # What hooks that are not nf_tables chains pay for the hook entry's
    # direct call (generators.CT_HOOKS): conntrack's defrag and conntrack
    # hooks alone at prerouting ("ctonly", less "ctbase": the netdev chain
    # and the IP layer without them), and in front of an nf_tables
    # prerouting chain ("ct").
    if not quick:
        groups.append((dict(gid="T0-ct", mode="ingress", type="ct"),
                       [cell("T0", "ct", b, 1, k) for k in knobs for b in CT_HOOKS]))
    # One pass each (pass number = the probe's): the set is what differs.
    for i in range(1, probe + 1):
        groups.append((dict(gid="T0-seed%d" % i, mode="ingress", type="net_port", entries=None, probe=i),
                       [cell("T0", "net_port", "hash", 1, k, PROBE_TAG) for k in knobs]))
    return groups


def hash_alone(defs, tdef, entries):
    """DEFS (set_defs()) with the hash backend's set reduced to the test
    packet's key: its lookup then walks a one-element bucket chain whatever
    the rhashtable's random seed (see PROBE_TAG)."""
    _, v = entry_bounds(tdef, entries)
    hset = BACKENDS["hash"].set
    key = element(tdef, hset, v, v + 1)
    out = []
    for name, key_type, interval, elems in defs:
        if name == hset:
            if key not in elems:
                raise SystemExit("t0: the test packet's key %s is not in set %s" % (key, name))
            elems = [key]
        out.append((name, key_type, interval, elems))
    return out


def cell_backends(text):
    """t0.py run --cells: the comma-separated backends, each one T0 has."""
    names = {c["backend"] for v in ("baseline", "patched") for _, cells in scenarios(v) for c in cells}
    only = text.split(",")
    wrong = [b for b in only if b not in names]
    if wrong:
        raise argparse.ArgumentTypeError("not a T0 cell backend: %s (T0 has %s)"
                                         % (",".join(wrong), ",".join(sorted(names))))
    return text


def write_plan(plandir, variant, quick, reps=1, dev=DEV, knob=None, only=None, probe=0, rulesets=None):
    """The plan in guest/run-plan's format, built from the suite's
    generators (KNOB, ONLY, PROBE, RULESETS as for scenarios())."""
    os.makedirs(plandir, exist_ok=True)
    tdef = TYPES["net_port"]
    # quick: 10 entries per set instead of 1000: loading them under TCG
    # dominates a quick boot, and what is counted stays exact either way.
    entries = QUICK_ENTRIES if quick else None
    lines = ["# nftlab T0 plan: %s" % variant] + table_lines()
    ncells = 0
    for g, cells in scenarios(variant, quick, knob, only, probe, rulesets):
        setsf, extra = "-", "-"
        n = g.get("entries", entries)
        p = packet(tdef, n)
        if g["type"] == "ruleset":
            p, extra = t0ruleset.group_packet(g["ruleset"]["packets"])
            setsf, rulesf = t0ruleset.write_group_files(plandir, g)
        elif g.get("probe"):
            # the selftest's hash set, as it is: created anew by each group
            setsf = "sets-net_port-probe.nft"
            defs = [d for d in set_defs(tdef, n) if d[0] == BACKENDS["hash"].set]
            write(os.path.join(plandir, setsf), gen_sets(defs, dev))
        elif g["type"] == "net_port" and g["mode"] == "ingress":
            setsf = "sets-net_port%s.nft" % ("" if n == entries else "-%d" % n)
            defs = hash_alone(set_defs(tdef, n), tdef, n)
            if n != entries or only is not None:
                # only the sets this group's cells look up (--cells: no
                # 1001-element rbtree and pipapo sets to load for nothing)
                used = {BACKENDS[c["backend"]].set for c in cells if c["backend"] in BACKENDS}
                defs = [d for d in defs if d[0] in used]
            write(os.path.join(plandir, setsf), gen_sets(defs, dev))
        elif g["type"] == "dynset":
            setsf = "sets-dynset.nft"
            write(os.path.join(plandir, setsf), gen_dynset_sets(dev))
            # a new skb per packet (burst 1), sources cycling over the dynset's addresses
            extra = "burst 1;" + DYNSET_SRC
        elif g["type"] == "ct":
            setsf = "sets-ct.nft"
            write(os.path.join(plandir, setsf), gen_ingress_table(dev))
            extra = CT_PGOPTS
        lines.append(group_line(g, p, setsf, extra))
        for c in cells:
            if g["type"] == "ruleset":
                c["rules"] = rulesf
            elif c["backend"] == "dynset":
                # T0's dynset cell is T6's update cell
                c["rules"] = "rules-dynset.nft"
                write(os.path.join(plandir, c["rules"]), gen_dynset_rules("update"))
            else:
                c["rules"] = rules_file(plandir, tdef, c, dev)
        # REPS passes over the group's cells: each pass must count the same.
        # A probe group is one pass, numbered after its probe.
        for rep in ([g["probe"]] if g.get("probe") else range(1, reps + 1)):
            for c in cells:
                lines.append(cell_line(g, c, rep))
                ncells += 1
    write(os.path.join(plandir, "plan.tsv"), "\n".join(lines) + "\n")
    return ncells


# --------------------------------------------------------------------------
# Analysis: snapshots -> per-packet counts.
# --------------------------------------------------------------------------
FIXED = ("kernel_insns", "indirect_calls", "indirect_jumps")


def runs_from_snapshots(snaps):
    """One dict per interval between consecutive snapshots in which packets
    went through a region: packets and every counter's region part."""
    runs = []
    for a, b in zip(snaps, snaps[1:]):
        dp = b["counters"]["packets"][1] - a["counters"]["packets"][1]
        if not dp:
            continue
        runs.append(dict(packets=dp, leaves=b["counters"]["leaves"][0] - a["counters"]["leaves"][0],
                         fixed={k: b["counters"][k][1] - a["counters"][k][1] for k in FIXED},
                         calls={k: v[1] - a["calls"].get(k, [0, 0])[1] for k, v in b["calls"].items()}))
        if "funcs" in b:
            # --per-function: instructions in regions per function (only
            # the functions that ran in one are listed)
            fa = a.get("funcs", {})
            runs[-1]["funcs"] = {k: b["funcs"].get(k, 0) - fa.get(k, 0) for k in set(fa) | set(b["funcs"])}
    return runs


def per_packet(r1, r2):
    """Slope of every counter between two runs (Fractions)."""
    dn = r2["packets"] - r1["packets"]
    out = {k: Fraction(r2["fixed"][k] - r1["fixed"][k], dn) for k in FIXED}
    out["calls"] = {k: Fraction(r2["calls"][k] - r1["calls"].get(k, 0), dn) for k in r2["calls"]}
    if "funcs" in r1 and "funcs" in r2:
        f1, f2 = r1["funcs"], r2["funcs"]
        out["funcs"] = {k: Fraction(f2.get(k, 0) - f1.get(k, 0), dn) for k in set(f1) | set(f2)}
    return out


def analyse_boot(bdir):
    """{cell: [per-packet dict of each rep]} of one boot, or an error string."""
    info = json.load(open(os.path.join(bdir, "boot.json")))
    cp = os.path.join(bdir, "counts.jsonl")
    if info["status"] != 0:
        return info, "guest exited %d (console.log)" % info["status"]
    samples = guestlog.read_out(os.path.join(bdir, "out"), os.path.basename(bdir))["samples"]
    if not (samples and os.path.isfile(cp)):
        return info, "no samples or no counts.jsonl"
    bad = [s for s in samples if not s["valid"]]
    if bad:
        return info, "invalid samples: " + "; ".join("%s: %s" % (s["cell"], s["reason"]) for s in bad[:5])
    snaps = [json.loads(line) for line in open(cp) if line.strip()]
    runs = runs_from_snapshots(snaps)
    if len(runs) != len(samples):
        return info, "%d counted pktgen runs for %d samples" % (len(runs), len(samples))
    wrong = [(s["cell"], s["sofar"], r["packets"]) for s, r in zip(samples, runs) if s["sofar"] != r["packets"]]
    if wrong:
        return info, "packets counted in regions differ from pktgen's: %s" % wrong[:3]
    open_ = [(s["cell"], r["packets"], r["leaves"]) for s, r in zip(samples, runs) if r["leaves"] != r["packets"]]
    if open_:
        return info, "regions opened and closed differ (cell, opened, closed): %s" % open_[:3]
    counts = info["counts"]
    cells, i = {}, 0
    while i < len(samples):
        cid = samples[i]["cell"]
        group = samples[i:i + len(counts)]
        if [s["cell"] for s in group] != [cid] * len(counts) or \
                [s["sofar"] for s in group] != counts:
            return info, "cell %s: runs do not follow the counts %s" % (cid, counts)
        pp = per_packet(runs[i + len(counts) - 2], runs[i + len(counts) - 1])
        pp["knob"] = samples[i]["knob_req"]
        cells.setdefault(cid, []).append(pp)
        i += len(counts)
    return info, cells


def thunk_split(calls, syms_kind):
    ind = sum(v for k, v in calls.items() if syms_kind.get(k) == "thunk" and "indirect" in k)
    ret = sum(v for k, v in calls.items() if syms_kind.get(k) == "thunk" and "indirect" not in k)
    return ind, ret


def analyse(resdir):
    t0dir = os.path.join(resdir, "t0")
    rawdir = os.path.join(t0dir, "raw")
    run = json.load(open(os.path.join(t0dir, "run.json")))
    boots, errors, kinds = {}, {}, {}
    for name in sorted(os.listdir(rawdir)):
        bdir = os.path.join(rawdir, name)
        if not os.path.isfile(os.path.join(bdir, "boot.json")):
            continue
        info, res = analyse_boot(bdir)
        key = (info["variant"], info["mitigation"])
        for line in open(os.path.join(bdir, "syms.txt")):
            k, _, _, n = line.split()
            kinds[n] = k
        if isinstance(res, str):
            errors[name] = res
            continue
        boots.setdefault(key, {})[info["round"]] = res
    rows, unstable = [], []
    for (variant, mitig), rounds in sorted(boots.items()):
        first = rounds[min(rounds)]
        for cid in first:
            # every pass of every boot of this kernel and command line
            runs = [p for x in sorted(rounds) for p in rounds[x].get(cid, [])]
            run_boots = [x for x in sorted(rounds) for _ in rounds[x].get(cid, [])]
            pp = runs[0]
            ind, ret = thunk_split(pp["calls"], kinds)
            insns = sorted({p["kernel_insns"] for p in runs})
            by_boot = {}
            for x in sorted(rounds):
                b = sorted(p["kernel_insns"] for p in rounds[x].get(cid, []))
                if b:
                    by_boot[str(x)] = fmt_range(b[0], b[-1])
            values = {}
            for p in runs:
                values[fmt(p["kernel_insns"])] = values.get(fmt(p["kernel_insns"]), 0) + 1
            row = dict(cell=cid, variant=variant, mitigation=mitig, knob=pp["knob"],
                       kernel_insns=fmt(insns[0]) if len(insns) == 1 else
                       "%s..%s" % (fmt(insns[0]), fmt(insns[-1])),
                       insns_min=float(insns[0]), insns_spread=float(insns[-1] - insns[0]),
                       indirect_thunks=fmt(ind), return_thunks=fmt(ret),
                       indirect_other=fmt(pp["indirect_calls"] + pp["indirect_jumps"]),
                       calls={k: fmt(v) for k, v in sorted(pp["calls"].items())
                              if kinds.get(k) == "count" and v},
                       thunks={k: fmt(v) for k, v in sorted(pp["calls"].items())
                               if kinds.get(k) == "thunk" and v},
                       rounds=sorted(rounds), runs=len(runs),
                       # what validate and t0.py compare judge a range by
                       boots=len(by_boot), insns_by_boot=by_boot, insns_values=values,
                       ranged=ranged(cid))
            # Branches, thunks and calls are what the series changes: they
            # must be the same in every run.  The instruction count may
            # move by a few where data placement differs between runs (a
            # table created anew per pass): shown as a range, never hidden.
            structural = {json.dumps(render_structure(row_of(p, kinds)), sort_keys=True) for p in runs}
            row["identical"] = len(runs) > 1 and len(structural) == 1
            per_function = t0breakdown.row_data(runs, run_boots)
            if per_function:
                row["per_function"] = per_function
            row["insns_identical"] = len(insns) == 1
            if len(runs) > 1 and not row["identical"]:
                unstable.append("%s %s %s" % (variant, mitig, cid))
            rows.append(row)
    return dict(schema=SCHEMA, run=run, rows=rows, errors=errors, unstable=unstable)


def row_of(pp, kinds):
    ind, ret = thunk_split(pp["calls"], kinds)
    return dict(kernel_insns=pp["kernel_insns"], ind=ind, ret=ret,
                other=pp["indirect_calls"] + pp["indirect_jumps"],
                calls={k: v for k, v in pp["calls"].items() if v})


def render_structure(r):
    """A run's per-packet counts, instructions aside, exactly (not rounded:
    one call more in 2000 packets must show)."""
    return dict(ind=str(r["ind"]), ret=str(r["ret"]), other=str(r["other"]),
                calls={k: str(v) for k, v in sorted(r["calls"].items())})


def same_text(r, v1):
    """The report's 'same' column of row R (V1: as t0.json of schema 1 was
    rendered)."""
    if r["runs"] < 2:
        return "-"
    if not r["identical"]:
        return "NO"
    if r["insns_identical"]:
        return "yes"
    if v1 or r["insns_spread"] <= INSNS_SPREAD_MAX:
        return "calls"
    # measured across boots, or a spread validate fails
    return "range" if r["ranged"] else "MOVED"


# What `make t0` costs on 2 cores, for the line of a run without kernels:
# a cold x86_64 build about 20 minutes per kernel, a boot under TCG 1-2
# minutes for most cells (docs/results/t0-7.3-v5-p1-5-20261205T003951Z:
# 6 boots of 7 cell types in 9 minutes).
MAKE_T0_COST = "cold: about 20 min per kernel to build, then 1-2 min per boot"


def not_built(run):
    """One line for a run whose kernels were not all there (bench's T0 on a
    fresh machine: t0.py run --no-build): what was not measured and the
    command that measures it; None when every kernel booted."""
    kernels = run.get("kernels") or {}
    missing = [v for v in run.get("variants", ()) if v in kernels and not kernels[v]]
    if not missing:
        return None
    # a run of before 2026-12-02 has no "base"; it is in its directory's name
    base = run.get("base")
    cmd = "make t0 BASE=%s" % base if base else "make t0"
    return ("not measured: no x86_64 %s kernel built for %s, so %s boots ran; `%s` builds %s and counts (%s)"
            % (" or ".join(missing), base or "its base", "none of its" if len(missing) == 1 else "none of their", cmd,
               "it" if len(missing) == 1 else "them", MAKE_T0_COST))


def render(t0):
    run = t0["run"]
    v1 = t0.get("schema", SCHEMA_V1) == SCHEMA_V1
    out = ["T0: per packet, exact (x86_64 kernels under QEMU TCG -icount, pktcount plugin)",
           "  slope between pktgen runs of %d and %d packets in one boot (after a warm-up run);"
           % tuple(run["counts"][-2:]),
           "  %d boot(s) per kernel and command line x %d pass(es) over the cells; same: 'yes' = every run"
           " printed the same numbers" % (run["rounds"], run.get("reps", 1)) +
           ("" if v1 else "; insns: min..max over every boot and pass"),
           "  per packet: inside pktgen's call of netif_receive_skb() (ingress) or __dev_queue_xmit()"
           " (egress), interrupts excluded",
           "  host CPU: %s (counts do not depend on it)" % run.get("cpu", "?")]
    # runs before there were two bases were all 6.12 with the host's nft
    if "base_version" in run:
        out.append("  base: %s; guest nft: %s" % (run["base_version"], run.get("nft", "host")))
    missing = not_built(run)
    if missing:
        out.append("  " + missing)
    if not v1 and (run.get("cells") or run.get("seed_probe")):
        out.append("  cells: %s; fresh 1001-element hash sets per boot (--seed-probe): %d"
                   % (",".join(run["cells"]) if run.get("cells") else "all", run.get("seed_probe", 0)))
    out.append("")
    hdr = ["scenario", "kernel", "spectre_v2", "knob", "insns", "ind.thunks", "ret.thunks", "ind.other",
           "same"]
    rows = []
    for r in sorted(t0["rows"], key=lambda r: (parse_cell_id(r["cell"])["backend"], r["cell"], r["variant"],
                                               r["mitigation"], r["knob"])):
        rows.append([short_cell(r["cell"]), r["variant"], r["mitigation"], r["knob"], r["kernel_insns"],
                     r["indirect_thunks"], r["return_thunks"], r["indirect_other"], same_text(r, v1)])
    out.append(render_table(hdr, rows))
    out += ["", "Calls per packet of the functions the series is about (thunks by name after '|'):"]
    for r in sorted(t0["rows"], key=lambda r: (r["cell"], r["variant"], r["mitigation"], r["knob"])):
        calls = " ".join("%s=%s" % kv for kv in r["calls"].items())
        thunks = " ".join("%s=%s" % (k.replace("__x86_", ""), v) for k, v in r["thunks"].items())
        out.append("  %-18s %-8s %-9s k%s: %s | %s" % (short_cell(r["cell"]), r["variant"], r["mitigation"],
                                                      r["knob"], calls, thunks))
    if t0["errors"]:
        out += ["", "Boots without figures:"] + ["  %s: %s" % kv for kv in sorted(t0["errors"].items())]
    moved = [r for r in t0["rows"] if not r["insns_identical"]]
    if moved and not v1:
        out += [""] + textwrap.wrap(
            "same 'calls': thunks, branches and calls identical in every run, instructions within %d per packet"
            " of each other; 'range': the cell's instructions are measured across boots (%s), a delta against"
            " it counts only where the ranges do not overlap (t0.py compare); 'MOVED': more than %d apart in a"
            " cell that must not move (t0.py validate fails)."
            % (INSNS_SPREAD_MAX, ", ".join([CT_LABELS.get(b, "dynset update") for b in RANGED] + ["hash n1 1k"]),
               INSNS_SPREAD_MAX),
            width=110)
        out.append("Per boot where they moved (bN: boot N's min..max over its passes; =: every value x runs):")
        for r in sorted(moved, key=lambda r: (r["cell"], r["variant"], r["mitigation"], r["knob"])):
            out.append("  %-18s %-8s %-9s k%s: %s" % (
                short_cell(r["cell"]), r["variant"], r["mitigation"], r["knob"],
                " ".join("b%s %s" % kv for kv in sorted(r["insns_by_boot"].items(), key=lambda kv: int(kv[0])))))
            out.append("  %-18s %-8s %-9s     = %s" % ("", "", "", " ".join(
                "%sx%d" % (v, n) for v, n in sorted(r["insns_values"].items(), key=lambda kv: Fraction(kv[0])))))
        if any(parse_cell_id(r["cell"])["tag"] == PROBE_TAG for r in moved):
            # "t0cells.py": this module's name before t0/, as the stored
            # reports print it (docs/results/ renders again byte for byte)
            out += textwrap.wrap("The hash n1 1k cells look the packet up in the selftest's 1001-element rhash"
                                 " set, created anew per pass: the random seed puts its key behind 0, 1, ... other"
                                 " elements of its bucket (t0cells.py PROBE_TAG); the hash n1 cells' set holds"
                                 " the key alone.", width=110)
    elif moved:
        out += ["", "same 'calls': thunks, branches and calls identical in every run, instructions per packet"
                " moved (range shown, largest spread %.2f per packet).  The hash and dynset cells use rhash"
                " sets, which seed their hash at random: each boot walks another bucket chain."
                % max(r["insns_spread"] for r in moved)]
    if t0["unstable"]:
        out += ["", "NOT EXACT: these cells counted other thunks, branches or calls in different runs:"] + \
               ["  " + u for u in t0["unstable"]]
    out += t0ruleset.render(t0)
    out += t0breakdown.render(t0)
    return "\n".join(out)



def report(results, quiet=False):
    """t0.json and t0.md of RESULTS/t0 from its raw counts; t0.md alone
    from t0.json when raw/ is absent (a stored run: docs/results/ keeps
    t0.json, the report is a function of it)."""
    t0dir = os.path.join(results, "t0")
    if os.path.isdir(os.path.join(t0dir, "raw")):
        t0 = analyse(results)
        write(os.path.join(t0dir, "t0.json"), json.dumps(t0, indent=1, sort_keys=True) + "\n")
    else:
        t0 = read_json(os.path.join(t0dir, "t0.json"))
        if t0 is None:
            raise SystemExit("t0: %s has neither raw/ nor t0.json" % t0dir)
    text = render(t0)
    write(os.path.join(t0dir, "t0.md"), "```\n" + text + "\n```\n")
    if not quiet:
        print(text)
    return 0


def covers(r):
    """Whether row R's kernel_insns is exactly min..max of its boots'."""
    bb = [parse_range(t) for t in r.get("insns_by_boot", {}).values()]
    if not bb or len(bb) != r.get("boots"):
        return False
    return parse_range(r["kernel_insns"]) == (min(b[0] for b in bb), max(b[1] for b in bb))


def validate(results):
    """TAP: every boot, every cell, exactness."""
    tap = Tap()
    t0dir = os.path.join(results, "t0")
    try:
        t0 = json.load(open(os.path.join(t0dir, "t0.json")))
    except (OSError, ValueError) as e:
        tap.ok(False, "T0: t0.json readable", e)
        return done(tap)
    run = t0["run"]
    tap.ok(t0.get("schema") == SCHEMA, "T0: t0.json schema %s" % SCHEMA)
    tap.ok(not t0["errors"], "T0: every boot ran, all samples valid, every pktgen run bracketed by marks",
           "\n".join("%s: %s" % kv for kv in sorted(t0["errors"].items())))
    for v in run["variants"]:
        for m in run["mitigations"]:
            got = {r["cell"] for r in t0["rows"] if r["variant"] == v and r["mitigation"] == m}
            knob = run["knob"].get(v) if "knob" in run else None
            want = {c["cell"] for _, cells in scenarios(v, run["quick"], knob, run.get("cells"),
                                                        run.get("seed_probe", 0), run.get("rulesets"))
                    for c in cells}
            tap.ok(got == want, "T0: %s spectre_v2=%s: every scenario counted (%d)" % (v, m, len(want)),
                   "missing: %s" % sorted(want - got))
    runs = min((r["runs"] for r in t0["rows"]), default=0)
    tap.ok(runs >= 2 and all(r["identical"] for r in t0["rows"]),
           "T0: exact: every cell's %d runs (%d boots x %d passes) counted the same thunks, indirect "
           "branches and calls per packet" % (runs, run["rounds"], run.get("reps", 1)),
           "\n".join(t0["unstable"]) or "fewer than two runs per cell")
    fixed = [r for r in t0["rows"] if not ranged(r["cell"])]
    spread = max((r["insns_spread"] for r in fixed), default=0.0)
    tap.ok(spread <= INSNS_SPREAD_MAX,
           "T0: instructions per packet within %d of each other across runs in every cell but the measured "
           "ones (%s; largest spread %.2f, %d of %d cells identical)"
           % (INSNS_SPREAD_MAX, ",".join(RANGED + (PROBE_TAG, "rulesets")), spread,
              sum(r["insns_identical"] for r in t0["rows"]), len(t0["rows"])),
           "\n".join("%s %s %s: %s" % (r["variant"], r["mitigation"], r["cell"], r["kernel_insns"])
                     for r in fixed if r["insns_spread"] > INSNS_SPREAD_MAX))
    # A range is a claim about boots: one boot cannot show what another
    # boot counts (the v4 run's 1056 for the hash cell, 1015 in the next
    # five boots).
    boots = {}
    for r in t0["rows"]:
        key = "%s spectre_v2=%s" % (r["variant"], r["mitigation"])
        boots[key] = min(boots.get(key, r.get("boots", 0)), r.get("boots", 0))
    few = sorted("%s: %d" % kv for kv in boots.items() if kv[1] < MIN_BOOTS)
    desc = "T0: every cell counted in at least %d boots per kernel and command line" % MIN_BOOTS
    if run.get("quick"):
        tap.skip(desc, "quick run (%d boot(s))" % run["rounds"])
    else:
        tap.ok(boots and not few, desc, "\n".join(few) or "no rows")
    tap.ok(all(covers(r) for r in t0["rows"]),
           "T0: every cell's instructions per packet, as reported, span what each of its boots counted",
           "\n".join("%s %s %s: reported %s, boots %s" % (r["variant"], r["mitigation"], r["cell"], r["kernel_insns"],
                                                         r.get("insns_by_boot"))
                     for r in t0["rows"] if not covers(r)))
    pos = [r for r in t0["rows"] if r["insns_min"] <= 0]
    tap.ok(not pos, "T0: every scenario executes kernel instructions per packet")
    if run.get("per_function"):
        # the attribution must not drop or invent an instruction
        rows = [r for r in t0["rows"] if r.get("per_function")]
        bad = ["%s %s %s: %s" % (r["variant"], r["mitigation"], r["cell"], "; ".join(t0breakdown.sum_errors(r)))
               for r in rows if t0breakdown.sum_errors(r)]
        bad += ["%s %s %s: not counted per function" % (r["variant"], r["mitigation"], r["cell"])
                for r in t0["rows"] if not r.get("per_function")]
        tap.ok(rows and not bad, "T0: per function: in every run of every cell the functions add up to the"
               " instructions per packet exactly (%d cells)" % len(rows), "\n".join(bad) or "no rows")
        code = t0code.load(results)
        if code:
            # compare --attribute calls a function without a digest "?"
            lacking = {v: t0code.counted_functions(t0, v) - set(code.get(v, {})) for v in run["variants"]}
            missing = ["%s: %s" % (v, ", ".join(sorted(names))) for v, names in lacking.items() if names]
            tap.ok(not missing, "T0: code.json has the digest of every function each kernel counted",
                   "\n".join(missing))
    return done(tap)

