#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""t0.py - T0 of the nftlab suite: what one packet costs, counted exactly.

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
several boots (--rounds) and passes (--reps), and `validate` fails unless
all of them count the same thunks, branches and calls.

Boots: the x86_64 baseline and patched retpoline kernels, each with
spectre_v2=retpoline (the thunks stay) and spectre_v2=off (the CPU does not
need them: x86 rewrites the thunk calls into plain indirect calls and patch
1's static key skips the direct-call chains); on the patched kernel every
cell runs with the force-indirect knob at 0 and at 1.

Subcommands: run, report, validate.  Results in DIR/t0/.
"""

import argparse
import json
import os
import re
import subprocess
import sys
from fractions import Fraction

import ncr

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
SCHEMA = "nftlab-t0/1"

# Counted runs per cell: a warm-up, then the two whose difference is the
# slope.  Multiples of the dynset scenario's 1000 sources, so that every
# source is updated equally often in each run.
COUNTS = (1000, 1000, 3000)
MITIGATIONS = ("retpoline", "off")
QUICK_ENTRIES = 10
# Instructions per packet may move by one or two between runs (data
# placement); more than this means the counting itself is broken.  Except
# where the data differ by design: an rhash set seeds its hash at random
# when it is created, so each boot walks another bucket chain (the
# thunks, branches and calls stay the same and are still checked).
INSNS_SPREAD_MAX = 2
RANDOM_SEEDED = ("hash", "dynset")

# Symbols of the kernel the plugin counts (regular expressions on nm names).
THUNK_RE = re.compile(r"^(__x86_indirect_(call_|jump_|its_)?thunk_\w+|__x86_return_thunk|(?!__pfx_)\w+_return_thunk)$")
COUNT_RE = re.compile(r"^(nft_do_chain\w*|nf_hook_slow|__dev_queue_xmit|nft_lookup_eval|nft_dynset_eval"
                      r"|__?nft_set_do_lookup|nft_(hash|rhash|bitmap|rbtree|pipapo)\w*_(lookup|update|delete)\w*"
                      r"|nft_pipapo_avx2_lookup|nft_objref\w*_eval|nft_counter_eval|nft_immediate_eval)$")
# A snapshot each time the guest reads a pktgen device file (run-plan does
# after every configuration command and after every run).
MARKS = ("pktgen_if_show",)
# Interrupt and exception entries: a region is suspended inside them.  Device
# interrupts enter through one stub per vector in irq_entries_start (push
# the vector, jump to asm_common_interrupt): each stub's first instruction
# is an entry, asm_common_interrupt must not count again.
IRQ_RE = re.compile(r"^asm_(sysvec_\w+|exc_\w+)$")
IRQSTUBS = ("irq_entries_start", "spurious_entries_start")
PUSH_RE = re.compile(r"^\s*([0-9a-f]+):\s+((?:[0-9a-f]{2} )+)\s*push\s+\$0x[0-9a-f]+")
# The packet: pktgen's calls of these functions (ingress, egress).
SITE_TARGETS = ("netif_receive_skb", "__dev_queue_xmit")

# The dynset scenario: every packet updates an rhash set with its source
# address (a dynamic set with a timeout: nft_rhash_update); 1000 sources.
DYN_SOURCES = 1000
DYN_SETS = """add table netdev {table}
delete table netdev {table}
table netdev {table} {{
\tcounter test {{ }}
\tset dyn {{ type ipv4_addr; size 65536; flags dynamic,timeout; timeout 1h; }}
\tchain {chain} {{ type filter hook ingress device "{dev}" priority 0; }}
}}
"""
DYN_RULES = """flush chain netdev {table} {chain}
add rule netdev {table} {chain} update @dyn {{ ip saddr }} counter name "test" drop
"""


def cell(group, tname, backend, n, knob):
    return dict(cell="T0/%s/%s/n%d/k%s" % (tname, backend, n, knob), group=group, type=tname,
                backend=backend, n=n, knob=knob)


def scenarios(variant, quick=False):
    """[(group dict, [cells])] for one kernel variant."""
    knobs = ("0", "1") if variant == "patched" else ("-",)
    backends = ncr.BACKENDS if not quick else ("hash",)
    ing = []
    for k in knobs:
        # Counts need no amplification: one lookup rule, against the drop
        # cell, is one lookup exactly.
        ing.append(cell("T0-net_port", "net_port", "drop", 0, k))
        ing += [cell("T0-net_port", "net_port", b, 1, k) for b in backends]
    egress = [cell("T0-egress", "net_port", "nohook", 0, "-"), cell("T0-egress", "net_port", "egress", 1, "-")]
    if quick:
        egress = egress[1:]
    dyn = [cell("T0-dynset", "dynset", "dynset", 1, k) for k in knobs]
    return [(dict(gid="T0-net_port", mode="ingress", type="net_port"), ing),
            (dict(gid="T0-egress", mode="egress", type="net_port"), egress),
            (dict(gid="T0-dynset", mode="ingress", type="dynset"), dyn)]


def write_plan(plandir, variant, quick, reps=1, dev="nftb0"):
    """The plan in guest/run-plan's format, built from the suite's generators."""
    os.makedirs(plandir, exist_ok=True)
    tdef = ncr.TYPES["net_port"]
    # quick: 10 entries per set instead of 1000: loading them under TCG
    # dominates a quick boot, and what is counted stays exact either way.
    entries = QUICK_ENTRIES if quick else None
    p = ncr.packet(tdef, entries)
    lines = ["# nftlab T0 plan: %s" % variant]
    ncells = 0
    for g, cells in scenarios(variant, quick):
        setsf, extra = "-", "-"
        if g["type"] == "net_port" and g["mode"] == "ingress":
            setsf = "sets-net_port.nft"
            ncr.write(os.path.join(plandir, setsf), ncr.gen_sets(ncr.set_defs(tdef, entries), dev))
        elif g["type"] == "dynset":
            setsf = "sets-dynset.nft"
            ncr.write(os.path.join(plandir, setsf), DYN_SETS.format(table=ncr.TABLE, chain=ncr.CHAIN, dev=dev))
            # a new skb per packet (burst 1), sources cycling over DYN_SOURCES
            extra = "burst 1;src_min 10.1.0.0;src_max 10.1.%d.%d" % ((DYN_SOURCES - 1) // 256,
                                                                     (DYN_SOURCES - 1) % 256)
        lines.append("group\t%s\t%s\t%s\t%d\t%s\t%s\t%s\t%d\t%s\t%s" % (
            g["gid"], g["mode"], g["type"], p["ipver"], p["addr"], p["port"], p["mac"], p["size"], setsf, extra))
        for c in cells:
            if c["backend"] in ("nohook", "egress"):
                rf = "rules-egress-%s.nft" % c["backend"]
                ncr.write(os.path.join(plandir, rf), ncr.gen_egress(dev, c["backend"] == "egress"))
            elif c["backend"] == "dynset":
                rf = "rules-dynset.nft"
                ncr.write(os.path.join(plandir, rf), DYN_RULES.format(table=ncr.TABLE, chain=ncr.CHAIN))
            else:
                rf = "rules-%s-%s-n%d.nft" % (c["type"], c["backend"], c["n"])
                ncr.write(os.path.join(plandir, rf), ncr.gen_rules(tdef, c["backend"], c["n"]))
            c["rules"] = rf
        # REPS passes over the group's cells: each pass must count the same.
        for rep in range(1, reps + 1):
            for c in cells:
                lines.append("cell\t%s\t%s\t%s\t%s\t%d" % (g["gid"], c["cell"], c["knob"], c["rules"], rep))
                ncells += 1
    ncr.write(os.path.join(plandir, "plan.tsv"), "\n".join(lines) + "\n")
    return ncells


def kernel_symbols(vmlinux):
    """[(kind, addr, size, name)] for the plugin, from the kernel's symbol table."""
    out = subprocess.run(["nm", "-S", "--defined-only", vmlinux], check=True,
                         capture_output=True, text=True).stdout
    syms, pktgen, stubs = {}, [], []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 4:
            addr, size, typ, name = parts
        elif len(parts) == 3:
            (addr, typ, name), size = parts, "0"
        else:
            continue
        if typ not in "tT":
            continue
        if name.startswith("pktgen_"):
            pktgen.append((int(addr, 16), int(size, 16)))
        if name in IRQSTUBS:
            stubs.append((int(addr, 16), int(size, 16)))
            continue
        if name in MARKS:
            kind = "mark"
        elif THUNK_RE.match(name):
            kind = "thunk"
        elif COUNT_RE.match(name):
            kind = "count"
        elif IRQ_RE.match(name):
            kind = "irq"
        else:
            continue
        a, n = int(addr, 16), int(size, 16)
        # Aliases share an address: keep the widest range under the most
        # specific name (__x86_indirect_thunk_array starts with _rax).
        old = syms.get(a)
        if old and old[0] != kind:
            raise SystemExit("t0: %s: %s (%s) and %s (%s) share an address" % (vmlinux, old[3], old[0], name, kind))
        if old:
            n = max(n, old[2])
            name = name if old[3].endswith("_array") else old[3]
        syms[a] = (kind, a, n, name)
    syms = list(syms.values())
    missing = [m for m in MARKS if not any(s[3] == m and s[0] == "mark" for s in syms)]
    if missing:
        raise SystemExit("t0: %s has no symbol %s: cannot bracket pktgen runs" % (vmlinux, ", ".join(missing)))
    if not any(s[3] == "asm_sysvec_apic_timer_interrupt" for s in syms) or not stubs:
        raise SystemExit("t0: %s: no timer interrupt entry or no irq_entries_start stubs: "
                         "interrupts would be counted as packet work" % vmlinux)
    syms += irq_stubs(vmlinux, stubs)
    sites = call_sites(vmlinux, pktgen)
    if sorted({s[3] for s in sites}) != sorted(SITE_TARGETS):
        raise SystemExit("t0: pktgen's calls of %s not found in %s (found %s)"
                         % (", ".join(SITE_TARGETS), vmlinux, sites))
    return sorted(syms + sites, key=lambda s: s[1])


CALL_RE = re.compile(r"^\s*([0-9a-f]+):\s+((?:[0-9a-f]{2} )+)\s*call\s+[0-9a-f]+ <([\w.]+)>")


def objdump(vmlinux, lo, n):
    return subprocess.run(["objdump", "-d", "-w", "--start-address=0x%x" % lo,
                           "--stop-address=0x%x" % (lo + n), vmlinux],
                          check=True, capture_output=True, text=True).stdout


def irq_stubs(vmlinux, ranges):
    """("irq", address, length, name) of every vector stub's first
    instruction (its push of the vector number)."""
    out = []
    for lo, n in ranges:
        for line in objdump(vmlinux, lo, n).splitlines():
            m = PUSH_RE.match(line)
            if m:
                a = int(m.group(1), 16)
                out.append(("irq", a, len(m.group(2).split()), "irq_stub_%x" % a))
    return out


def call_sites(vmlinux, ranges):
    """("site", address, length, target) of every direct call of a
    SITE_TARGETS function inside the pktgen functions (pktgen_xmit may be
    inlined into its caller)."""
    sites = []
    for lo, n in ranges:
        for line in objdump(vmlinux, lo, n).splitlines():
            m = CALL_RE.match(line)
            if m and m.group(3) in SITE_TARGETS:
                sites.append(("site", int(m.group(1), 16), len(m.group(2).split()), m.group(3)))
    return sites


def log(msg):
    print("[t0] %s" % msg, file=sys.stderr, flush=True)


def build_plugin():
    subprocess.run(["make", "-s", "-C", os.path.join(HERE, "tcg"), "O=%s" % os.path.join(TOP, "build", "tcg")],
                   check=True)
    return os.path.join(TOP, "build", "tcg", "pktcount.so")


def kernel_dir(variant, build):
    if build:
        r = subprocess.run([os.path.join(TOP, "kernel", "build"), "x86_64", variant, "retpoline"],
                           stdout=subprocess.PIPE, text=True)
        return r.stdout.strip() if r.returncode == 0 else None
    cache = os.environ.get("NFTLAB_CACHE", os.path.expanduser("~/.cache/nftlab"))
    try:
        base = open(os.path.join(cache, "base", "current")).read().strip()
    except OSError:
        return None
    d = os.path.join(cache, "kernels", base, "x86_64-%s-retpoline" % variant)
    return d if os.path.isfile(os.path.join(d, "bzImage")) else None


def boot(rawdir, kdir, syms, plugin, variant, mitigation, rnd, quick, counts, reps):
    """One QEMU boot running every cell of the variant with counted pktgen runs."""
    name = "%s-%s-r%d" % (variant, mitigation, rnd)
    bdir = os.path.join(rawdir, name)
    os.makedirs(bdir, exist_ok=True)
    ncells = write_plan(os.path.join(bdir, "plan"), variant, quick, reps)
    symf = os.path.join(bdir, "syms.txt")
    ncr.write(symf, "".join("%s %x %x %s\n" % s for s in syms))
    countsf = os.path.join(bdir, "counts.jsonl")
    env = ["env", "NFTB_COUNTS=%s" % " ".join(str(c) for c in counts)]
    cmd = [os.path.join(TOP, "kernel", "lab-run"), "--arch", "x86_64", "--kernel", kdir,
           "--results", bdir, "--timeout", str(300 + 60 * ncells),
           "--append", "spectre_v2=%s nokaslr" % mitigation,
           "--qemu-arg", "-icount", "--qemu-arg", "shift=0,sleep=off",
           "--qemu-arg", "-plugin", "--qemu-arg", "%s,syms=%s,out=%s" % (plugin, symf, countsf),
           "--"] + env + [os.path.join(HERE, "guest", "run-plan"), os.path.join(bdir, "plan"),
                          os.path.join(bdir, "out")]
    log("boot %s: %d cells x %d counted runs (QEMU TCG)" % (name, ncells, len(counts)))
    with open(os.path.join(bdir, "console.log"), "w") as con:
        rc = subprocess.run(cmd, stdout=con, stderr=subprocess.STDOUT).returncode
    info = dict(name=name, variant=variant, mitigation=mitigation, round=rnd, kernel=kdir, status=rc,
                counts=list(counts))
    ncr.write(os.path.join(bdir, "boot.json"), json.dumps(info, indent=1) + "\n")
    log("boot %s: exit %d" % (name, rc))
    return rc


def do_run(args):
    t0dir = os.path.join(args.results, "t0")
    rawdir = os.path.join(t0dir, "raw")
    os.makedirs(rawdir, exist_ok=True)
    plugin = build_plugin()
    variants = args.variants.split(",")
    mitigations = args.mitigations.split(",")
    counts = COUNTS
    failed = 0
    kdirs, syms = {}, {}
    for v in variants:
        kdirs[v] = kernel_dir(v, args.build)
        if not kdirs[v]:
            log("x86_64 %s kernel not available: its boots are not run" % v)
        else:
            # what the plugin watches depends on the kernel image only
            syms[v] = kernel_symbols(os.path.join(kdirs[v], "vmlinux"))
    for rnd in range(1, args.rounds + 1):
        for v in variants:
            for m in mitigations:
                if kdirs[v]:
                    failed += boot(rawdir, kdirs[v], syms[v], plugin, v, m, rnd, args.quick, counts, args.reps) != 0
    ncr.write(os.path.join(t0dir, "run.json"), json.dumps(dict(
        quick=args.quick, rounds=args.rounds, reps=args.reps, variants=variants, mitigations=mitigations,
        counts=list(counts), cpu=ncr.cpu_model(), kernels={v: kdirs[v] for v in variants}), indent=1) + "\n")
    rc = do_report(argparse.Namespace(results=args.results, quiet=False))
    print("\nresults: %s" % os.path.join(t0dir, "t0.md"))
    return 1 if failed or rc else 0


# --------------------------------------------------------------------------
# Analysis: snapshots -> per-packet counts.
# --------------------------------------------------------------------------
def read_samples(path):
    rows = []
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        f = line.rstrip("\n").split("\t")
        rows.append(dict(zip(ncr.SAMPLE_FIELDS, f)))
    return rows


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
    return runs


def per_packet(r1, r2):
    """Slope of every counter between two runs (Fractions)."""
    dn = r2["packets"] - r1["packets"]
    out = {k: Fraction(r2["fixed"][k] - r1["fixed"][k], dn) for k in FIXED}
    out["calls"] = {k: Fraction(r2["calls"][k] - r1["calls"].get(k, 0), dn) for k in r2["calls"]}
    return out


def analyse_boot(bdir):
    """{cell: [per-packet dict of each rep]} of one boot, or an error string."""
    info = json.load(open(os.path.join(bdir, "boot.json")))
    sp = os.path.join(bdir, "out", "samples.tsv")
    cp = os.path.join(bdir, "counts.jsonl")
    if info["status"] != 0:
        return info, "guest exited %d (console.log)" % info["status"]
    if not (os.path.isfile(sp) and os.path.isfile(cp)):
        return info, "no samples.tsv or counts.jsonl"
    samples = read_samples(sp)
    bad = [s for s in samples if s["valid"] != "1"]
    if bad:
        return info, "invalid samples: " + "; ".join("%s: %s" % (s["cell"], s["reason"]) for s in bad[:5])
    snaps = [json.loads(line) for line in open(cp) if line.strip()]
    runs = runs_from_snapshots(snaps)
    if len(runs) != len(samples):
        return info, "%d counted pktgen runs for %d samples" % (len(runs), len(samples))
    wrong = [(s["cell"], s["sofar"], r["packets"]) for s, r in zip(samples, runs) if s["sofar"] != str(r["packets"])]
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
                [int(s["sofar"]) for s in group] != counts:
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


def fmt(x):
    """A per-packet Fraction as printed: integers as such, else 2 decimals."""
    if x.denominator == 1:
        return str(x.numerator)
    return "%.2f" % float(x)


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
            pp = runs[0]
            ind, ret = thunk_split(pp["calls"], kinds)
            insns = sorted({p["kernel_insns"] for p in runs})
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
                       rounds=sorted(rounds), runs=len(runs))
            # Branches, thunks and calls are what the series changes: they
            # must be the same in every run.  The instruction count may
            # move by a few where data placement differs between runs (a
            # table created anew per pass): shown as a range, never hidden.
            structural = {json.dumps(render_structure(row_of(p, kinds)), sort_keys=True) for p in runs}
            row["identical"] = len(runs) > 1 and len(structural) == 1
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


