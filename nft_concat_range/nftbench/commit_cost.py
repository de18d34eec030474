# SPDX-License-Identifier: GPL-2.0
"""Usage: nft_concat_range/commit-cost [--sizes 1000,10000,100000] [--reps N] [--boots N]
                                   [--stream K] [--kernels KERNEL,...] [--results DIR]
       nft_concat_range/commit-cost --render DIR

The host side of commit-cost, one of its two halves: it boots the kernels
and renders the report; the guest side, run in every boot, is
nft_concat_range/guest/commit-cost.py (whose header names this half).
This module is that half's code, the command nft_concat_range/commit-cost
(console script nftbench-commit-cost).

What an interval set (rbtree backend) costs the control plane in UML
retpoline kernels: the time of one nftlab transaction that loads N
intervals, the time of a transaction that adds one interval to a set of N
(median and range of --reps, one nftlab process each), the time of a
transaction that only updates an element's timeout, and the vmalloc and
slab memory the loaded set holds; with --stream K, the slab and vmalloc
memory held while K commits follow one another (the guest's header says
how).  --kernels names the kernels, each
BASE:VARIANT (a base of kernel/builder/bases/ and a variant, built if
needed) or LABEL=DIR (a UML kernel already built, e.g. an earlier build
kept aside, named LABEL in the report); default the baseline and patched
kernels of the base (--base; default NFTLAB_BASE or the default base).  Kernels of different bases run the same
nftlab.  Boots rotate between the kernels (--boots each).  Writes
DIR/KERNEL-bootB/cost.jsonl, DIR/run.json, DIR/report.md and
DIR/excerpt.txt (and excerpt-posting.txt, the same table naming no run, for
a posting's commit message, and boots.txt, each boot's median and best)
and prints the report; --render writes them
again from the others.  A DIR/lookups.txt (t0.py compare --lookups rbtree),
placed there before --render, becomes the report's last section.  Default DIR: build/results/commit-cost-<base>-<UTC>.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import bases as baselib  # lib/bases.py
import rundir  # lib/rundir.py

from . import lab
from .files import read_kv

TOP = lab.TOP
KERNELS = ("baseline", "patched")


def sh(*argv):
    return subprocess.run(argv, check=True, stdout=subprocess.PIPE, text=True).stdout.strip()


def kernels_of(run):
    """The run's kernels as (label, directory prefix) pairs: runs before
    --kernels had two 6.12 kernels named by their variant alone."""
    if "kernels" not in run:
        return [(v, v) for v in KERNELS]
    return [(k, k.replace(":", "-")) for k in run["kernels"]]


def rbtree_patch(info):
    return next((x for x in info["series"].split("|") if "nft_set_rbtree" in x), "none")


def median_range(ms):
    """Milliseconds MS as the report prints them: median [min..max]."""
    return "%.2f [%.2f..%.2f]" % (statistics.median(ms), min(ms), max(ms))


def render(res):
    with open(os.path.join(res, "run.json")) as f:
        run = json.load(f)
    kernels = kernels_of(run)
    rows = {k: [] for k, _ in kernels}
    info = {}
    for k, d in kernels:
        for b in range(1, run["boots"] + 1):
            with open(os.path.join(res, "%s-boot%d" % (d, b), "cost.jsonl")) as f:
                rows[k] += [json.loads(line) for line in f if line.strip()]
        info[k] = read_kv(os.path.join(res, "BUILD-INFO-%s" % d), ": ")
    # runs before the timeout updates have none
    refresh = all("refresh_s" in r for k, _ in kernels for r in rows[k])
    out = ["# Interval set (rbtree) control-plane cost, UML retpoline kernels", ""]
    if "kernels" not in run:
        out += ["base: %s; cpu: %s; %d boots per kernel, alternated; date %s" %
               (info["patched"]["base"], run["cpu"], run["boots"], run["date"]),
               "patched: %d patches, rbtree patch: %s" % (
                   len(info["patched"]["series"].split("|")), rbtree_patch(info["patched"]))]
    else:
        out += ["cpu: %s; %d boots per kernel, rotated; date %s" % (run["cpu"], run["boots"], run["date"]),
                "", "| kernel | base | patches | rbtree patch | stamp |", "|---|---|---|---|---|"]
        for k, _ in kernels:
            out.append("| %s | %s | %d | %s | %s |" % (
                k, info[k]["base"], len(info[k]["series"].split("|")), rbtree_patch(info[k]),
                info[k]["stamp"]))
    out += ["",
            "One-interval commit: wall time of `nftlab element add` (process start-up included) on a set",
            "of N intervals, median [min..max] of %d per boot x %d boots." % (run["reps"], run["boots"])]
    if refresh:
        out += ["Timeout update: the same for a transaction that only updates the timeout of one",
                "element (no boundary moves)."]
    out += ["",
            "| intervals | kernel | load N (s) | one-interval commit (ms) | memory used (KiB) | slab (KiB) |"
            + (" timeout update (ms) |" if refresh else ""),
            "|---|---|---|---|---|---|" + ("---|" if refresh else "")]
    sizes = sorted({r["intervals"] for k, _ in kernels for r in rows[k]})
    table = []  # (intervals, kernel, load, commit, slab[, refresh]): the excerpt's columns too
    for n in sizes:
        for k, _ in kernels:
            rs = [r for r in rows[k] if r["intervals"] == n]
            row = ("%d" % n, k, "%.3f" % statistics.median(r["load_s"] for r in rs),
                   median_range([x * 1000 for r in rs for x in r["commit_s"]]),
                   "/".join(str(r["used_kb"]) for r in rs), "/".join(str(r["slab_kb"]) for r in rs))
            if refresh:
                row += (median_range([x * 1000 for r in rs for x in r["refresh_s"]]),)
            table.append(row)
            out.append("| %s |" % " | ".join(row))
    out += ["", "memory used: MemFree before the load minus MemFree after the commits, slab: Slab",
            "after minus before (/proc/meminfo), per boot.  The patched kernel's lookup array is",
            "a kvmalloc() allocation: above a page, kmalloc takes a power-of-two block of pages,",
            "which Slab counts; during a commit the previous array lives on until an RCU grace",
            "period has passed."]
    out += stream_section(rows, kernels, sizes)
    lookups = os.path.join(res, "lookups.txt")
    if os.path.exists(lookups):
        # the packet side of the same kernels, counted (t0.py compare
        # --lookups rbtree over T0 runs, which lookups.txt names)
        with open(lookups) as f:
            out += ["", "## Instructions per lookup", "",
                    "lookups.txt: the rbtree lookup alone (its T0 cell less the drop cell), x86_64 under",
                    "QEMU TCG, from the T0 runs it names.", "", "```"] + f.read().rstrip("\n").split("\n") + ["```"]
    text = "\n".join(out) + "\n"
    with open(os.path.join(res, "report.md"), "w") as f:
        f.write(text)
    # what a commit message quotes: the table, within 75 columns
    width = max(9, max(len(k) for k, _ in kernels))
    if refresh:
        # load and memory are in report.md: a commit message has 75 columns
        excerpt = ["  intervals %-*s 1-interval commit, ms  timeout update, ms" % (width, "kernel")]
        for c in table:
            excerpt.append("  %-9s %-*s %-22s %s" % (c[0], width, c[1], c[3], c[6]))
    else:
        excerpt = ["  intervals %-*s load (s) 1-interval commit, ms  slab KiB" % (width, "kernel")]
        for c in table:
            excerpt.append("  %-9s %-*s %-8s %-22s %s" % (c[0], width, c[1], c[2], c[3], c[5]))
    # a posting's commit message names no run of the lab: the same table,
    # its last line saying how the samples were taken instead
    posting = excerpt + ["  (User-mode Linux with retpolines, %d boots per kernel, median" % run["boots"],
                         "  [min..max] of %d samples per boot)" % run["reps"]]
    excerpt.append("  (%s/report.md, UML, median [range])" % os.path.basename(os.path.normpath(res)))
    with open(os.path.join(res, "excerpt.txt"), "w") as f:
        f.write("\n".join(excerpt) + "\n")
    with open(os.path.join(res, "excerpt-posting.txt"), "w") as f:
        f.write("\n".join(posting) + "\n")
    # each boot apart: a slow episode of the host moves whole boots, and
    # the medians above pool them; a boot's own median and best show it
    per_boot = []
    for what, key in (("1-interval commit", "commit_s"), ("timeout update", "refresh_s")):
        if key == "refresh_s" and not refresh:
            continue
        per_boot += ["  %s, ms, each boot's median (best)" % what,
                     "  intervals %-*s boots" % (width, "kernel")]
        for n in sizes:
            for k, _ in kernels:
                cells = ["%.1f (%.1f)" % (statistics.median(ms), min(ms))
                         for ms in ([x * 1000 for x in r[key]] for r in rows[k] if r["intervals"] == n)]
                per_boot.append("  %-9s %-*s %s" % (n, width, k, "  ".join(cells)))
        per_boot.append("")
    with open(os.path.join(res, "boots.txt"), "w") as f:
        f.write("\n".join(per_boot))
    print(text)
    return 0


def stream_section(rows, kernels, sizes):
    """The report's lines on --stream (none for a run without it)."""
    if not any("stream" in r for k, _ in kernels for r in rows[k]):
        return []
    k0 = next(r["stream"]["commits"] for k, _ in kernels for r in rows[k] if "stream" in r)
    out = ["", "## Memory under a stream of commits", "",
           "%d commits back to back through one `nft -i` (one transaction a line), after the" % k0,
           "measurements above: new intervals, then timeout updates of one element.  Slab +",
           "VmallocUsed of /proc/meminfo, sampled every 2 ms or so during the stream: its peak",
           "above the level before the stream, and the level a second after it; per boot.", "",
           "| intervals | kernel | stream | commits/s | peak (KiB) | a second after (KiB) |",
           "|---|---|---|---|---|---|"]
    for n in sizes:
        for k, _ in kernels:
            rs = [r["stream"] for r in rows[k] if r["intervals"] == n and "stream" in r]
            for kind in ("add", "update"):
                out.append("| %d | %s | %s | %s | %s | %s |" % (
                    n, k, "new interval" if kind == "add" else "timeout update",
                    "%.0f" % statistics.median(s["commits"] / s[kind]["s"] for s in rs),
                    "/".join(str(s[kind]["peak_kb"]) for s in rs),
                    "/".join(str(s[kind]["after_kb"]) for s in rs)))
    return out


