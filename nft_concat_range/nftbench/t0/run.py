# SPDX-License-Identifier: GPL-2.0
"""T0's runner: the pktcount plugin, one QEMU boot per kernel, command
line and round (kernel/runner/lab-run), then the report; the symbols the
plugin watches come from t0/symbols.py."""
import argparse
import json
import os
import shutil
import subprocess
import sys

from .. import lab
from ..files import cpu_model, write
from ..lab import SUITE, TOP
from . import cells as t0cells, code as t0code, plot as t0plot, ruleset as t0ruleset
from .symbols import kernel_nm, kernel_symbols, parse_functions


def log(msg):
    print("[t0] %s" % msg, file=sys.stderr, flush=True)


def build_plugin():
    subprocess.run(["make", "-s", "-C", os.path.join(SUITE, "tcg"), "O=%s" % os.path.join(TOP, "build", "tcg")],
                   check=True)
    return os.path.join(TOP, "build", "tcg", "pktcount.so")


def boot_done(bdir, kdir, counts, funcs=False):
    """Whether BDIR holds a finished boot of KDIR with COUNTS (--keep-done),
    counted per function if FUNCS."""
    try:
        with open(os.path.join(bdir, "boot.json")) as f:
            info = json.load(f)
    except (OSError, ValueError):
        return False
    return (info["status"] == 0 and info["kernel"] == kdir and info.get("stamp") == kernel_stamp(kdir)
            and info["counts"] == list(counts) and info.get("funcs", False) == bool(funcs))


def kernel_stamp(kdir):
    """The build stamp of the kernel in KDIR (kernel/builder/build's BUILD-INFO)."""
    return (lab.build_info(kdir) or {}).get("stamp")


def boot(base, rawdir, kdir, syms, plugin, variant, mitigation, rnd, quick, counts, reps, keep_done=False, nft=None,
         only=None, probe=0, funcs=None, rulesets=None):
    """One QEMU boot running every cell of the variant with counted pktgen runs
    (FUNCS: parse_functions(), the plugin then counts per function;
    RULESETS: t0ruleset.load_all(), counted instead of the suite's cells)."""
    name = "%s-%s-r%d" % (variant, mitigation, rnd)
    bdir = os.path.join(rawdir, name)
    if keep_done and boot_done(bdir, kdir, counts, funcs):
        log("boot %s: kept from an earlier run into this directory" % name)
        return 0
    if os.path.isdir(bdir):
        # an unfinished or different boot: its counts must not mix with ours
        shutil.rmtree(bdir)
    os.makedirs(bdir, exist_ok=True)
    ncells = t0cells.write_plan(os.path.join(bdir, "plan"), variant, quick, reps, knob=lab.has_knob(kdir), only=only,
                                probe=probe, rulesets=rulesets)
    symf = os.path.join(bdir, "syms.txt")
    write(symf, "".join("%s %x %x %s\n" % s for s in syms))
    countsf = os.path.join(bdir, "counts.jsonl")
    plugin_args = "%s,syms=%s,out=%s" % (plugin, symf, countsf)
    if funcs:
        funcf = os.path.join(bdir, "funcs.txt")
        write(funcf, "".join("%x %x %s\n" % f for f in funcs))
        plugin_args += ",funcs=%s" % funcf
    env = ["env", "NFTB_COUNTS=%s" % " ".join(str(c) for c in counts)]
    cmd = lab.lab_run(base, "x86_64", kdir, bdir, 300 + 60 * ncells,
                      env + [lab.RUN_PLAN, os.path.join(bdir, "plan"), os.path.join(bdir, "out")],
                      append="spectre_v2=%s nokaslr" % mitigation,
                      qemu_args=("-icount", "shift=0,sleep=off", "-plugin", plugin_args),
                      nft=nft)
    log("boot %s: %d cells x %d counted runs (QEMU TCG)" % (name, ncells, len(counts)))
    # the kernel QEMU loads now: another build may replace it meanwhile
    stamp = kernel_stamp(kdir)
    with open(os.path.join(bdir, "console.log"), "w") as con:
        rc = subprocess.run(cmd, stdout=con, stderr=subprocess.STDOUT).returncode
    if kernel_stamp(kdir) != stamp:
        log("boot %s: the kernel in %s was rebuilt during the boot: not kept" % (name, kdir))
        rc = rc or 1
    info = dict(name=name, variant=variant, mitigation=mitigation, round=rnd, kernel=kdir, status=rc,
                counts=list(counts), stamp=stamp)
    if funcs:
        info["funcs"] = True
    write(os.path.join(bdir, "boot.json"), json.dumps(info, indent=1) + "\n")
    log("boot %s: exit %d" % (name, rc))
    if rc:
        for line in boot_failure(bdir, name, rc):
            log(line)
    return rc