def short_cell(cid):
    _, tname, backend, n, _ = cid.split("/")
    if backend in ("nohook", "egress"):
        return "egress %s" % ("no hook" if backend == "nohook" else "hook")
    if backend == "dynset":
        return "dynset update"
    if backend == "drop":
        return "drop (hook only)"
    return "%s %s" % (backend, n)


def render(t0):
    run = t0["run"]
    out = ["T0: per packet, exact (x86_64 kernels under QEMU TCG -icount, pktcount plugin)",
           "  slope between pktgen runs of %d and %d packets in one boot (after a warm-up run);"
           % tuple(run["counts"][-2:]),
           "  %d boot(s) per kernel and command line x %d pass(es) over the cells; same: 'yes' = every run"
           " printed the same numbers" % (run["rounds"], run.get("reps", 1)),
           "  per packet: inside pktgen's call of netif_receive_skb() (ingress) or __dev_queue_xmit()"
           " (egress), interrupts excluded",
           "  host CPU: %s (counts do not depend on it)" % run.get("cpu", "?"), ""]
    hdr = ["scenario", "kernel", "spectre_v2", "knob", "insns", "ind.thunks", "ret.thunks", "ind.other",
           "same"]
    rows = []
    for r in sorted(t0["rows"], key=lambda r: (r["cell"].split("/")[2], r["cell"], r["variant"],
                                               r["mitigation"], r["knob"])):
        rows.append([short_cell(r["cell"]), r["variant"], r["mitigation"], r["knob"], r["kernel_insns"],
                     r["indirect_thunks"], r["return_thunks"], r["indirect_other"],
                     "-" if r["runs"] < 2 else ("NO" if not r["identical"] else
                                                ("yes" if r["insns_identical"] else "calls"))])
    out.append(ncr.render_table(hdr, rows))
    out += ["", "Calls per packet of the functions the series is about (thunks by name after '|'):"]
    for r in sorted(t0["rows"], key=lambda r: (r["cell"], r["variant"], r["mitigation"], r["knob"])):
        calls = " ".join("%s=%s" % kv for kv in r["calls"].items())
        thunks = " ".join("%s=%s" % (k.replace("__x86_", ""), v) for k, v in r["thunks"].items())
        out.append("  %-18s %-8s %-9s k%s: %s | %s" % (short_cell(r["cell"]), r["variant"], r["mitigation"],
                                                      r["knob"], calls, thunks))
    if t0["errors"]:
        out += ["", "Boots without figures:"] + ["  %s: %s" % kv for kv in sorted(t0["errors"].items())]
    moved = [r for r in t0["rows"] if not r["insns_identical"]]
    if moved:
        out += ["", "same 'calls': thunks, branches and calls identical in every run, instructions per packet"
                " moved (range shown, largest spread %.2f per packet).  The hash and dynset cells use rhash"
                " sets, which seed their hash at random: each boot walks another bucket chain."
                % max(r["insns_spread"] for r in moved)]
    if t0["unstable"]:
        out += ["", "NOT EXACT: these cells counted other thunks, branches or calls in different runs:"] + \
               ["  " + u for u in t0["unstable"]]
    return "\n".join(out)