def kernel_spec(text):
    """--kernels: BASE:VARIANT of known bases and variants, or LABEL=DIR of
    a built UML kernel, each once: [(label, directory or None)]."""
    out = []
    for k in text.split(","):
        label, eq, kdir = k.partition("=")
        if eq:
            if not label or "/" in label:
                raise argparse.ArgumentTypeError("not a kernel label: %r (LABEL=DIR, no '/' in LABEL)" % k)
            if not (os.access(os.path.join(kdir, "linux"), os.X_OK) and
                    os.path.isfile(os.path.join(kdir, "BUILD-INFO"))):
                raise argparse.ArgumentTypeError("%s: no UML kernel (linux and BUILD-INFO) in %s" % (label, kdir))
            out.append((label, os.path.abspath(kdir)))
            continue
        base, _, variant = k.partition(":")
        if base not in baselib.names() or variant not in ("baseline", "patched", "stable"):
            raise argparse.ArgumentTypeError(
                "not a kernel: %r (BASE:VARIANT, BASE one of %s, VARIANT baseline, patched or stable;"
                " or LABEL=DIR)" % (k, " ".join(baselib.names())))
        out.append((k, None))
    labels = [label for label, _ in out]
    if len(set(labels)) != len(labels):
        raise argparse.ArgumentTypeError("a kernel named twice: %s" % text)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(usage=__doc__.split("\n")[0][7:])
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--reps", type=int, default=15)
    ap.add_argument("--boots", type=int, default=2)
    ap.add_argument("--stream", type=int, default=0, metavar="K",
                    help="also K back-to-back commits per size, memory sampled (default: none)")
    baselib.add_option(ap, "the base of the default --kernels")
    ap.add_argument("--kernels", type=kernel_spec,
                    help="BASE:VARIANT or LABEL=DIR, comma-separated (default BASE:baseline,BASE:patched)")
    ap.add_argument("--results")
    ap.add_argument("--render", metavar="DIR",
                    help="write DIR/report.md and DIR/excerpt.txt again from DIR's stored runs")
    args = ap.parse_args(argv)
    if args.kernels is None:
        args.kernels = kernel_spec("%s:baseline,%s:patched" % (args.base, args.base))
    if args.render:
        return render(args.render)
    res = args.results or os.path.join(TOP, "build", "results",
                                       rundir.name("commit-cost", args.base))
    os.makedirs(res, exist_ok=True)
    sh("make", "-s", "-C", os.path.join(TOP, "userspace"))
    nftlab = lab.NFTLAB
    kernels = kernels_of({"kernels": [label for label, _ in args.kernels]})
    kdirs = {}
    for k, kdir in args.kernels:
        if kdir:
            print("[commit-cost] kernel %s: %s" % (k, kdir), file=sys.stderr)
            kdirs[k] = kdir
            continue
        base, _, variant = k.partition(":")
        print("[commit-cost] kernel %s: kernel/builder/build --base %s um %s retpoline" % (k, base, variant),
              file=sys.stderr)
        kdirs[k] = sh(lab.KERNEL_BUILD, "--base", base, "um", variant, "retpoline")
    for b in range(1, args.boots + 1):
        for k, d in kernels:
            out = os.path.join(res, "%s-boot%d" % (d, b))
            os.makedirs(out, exist_ok=True)
            print("[commit-cost] %s boot %d of %d" % (k, b, args.boots), file=sys.stderr)
            cmd = ("ip netns add ccost && ip netns exec ccost python3 %s --nftlab %s --sizes %s "
                   "--reps %d --stream %d > $NFTLAB_RESULTS/cost.jsonl" %
                   (os.path.join(lab.SUITE, "guest", "commit-cost.py"), nftlab,
                    args.sizes, args.reps, args.stream))
            with open(os.path.join(out, "console.log"), "w") as con:
                rc = subprocess.run([lab.LAB_RUN, "--kernel", kdirs[k],
                                     "--results", out, "--mem", "2G", "--timeout", "1800", "--",
                                     "bash", "-c", cmd], stdout=con, stderr=subprocess.STDOUT).returncode
            if rc != 0:
                sys.exit("commit-cost: %s boot %d exited %d (%s/console.log)" % (k, b, rc, out))
    for k, d in kernels:
        with open(os.path.join(kdirs[k], "BUILD-INFO")) as src, \
                open(os.path.join(res, "BUILD-INFO-%s" % d), "w") as dst:
            dst.write(src.read())
    with open(os.path.join(res, "run.json"), "w") as f:
        json.dump({"boots": args.boots, "reps": args.reps, "sizes": args.sizes, "stream": args.stream,
                   "kernels": [label for label, _ in args.kernels],
                   "kernel_dirs": kdirs,
                   "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                   "cpu": next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo")
                                if line.startswith("model name")), "?")}, f, indent=1)
    render(res)
    print("results: %s" % res)
    return 0

