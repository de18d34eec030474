# SPDX-License-Identifier: GPL-2.0
"""T0's runner: the pktcount plugin, the symbols it watches, one QEMU boot
per kernel, command line and round (kernel/runner/lab-run), then the report."""
import argparse
import json
import os
import shutil
import re
import subprocess
import sys

from . import lab
from .files import cpu_model, write
from .lab import SUITE, TOP
from . import t0cells, t0code, t0plot, t0ruleset


# Symbols of the kernel the plugin counts (regular expressions on nm names).
THUNK_RE = re.compile(r"^(__x86_indirect_(call_|jump_|its_)?thunk_\w+|__x86_return_thunk|(?!__pfx_)\w+_return_thunk)$")
COUNT_RE = re.compile(r"^(nft_do_chain\w*|nf_hook_slow|__dev_queue_xmit|nft_lookup_eval|nft_dynset_eval"
                      r"|__?nft_set_do_lookup|nft_(hash|rhash|bitmap|rbtree|pipapo)\w*_(lookup|update|delete)\w*"
                      r"|nft_pipapo_avx2_lookup|nft_objref\w*_eval|nft_counter_eval|nft_immediate_eval"
                      r"|nft_counter_obj_eval|ipv4_conntrack_(in|defrag)"
                      # 7.3's rbtree lookup: lib/bsearch.c and its comparators
                      r"|bsearch|nft_array_\w+_cmp)$")
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


def kernel_nm(vmlinux):
    """`nm -S --defined-only VMLINUX`: the text both kernel_symbols() and
    parse_functions() read."""
    return subprocess.run(["nm", "-S", "--defined-only", vmlinux], check=True,
                          capture_output=True, text=True).stdout


def kernel_symbols(vmlinux, nm_text):
    """[(kind, addr, size, name)] for the plugin, from the kernel's symbol
    table (NM_TEXT: kernel_nm(VMLINUX))."""
    syms, pktgen, stubs = {}, [], []
    for line in nm_text.splitlines():
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


# --per-function: every function of the kernel's text, from nm's types
# t/T (local, global) and w/W (weak).
FUNC_TYPES = "tTwW"
# The order in which aliases at one address are named: the widest first
# (nothing is lost), then not an "_array" alias (__x86_indirect_thunk_array
# starts with _rax, as in kernel_symbols()), then global before local, then
# by name.
FUNC_BIND = {"T": 0, "W": 1, "t": 2, "w": 3}


def parse_functions(text):
    """[(addr, size, name)] from `nm -S --defined-only` TEXT: every text
    symbol with a size, one name per address, ranges that do not overlap
    (a symbol that starts inside another's range ends it there; a
    zero-size symbol holds no instruction)."""
    best = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) != 4 or parts[2] not in FUNC_TYPES:
            continue
        addr, size, typ, name = int(parts[0], 16), int(parts[1], 16), parts[2], parts[3]
        if not size:
            continue
        key = (-size, name.endswith("_array"), FUNC_BIND[typ], name)
        if addr not in best or key < best[addr][0]:
            best[addr] = (key, size, name)
    out = []
    for addr in sorted(best):
        _, size, name = best[addr]
        if out and out[-1][0] + out[-1][1] > addr:
            out[-1] = (out[-1][0], addr - out[-1][0], out[-1][2])
        out.append((addr, size, name))
    return out


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


def boot(rawdir, kdir, syms, plugin, variant, mitigation, rnd, quick, counts, reps, keep_done=False, nft=None,
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
    cmd = lab.lab_run("x86_64", kdir, bdir, 300 + 60 * ncells,
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
    """t0/code.json (t0code.py) from the kernels the boots ran, where they
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
    log("code.json: digests of the functions counted, per kernel (t0code.py)")
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
    """t0.py run: every boot of ARGS (see cli.t0_main), then the report."""
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
    # kernel/builder/build and lab-run take the base from the environment
    os.environ["NFTLAB_BASE"] = args.base
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
        kdirs[v] = given.get(v) or lab.kernel_dir("x86_64", v, "retpoline", args.build)
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
                    failed += boot(rawdir, kdirs[v], syms[v], plugin, v, m, rnd, args.quick, counts, args.reps,
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
        # the chart of where the instructions go (t0plot.py)
        svg, why = t0plot.categories_svg(t0dir, [args.results])
        log("chart: %s" % (svg or "none: %s" % why))
    print("\nresults: %s" % os.path.join(t0dir, "t0.md"))
    return 1 if failed or rc else 0