def do_report(args):
    t0 = analyse(args.results)
    t0dir = os.path.join(args.results, "t0")
    ncr.write(os.path.join(t0dir, "t0.json"), json.dumps(t0, indent=1, sort_keys=True) + "\n")
    text = render(t0)
    ncr.write(os.path.join(t0dir, "t0.md"), "```\n" + text + "\n```\n")
    if not args.quiet:
        print(text)
    return 0


def do_validate(args):
    tap = ncr.Tap(args.tap_start)
    t0dir = os.path.join(args.results, "t0")
    try:
        t0 = json.load(open(os.path.join(t0dir, "t0.json")))
    except (OSError, ValueError) as e:
        tap.ok(False, "T0: t0.json readable", e)
        return 1
    run = t0["run"]
    tap.ok(t0.get("schema") == SCHEMA, "T0: t0.json schema %s" % SCHEMA)
    tap.ok(not t0["errors"], "T0: every boot ran, all samples valid, every pktgen run bracketed by marks",
           "\n".join("%s: %s" % kv for kv in sorted(t0["errors"].items())))
    for v in run["variants"]:
        for m in run["mitigations"]:
            got = {r["cell"] for r in t0["rows"] if r["variant"] == v and r["mitigation"] == m}
            want = {c["cell"] for _, cells in scenarios(v, run["quick"]) for c in cells}
            tap.ok(got == want, "T0: %s spectre_v2=%s: every scenario counted (%d)" % (v, m, len(want)),
                   "missing: %s" % sorted(want - got))
    runs = min((r["runs"] for r in t0["rows"]), default=0)
    tap.ok(runs >= 2 and all(r["identical"] for r in t0["rows"]),
           "T0: exact: every cell's %d runs (%d boots x %d passes) counted the same thunks, indirect "
           "branches and calls per packet" % (runs, run["rounds"], run.get("reps", 1)),
           "\n".join(t0["unstable"]) or "fewer than two runs per cell")
    fixed = [r for r in t0["rows"] if r["cell"].split("/")[2] not in RANDOM_SEEDED]
    spread = max((r["insns_spread"] for r in fixed), default=0.0)
    tap.ok(spread <= INSNS_SPREAD_MAX,
           "T0: instructions per packet within %d of each other across runs, rhash cells aside (largest "
           "spread %.2f, %d of %d cells identical)" % (INSNS_SPREAD_MAX, spread,
                                                      sum(r["insns_identical"] for r in t0["rows"]),
                           len(t0["rows"])))
    pos = [r for r in t0["rows"] if r["insns_min"] <= 0]
    tap.ok(not pos, "T0: every scenario executes kernel instructions per packet")
    if args.count_file:
        ncr.write(args.count_file, "%d %d\n" % (tap.n, tap.failed))
    return 1 if tap.failed else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="boot the x86_64 kernels with the plugin and count")
    r.add_argument("--results", required=True)
    r.add_argument("--quick", action="store_true", help="a few scenarios, small counts")
    r.add_argument("--rounds", type=int, default=2, help="boots per kernel and command line")
    r.add_argument("--reps", type=int, default=1, help="passes over the cells in each boot")
    r.add_argument("--variants", default="baseline,patched")
    r.add_argument("--mitigations", default=",".join(MITIGATIONS))
    r.add_argument("--no-build", dest="build", action="store_false")
    p = sub.add_parser("report", help="t0.json and t0.md from the raw counts")
    p.add_argument("results")
    p.add_argument("--quiet", action="store_true")
    v = sub.add_parser("validate", help="TAP checks of a T0 run")
    v.add_argument("results")
    v.add_argument("--tap-start", type=int, default=0)
    v.add_argument("--count-file")
    args = ap.parse_args()
    return {"run": do_run, "report": do_report, "validate": do_validate}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
