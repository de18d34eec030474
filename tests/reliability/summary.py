#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""summary.md of a check-debug results directory, from the parts' JSON reports.

Usage: summary.py RUNDIR   (writes RUNDIR/summary.md and prints it)
"""
import json
import os
import sys


def load(run, name):
    path = os.path.join(run, name)
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def tap_counts(run, name):
    path = os.path.join(run, name)
    if not os.path.exists(path):
        return None
    ok = bad = todo = skip = 0
    with open(path) as f:
        for line in f:
            if line.startswith("ok "):
                if "# SKIP" in line:
                    skip += 1
                else:
                    ok += 1
            elif line.startswith("not ok "):
                if "# TODO" in line:
                    todo += 1
                else:
                    bad += 1
    return ok, bad, todo, skip


def soak_table(out, s, where):
    if not s:
        return
    cpus = ", %d CPUs" % s["cpus"] if "cpus" in s else ""
    out += ["Soak, %s (seed %d, %g s per backend%s):" % (where, s["seed"], s["seconds"], cpus), "",
            "| set | seconds | transactions | per s | element ops | packets | missed |",
            "|---|---|---|---|---|---|---|"]
    for r in s["sets"]:
        out.append("| %s | %.1f | %d | %.1f | %d | %d | %d |" % (
            r["set"], r["seconds"], r["transactions"], r["transactions"] / r["seconds"],
            r["element_ops"], r["packets"], r["miss"]))
    out.append("")


def gc_cell(g):
    if isinstance(g, str):
        return g
    return ", ".join("%s %d" % kv for kv in sorted(g.items())) or "none probed"


def stress_table(out, s, where):
    if not s:
        return
    out += ["Stress, %s (seed %d, %g s per backend, %d CPUs, nft on CPU %d):" % (
                where, s["seed"], s["seconds"], s["cpus"], s["nft_cpu"]), "",
            "| set | seconds | commits | aborts | expired elements | GC calls (kprobes) | lookups "
            "| false misses | false hits |",
            "|---|---|---|---|---|---|---|---|---|"]
    for r in s["sets"]:
        c = r["counters"]
        out.append("| %s | %.1f | %d | %d | %d | %s | %d | %d | %d |" % (
            r["set"], r["seconds"], r["commits"], r["aborts"], r["expired_elements"],
            gc_cell(r["gc_calls"]), r["lookups"], c["p_miss"], c["h_hit"]))
    out.append("")


def cell(d, *keys):
    """The number at d[keys[0]][keys[1]]..., or "-" where a part did not run."""
    for k in keys:
        if not isinstance(d, dict) or k not in d:
            return "-"
        d = d[k]
    return str(d)


def hookstress_table(out, h, where):
    """hookstress.sh's counts of one kernel (guest-hookstress.sh's hookstress.json)."""
    if not h:
        return
    out += ["Hookstress, %s (2 vCPUs, spectre_v2=retpoline; %s packets per counted step):" % (
                where, cell(h, "packets_asked")), "",
            "| unload cycles | counted packets | flood packets across removals | queued | reinjected "
            "| dropped | bridged packets | churn operations | churn packets |",
            "|---|---|---|---|---|---|---|---|---|",
            "| %s |" % " | ".join([cell(h, "unload", "cycles"), cell(h, "unload", "packets"),
                                    cell(h, "unload", "flood_packets"), cell(h, "nfqueue", "queued"),
                                    cell(h, "nfqueue", "reinjected"), cell(h, "nfqueue", "dropped"),
                                    cell(h, "bridge", "packets"), cell(h, "churn", "operations"),
                                    cell(h, "churn", "packets")]), "",
            "| kprobe hits | nft_do_chain_ipv4 | nf_hook_slow_nft | nf_hook_slow | packets |",
            "|---|---|---|---|---|",
            "| nf_tables loaded | %s | %s | %s | %s |" % (
                cell(h, "tracing", "nft_do_chain_ipv4"), cell(h, "tracing", "nf_hook_slow_nft"),
                cell(h, "tracing", "nf_hook_slow"), cell(h, "tracing", "packets")),
            "| after modprobe -r nf_tables (br_netfilter's hook) | - | %s | %s | %s |" % (
                cell(h, "tracing", "after_rmmod", "nf_hook_slow_nft"),
                cell(h, "tracing", "after_rmmod", "nf_hook_slow"),
                cell(h, "tracing", "after_rmmod", "packets")), ""]
    # the parts that counted late replies, in the guest's order
    late = {p: v["late"] for p, v in h.items() if isinstance(v, dict) and "late" in v}
    if late:
        out += ["Replies that reached the sender after ping stopped waiting (answered; "
                "guest-hookstress.sh's pings()): %s" % ", ".join("%s %d" % kv for kv in late.items()), ""]


def splat_lines(out, sp, where):
    if not sp:
        return
    out.append("Kernel reports in the guest log, %s (%d lines scanned): %d" %
               (where, sp["lines"], len(sp["reports"])))
    for r in sp["reports"][:20]:
        scope = ""
        if "netfilter" in r:
            scope = " [netfilter]" if r["netfilter"] else " [no netfilter function: not judged]"
        if "known" in r:
            scope = " [known, TODO: %s]" % r["known"]
        out.append("- %s, line %d: %s (%s)%s" % (r["checker"], r["line"], r["first"], r["file"], scope))
    out.append("")


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    run = argv[1]
    out = ["# tests/reliability: %s" % os.path.basename(run.rstrip("/")), ""]
    info = os.path.join(run, "run-info.txt")
    if os.path.exists(info):
        with open(info) as f:
            out += ["    " + line.rstrip() for line in f] + [""]
    out += ["| part | passed | failed | known (TODO) | skipped |", "|---|---|---|---|---|"]
    for part in ("features", "differential", "faults", "commitalloc", "soak", "stress", "selftests",
                 "splats", "smp", "smpdebug", "hookstress"):
        c = tap_counts(run, part + ".tap")
        if c:
            out.append("| %s | %s |" % (part, " | ".join(map(str, c))))
    out.append("")
    d = load(run, "differential.json")
    if d:
        out.append("Differential (seed %d, %d elements per set): " % (d["seed"], d["elements"]) +
                   ", ".join("%s %d probes" % (p["phase"], p["probes"]) for p in d["phases"]))
        known = sorted({"%s/%s" % (p["phase"], s["set"]) for p in d["phases"]
                        for s in p["sets"] if s.get("known")})
        if known:
            out.append("Known 6.12 rbtree false hits (expired intervals) in: %s" % ", ".join(known))
        out.append("")
    f = load(run, "faults.json")
    if f:
        out.append("Fault injection: %d nftlab bulk loads (3 sets x %d elements), the N-th slab "
                   "allocation failing in each: %d refused with the ruleset unchanged, %d absorbed "
                   "(applied, the allocation had a fallback), %d bad; past the last allocation at "
                   "N = %s (%.0f s)" % (len(f["runs"]), f["elements"], f["refused"], f["absorbed"],
                                        f["bad"], f["past_end"], f["seconds"]))
        out.append("")
    for name, where in (("soak.json", "UML"),
                        ("smp-patched/soak.json", "x86_64 patched, QEMU TCG, 2 vCPUs"),
                        ("smp-baseline/soak.json", "x86_64 baseline, QEMU TCG, 2 vCPUs")):
        soak_table(out, load(run, name), where)
    stress_table(out, load(run, "stress.json"), "UML")
    splat_lines(out, load(run, "splats/splats.json"), "UML")
    for d in sorted(os.listdir(run)):
        if not d.startswith("smp-") or d in ("smp-patched", "smp-baseline"):
            continue
        where = d[len("smp-"):]
        soak_table(out, load(run, d + "/soak.json"), where)
        stress_table(out, load(run, d + "/stress.json"), where)
        splat_lines(out, load(run, d + "/splats/splats.json"), where)
    for d in sorted(os.listdir(run)):
        if not d.startswith("hookstress-"):
            continue
        where = d[len("hookstress-"):]
        hookstress_table(out, load(run, d + "/hookstress.json"), where)
        splat_lines(out, load(run, d + "/splats/splats.json"), where)
    text = "\n".join(out)
    with open(os.path.join(run, "summary.md"), "w") as fh:
        fh.write(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