# Console lines shown of a boot that failed.
CONSOLE_TAIL = 25
# kernel/runner/lab-run's own exit statuses.
LAB_RUN_STATUS = {124: "killed: no progress (lab-run --timeout)", 125: "the guest died (no exit status from it:"
                  " a panic, or a kernel that does not boot)"}


def boot_failure(bdir, name, rc, n=CONSOLE_TAIL):
    """What a failed boot's log says: its status and the last N lines of
    BDIR/console.log (a kernel that does not boot panics there)."""
    path = os.path.join(bdir, "console.log")
    try:
        with open(path, errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        lines = []
    out = ["boot %s failed: %s" % (name, LAB_RUN_STATUS.get(rc, "exit %d" % rc))]
    if not lines:
        return out + ["  (no console output in %s)" % path]
    out.append("  the console's last %d lines (%s):" % (min(n, len(lines)), path))
    return out + ["  | " + ln for ln in lines[-n:]]


def write_code(t0dir, rawdir, kdirs, funcs):
    """t0/code.json (t0/code.py) from the kernels the boots ran, where they
    are still the ones built then."""
    booted = {}
    for name in os.listdir(rawdir):
        try:
            with open(os.path.join(rawdir, name, "boot.json")) as f:
                info = json.load(f)
        except (OSError, ValueError):
            continue
        booted.setdefault(info["variant"], set()).add(info.get("stamp"))
    kernels = {}
    for v, kdir in kdirs.items():
        if not kdir:
            continue
        stamp = kernel_stamp(kdir)
        if booted.get(v) != {stamp}:
            log("code.json: %s is not the kernel every %s boot ran (stamps %s): its code is not recorded"
                % (kdir, v, ", ".join(sorted(str(b) for b in booted.get(v, ())))))
            continue
        kernels[v] = (os.path.join(kdir, "vmlinux"), funcs[v], stamp)
    log("code.json: digests of the functions counted, per kernel (t0/code.py)")
    with open(os.path.join(t0dir, "t0.json")) as f:
        t0code.write(t0dir, json.load(f), kernels)


def code(args):
    """t0.py code: t0/code.json of a stored run, from the kernels named."""
    t0dir = os.path.join(args.results, "t0")
    with open(os.path.join(t0dir, "t0.json")) as f:
        t0 = json.load(f)
    run = t0["run"]
    if not run.get("per_function"):
        raise SystemExit("t0 code: %s was not counted per function (t0.py run --per-function)" % args.results)
    kernels = {}
    for arg in args.kernels:
        v, eq, kdir = arg.partition("=")
        if not eq or v not in run["variants"]:
            raise SystemExit("t0 code: '%s' is not VARIANT=KDIR with a variant of the run (%s)"
                             % (arg, ",".join(run["variants"])))
        vmlinux = os.path.join(kdir, "vmlinux")
        if not os.path.isfile(vmlinux):
            raise SystemExit("t0 code: %s has no vmlinux" % kdir)
        kernels[v] = (vmlinux, parse_functions(kernel_nm(vmlinux)), kernel_stamp(kdir))
    code = t0code.write(t0dir, t0, kernels)
    for v, c in sorted(code.items()):
        print("%s: %d functions, kernel stamp %s" % (v, len(c["functions"]), c["stamp"]))
    return 0


def base_version(kdirs):
    """The base package and version the kernels were built from (their
    BUILD-INFO's base: line), or None when none was built."""
    seen = {(lab.build_info(k) or {}).get("base") for k in kdirs.values() if k}
    seen.discard(None)
    if len(seen) > 1:
        raise SystemExit("t0: kernels of different bases in one run: %s" % ", ".join(sorted(seen)))
    return seen.pop() if seen else None


def kernel_arg(text):
    """--kernel VARIANT=KDIR: (variant, kdir), KDIR a built kernel."""
    variant, eq, kdir = text.partition("=")
    if not eq or not variant or not os.path.isfile(os.path.join(kdir, "vmlinux")):
        raise argparse.ArgumentTypeError("--kernel takes VARIANT=KDIR, KDIR a kernel directory with a vmlinux,"
                                         " not '%s'" % text)
    return variant, os.path.abspath(kdir)


def label_arg(text):
    """--label VARIANT=TEXT: (variant, text)."""
    variant, eq, label = text.partition("=")
    if not eq or not variant or not label.strip():
        raise argparse.ArgumentTypeError("--label takes VARIANT=TEXT, not '%s'" % text)
    return variant, label.strip()


def run(args):
    """t0.py run: every boot of ARGS (see t0/cli.py), then the report."""
    variants = args.variants.split(",")
    labels = dict(args.label)
    for v in labels:
        if v not in variants:
            raise SystemExit("t0: --label names variant '%s', which this run does not boot (--variants %s)"
                             % (v, args.variants))
    rulesets = None
    if args.ruleset or args.packets:
        if not args.ruleset:
            raise SystemExit("t0: --packets without --ruleset: the suite's cells send their own packets")
        bad = [o for o, v in (("--quick", args.quick), ("--cells", args.cells), ("--seed-probe", args.seed_probe))
               if v]
        if bad:
            raise SystemExit("t0: --ruleset counts the rulesets instead of the suite's cells: %s does not apply"
                             % ", ".join(bad))
        if not args.packets:
            raise SystemExit("t0: --ruleset needs --packets SPEC (e.g. daddr=10.0.0.1,dport=22): the packet to"
                             " count")
        rulesets = t0ruleset.load_all(args.ruleset, args.packets)
    t0dir = os.path.join(args.results, "t0")
    rawdir = os.path.join(t0dir, "raw")
    os.makedirs(rawdir, exist_ok=True)
    if rulesets:
        t0ruleset.save_texts(t0dir, rulesets)
    plugin = build_plugin()
    mitigations = args.mitigations.split(",")
    counts = t0cells.COUNTS
    only = args.cells.split(",") if args.cells else None
    failed = 0
    kdirs, syms, funcs = {}, {}, {}
    given = dict(getattr(args, "kernel", None) or ())
    for v in given:
        if v not in variants:
            raise SystemExit("t0: --kernel names variant '%s', which this run does not boot (--variants %s)"
                             % (v, args.variants))
    for v in variants:
        # --kernel VARIANT=KDIR: a kernel built elsewhere (t0.py patch)
        kdirs[v] = given.get(v) or lab.kernel_dir(args.base, "x86_64", v, "retpoline", args.build)
        if not kdirs[v]:
            log("x86_64 %s kernel not available: its boots are not run" % v)
        else:
            # what the plugin watches depends on the kernel image only
            vmlinux = os.path.join(kdirs[v], "vmlinux")
            nm_text = kernel_nm(vmlinux)
            syms[v] = kernel_symbols(vmlinux, nm_text)
            if args.per_function:
                # the plugin's funcs=PATH list
                funcs[v] = parse_functions(nm_text)
    for rnd in range(1, args.rounds + 1):
        for v in variants:
            for m in mitigations:
                if kdirs[v]:
                    failed += boot(args.base, rawdir, kdirs[v], syms[v], plugin, v, m, rnd, args.quick, counts, args.reps,
                                   args.keep_done, args.nft, only, args.seed_probe, funcs.get(v), rulesets) != 0
    info = dict(
        quick=args.quick, rounds=args.rounds, reps=args.reps, variants=variants, mitigations=mitigations,
        counts=list(counts), cpu=cpu_model(), kernels={v: kdirs[v] for v in variants},
        knob={v: lab.has_knob(kdirs[v]) for v in variants if kdirs[v]},
        base=args.base, base_version=base_version(kdirs), nft=args.nft, cells=only,
        seed_probe=args.seed_probe, labels=labels)
    if args.per_function:
        info["per_function"] = True
    if rulesets:
        info["rulesets"] = [t0ruleset.stored(r) for r in rulesets]
    write(os.path.join(t0dir, "run.json"), json.dumps(info, indent=1) + "\n")
    rc = t0cells.report(args.results)
    if args.per_function:
        write_code(t0dir, rawdir, kdirs, funcs)
        # the chart of where the instructions go (t0/plot.py)
        svg, why = t0plot.categories_svg(t0dir, [args.results])
        log("chart: %s" % (svg or "none: %s" % why))
    print("\nresults: %s" % os.path.join(t0dir, "t0.md"))
    return 1 if failed or rc else 0


