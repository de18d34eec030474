#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Finds the kernel's own bug reports in a guest console log.

Usage: splats.py [--config KERNEL_CONFIG] CONSOLE_LOG OUTDIR [KMEMLEAK_REPORT]

One TAP line per checker the kernel has (KASAN, KCSAN, lockdep, RCU,
atomic sleep, list debugging, WARN/BUG, kmemleak): ok when the log has no
report of that checker.  KCSAN is the exception: a data race whose report
names no netfilter function (nft_*, nf_*, nfnetlink*) is outside what the
lab tests (pktgen's own statistics, the scheduler) and is kept and
counted, not failed.  A report listed in KNOWN (a kernel bug outside
netfilter, named and explained there) makes its checker's line a TODO,
not a pass.  With --config, a checker whose option the kernel's
.config lacks gets no line (a check that cannot fail is not a pass); the
WARN/BUG/Oops and RCU stall reports every kernel makes are always checked.  Every report
found is written to OUTDIR/splat-N.txt (the report's first line and the 60
lines after it) and listed in OUTDIR/splats.json, so a failed run keeps its
evidence.  The lines fault injection prints for the failures it was asked
to inject are not reports.
"""
import json
import os
import re
import runpy
import sys

runpy.run_path(os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..", "lib", "bootstrap.py"))
from tap import Tap, done  # noqa: E402

# checker -> the option that makes the kernel report it (None: every kernel)
OPTIONS = {"KASAN": "CONFIG_KASAN", "KCSAN": "CONFIG_KCSAN", "lockdep": "CONFIG_PROVE_LOCKING", "RCU": None,
           "atomic sleep": "CONFIG_DEBUG_ATOMIC_SLEEP", "list debugging": "CONFIG_DEBUG_LIST",
           "WARN/BUG/Oops": None}
# checker -> patterns of the first line of its reports
CHECKERS = [
    ("KASAN", [r"BUG: KASAN: ", r"BUG: KFENCE: "]),
    ("KCSAN", [r"BUG: KCSAN: "]),
    ("lockdep", [r"WARNING: possible circular locking dependency",
                 r"WARNING: possible recursive locking",
                 r"WARNING: inconsistent lock state",
                 r"WARNING: possible irq lock inversion",
                 r"WARNING: bad unlock balance",
                 r"WARNING: held lock freed",
                 r"WARNING: lock held when returning to user space",
                 r"BUG: MAX_LOCKDEP", r"DEBUG_LOCKS_WARN_ON"]),
    ("RCU", [r"WARNING: suspicious RCU usage", r"rcu: INFO: .* detected stalls",
             r"self-detected stall on CPU"]),
    ("atomic sleep", [r"BUG: sleeping function called from invalid context",
                      r"BUG: scheduling while atomic"]),
    ("list debugging", [r"list_add corruption", r"list_del corruption"]),
    ("WARN/BUG/Oops", [r"------------\[ cut here \]------------", r"kernel BUG at ",
                       r"Oops: ", r"general protection fault", r"BUG: unable to handle",
                       r"Kernel panic", r"UBSAN: "]),
]
KMEMLEAK = r"unreferenced object 0x"
# Reports of kernel bugs outside netfilter that the lab's kernels show:
# (checker, pattern of the report's first lines, pattern of its stack,
# whether only before the boot ended (BOOT_END), why).
KNOWN = [
    ("RCU", r"Callback enqueued on offline CPU", r"os_start_secondary", False,
     "7.3 UML SMP boot: os_start_secondary() kfree()s its data before the CPU "
     "is online (arch/um/os-Linux/smp.c) and kmemleak's free path calls "
     "call_rcu(); not netfilter"),
    ("RCU", r"rcu_sched detected stalls", r"Stopper: multi_cpu_stop", True,
     "x86_64 debug kernel under QEMU TCG, at boot: a stall reported while "
     "stop_machine() switches the clocksource to the refined TSC "
     "(timekeeping_notify()), in 2 of its 3 boots with 2 vCPUs so far, before any "
     "test; not netfilter"),
    # A stall at the same point of the boot (right after the refined TSC
    # is registered, before the switch to it), reported from the other
    # side: every CPU had passed its quiescent state and the
    # grace-period kthread, runnable, had not run (smp-debug's 6.12 KASAN
    # kernel on 2026-12-07, on a nearly idle host).
    ("RCU", r"rcu_sched kthread starved for \d+ jiffies", r"All QSes seen", True,
     "x86_64 debug kernel under QEMU TCG, at boot: the grace-period kthread "
     "starved while the clocksource switches to the refined TSC, every CPU's "
     "quiescent state seen, before any test; not netfilter"),
]
# The kernel frees its init memory just before it starts init.
BOOT_END = re.compile(r"Freeing unused kernel image")
NETFILTER = re.compile(r"\b(nft_|nf_|nfnetlink|nfnl_|__nft_|__nf_)")
# A KCSAN report ends with a line of "=" (it starts after one).
KCSAN_END = re.compile(r"^\s*(\[[^]]*\]\s*)?={20,}\s*$")


def in_netfilter(lines, i):
    """Whether the KCSAN report at line I names a netfilter function."""
    for j, line in enumerate(lines[i:i + 80]):
        if NETFILTER.search(line):
            return True
        if j and KCSAN_END.search(line):
            return False
    return False


def scan(lines):
    found = []
    for i, line in enumerate(lines):
        for checker, pats in CHECKERS:
            if any(re.search(p, line) for p in pats):
                found.append((checker, i))
                break
    return found


def enabled(config_path):
    """The checkers a kernel .config has (all of them without a config)."""
    if not config_path:
        return [c for c, _ in CHECKERS]
    with open(config_path) as f:
        opts = {line.split("=")[0] for line in f if line.rstrip().endswith("=y")}
    return [c for c, _ in CHECKERS if OPTIONS[c] is None or OPTIONS[c] in opts]


def known_reason(checker, lines, i, end, boot_end):
    """Why the report at line I (which ends before line END, the next
    report's; the boot ended at line BOOT_END) is a known bug outside
    netfilter, or None (also when the report names a netfilter function)."""
    # at most the lines a splat file keeps (a stall's NMI backtraces come late)
    text = "\n".join(lines[i:min(i + 60, end)])
    if NETFILTER.search(text):
        return None
    booted = i > boot_end
    for c, first, stack, boot_only, why in KNOWN:
        if boot_only and booted:
            continue
        if c == checker and re.search(first, text) and re.search(stack, text):
            return why
    return None


def main(argv):
    config = None
    if len(argv) > 2 and argv[1] == "--config":
        config = argv[2]
        argv = argv[:1] + argv[3:]
    if len(argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    log, outdir = argv[1], argv[2]
    with open(log, errors="replace") as f:
        lines = f.read().splitlines()
    leak_lines, leak_missing = [], False
    if len(argv) == 4:
        if os.path.exists(argv[3]):
            with open(argv[3], errors="replace") as f:
                leak_lines = f.read().splitlines()
        else:
            leak_missing = True
    os.makedirs(outdir, exist_ok=True)
    found = scan(lines)
    boot_end = next((n for n, line in enumerate(lines) if BOOT_END.search(line)), len(lines))
    reports = []
    for n, (checker, i) in enumerate(found, 1):
        path = os.path.join(outdir, "splat-%d.txt" % n)
        with open(path, "w") as f:
            f.write("\n".join(lines[i:i + 61]) + "\n")
        r = {"checker": checker, "line": i + 1, "first": lines[i].strip(),
             "file": os.path.basename(path)}
        if checker == "KCSAN":
            r["netfilter"] = in_netfilter(lines, i)
        end = found[n][1] if n < len(found) else len(lines)
        why = known_reason(checker, lines, i, end, boot_end)
        if why:
            r["known"] = why
        reports.append(r)
    leaks = [i for i, line in enumerate(leak_lines) if re.search(KMEMLEAK, line)]
    for n, i in enumerate(leaks, len(reports) + 1):
        path = os.path.join(outdir, "splat-%d.txt" % n)
        with open(path, "w") as f:
            f.write("\n".join(leak_lines[i:i + 30]) + "\n")
        reports.append({"checker": "kmemleak", "line": i + 1, "first": leak_lines[i].strip(),
                        "file": os.path.basename(path)})
    with open(os.path.join(outdir, "splats.json"), "w") as f:
        json.dump({"console": log, "lines": len(lines), "reports": reports}, f, indent=1)
    tap = Tap()
    names = enabled(config) + (["kmemleak"] if len(argv) == 4 else [])
    off = [c for c, _ in CHECKERS if c not in names]
    if off:
        print("# not in this kernel, not checked: %s" % ", ".join(off))
    def judged(r):
        return r.get("netfilter", True) and "known" not in r

    for checker in names:
        mine = [r for r in reports if r["checker"] == checker and judged(r)]
        known = [r for r in reports if r["checker"] == checker and "known" in r]
        if checker == "KCSAN":
            other = [r for r in reports if r["checker"] == checker and not r["netfilter"]]
            print("# KCSAN reports naming no netfilter function (kept, not judged): %d%s" % (
                len(other), "" if not other else ", first: %s (%s)" % (other[0]["first"][:100],
                                                                      other[0]["file"])))
        desc = "kernel: no %s report in the guest log%s" % (
            checker, "" if not mine else " (%d, first: %s; %s)" % (len(mine), mine[0]["first"][:120],
                                                                  mine[0]["file"]))
        if known and not mine:
            tap.todo(desc, known[0]["known"], "%d known report(s), first: %s" % (len(known),
                                                                                known[0]["file"]))
        else:
            tap.ok(not mine, desc)
    if leak_missing:
        tap.ok(False, "debug kernel: the guest wrote its kmemleak scan (%s)" % argv[3])
    done(tap)
    return 1 if any(judged(r) for r in reports) or leak_missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
