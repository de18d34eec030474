# SPDX-License-Identifier: GPL-2.0
"""smp-noise - does a second vCPU change the lab's timing noise?

7.3's UML has SMP, but only with its seccomp userspace (seccomp=on; its
default ptrace userspace refuses ncpus>1).  Timing in the lab runs on one
vCPU under ptrace; this measures whether either change, the seccomp
userspace or the second vCPU, changes the spread of the samples, before
anyone times that way.  One kernel (the base's UML retpoline kernel of
VARIANT; patched by default, the one make check keeps built),
T1's cells (every set type: the drop cell and one lookup per backend),
three settings (SETTINGS: ptrace on 1 vCPU, seccomp on 1, seccomp on 2),
BOOTS boots each, in rotating order so that a drift of the host hits all
alike.  Per cell:
the coefficient of variation of its samples within a boot (the repetitions)
and across all boots of a setting; the report gives the median over the
cells for each setting, and the cc1 processes and steal seen at each boot
(a compiler beside the run makes the figures meaningless, and the report
says so).

--settings compares other ways of running the same guest (issue 26, the
suspects of T1's noise), the first one listed being the reference:
%s.

Usage: nft_concat_range/smp-noise [--base 7.3] [--variant patched|baseline]
           [--settings NAME,NAME,...] [--boots N per setting] [--reps N]
           [--duration S] [--results DIR]
       nft_concat_range/smp-noise --render DIR   (report.md again from results.json)
       nft_concat_range/smp-noise --reanalyse DIR   (results.json and report.md
           again from DIR/raw/, with this version's analysis)
Results: DIR/results.json and DIR/report.md (default
build/results/smp-noise-<base>-<UTC>).  Whether a setting is noisier than
the first (the lab's): per cell, is its CV across boots higher; a
two-sided sign test over the cells says whether the count differs from
chance.

This module is the code of the command nft_concat_range/smp-noise
(console script nftbench-smp-noise).
"""
import argparse
import collections
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import threading

import bases as baselib  # lib/bases.py
import rundir  # lib/rundir.py

from . import guestlog, lab
from .files import cpu_model, write
from .host import cpu_ticks, guest_timeout, host_load, tee
from .model import DEV, DEFAULT_T2_LOOKUPS
from .plans import write_plan
from .render import render_table
from .stats import binom_cdf, mean, median, stdev

# How a setting runs the guest.  cpus: vCPUs (lab-run adds seccomp=on
# itself for more than one).  append: extra kernel command line.
# pinned: lab-run and so every process of the guest (UML's kernel process
# and the processes it runs the guest's userspace in) run with the
# affinity of the host's last CPU (taskset), so that they never move
# between CPUs.  duration: seconds per sample (None: --duration).  huge:
# UML's memory, a file in its tempdir (/dev/shm unless TMPDIR says
# otherwise: arch/um/os-Linux/mem.c), lives on a tmpfs of its own mounted
# with huge=always, so that the host backs it with 2 MB pages where it
# can: with 4 kB pages, which host pages hold the guest (and so which
# cache sets and TLB entries its data share) is new at every boot.
# same_order: every boot runs the cells in the same order (the plan's
# shuffle seeded alike) instead of an order of its own, so that what ran
# before a cell, and what the guest allocated before it, repeats.
# reload: each repetition sets its group up anew (dummy device, table and
# sets created again).  The hypothesis it tests: where the guest's sets,
# rules and device land in its memory makes the spread across boots; if
# new allocations land elsewhere, the spread within a boot grows to
# match it.  Neither is controlled: the guest's allocators may hand the
# freed memory straight back (nf_tables frees the old table later), the
# host pages behind the guest stay, and every repetition now starts
# right after a set load.  burst: pktgen's burst (packets per
# skb handed to netif_receive_skb() in a row; None: the guest's default,
# NFTB_BURST in guest/run-plan).
Setting = collections.namedtuple("Setting", "cpus append pinned duration huge same_order reload burst",
                                 defaults=(None, False, None, False, False, False, None))
SETTINGS = {
    "ptrace, 1 vCPU": Setting(1),
    "seccomp, 1 vCPU": Setting(1, append="seccomp=on"),
    "seccomp, 2 vCPUs": Setting(2),
    "ptrace, 1 vCPU, pinned": Setting(1, pinned=True),
    "ptrace, 1 vCPU, 2 s samples": Setting(1, duration="2"),
    "ptrace, 1 vCPU, huge pages": Setting(1, huge=True),
    "ptrace, 1 vCPU, same cell order": Setting(1, same_order=True),
    "ptrace, 1 vCPU, sets anew per repetition": Setting(1, reload=True),
    "ptrace, 1 vCPU, pktgen burst 100": Setting(1, burst=100),
    # UML's idle and timer: NO_HZ_IDLE stops the tick while the guest is
    # idle (between samples); nohz=off keeps it periodic throughout
    "ptrace, 1 vCPU, nohz=off": Setting(1, append="nohz=off"),
}
# --settings' names for them (the names above have commas)
SETTING_IDS = {"ptrace": "ptrace, 1 vCPU", "seccomp": "seccomp, 1 vCPU", "seccomp2": "seccomp, 2 vCPUs",
               "pinned": "ptrace, 1 vCPU, pinned", "2s": "ptrace, 1 vCPU, 2 s samples",
               "huge": "ptrace, 1 vCPU, huge pages", "order": "ptrace, 1 vCPU, same cell order",
               "reload": "ptrace, 1 vCPU, sets anew per repetition", "burst": "ptrace, 1 vCPU, pktgen burst 100",
               "nohz": "ptrace, 1 vCPU, nohz=off"}
# the plan seed of every boot of a same_order setting
SAME_ORDER_SEED = 1
# The huge tmpfs holds the guest's memory, lab-run's default --mem 1G
# (smp-noise passes no --mem), and some room; a guest larger than the
# tmpfs would die of SIGBUS on its first touch beyond it.
HUGE_TMPFS_SIZE = "1536M"
# issue 23's run: whether SMP changes the noise
DEFAULT_SETTINGS = ("ptrace, 1 vCPU", "seccomp, 1 vCPU", "seccomp, 2 vCPUs")
__doc__ = __doc__ % ", ".join("%s (%s)" % i for i in SETTING_IDS.items())


def cv(xs):
    """Coefficient of variation in percent (None below two samples)."""
    return 100.0 * stdev(xs) / mean(xs) if len(xs) > 1 and mean(xs) else None


def shmem_huge_kb():
    """The host's shmem in transparent huge pages, kB (/proc/meminfo)."""
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("ShmemHugePages:"):
                return int(line.split()[1])
    return 0


@contextlib.contextmanager
def huge_tmpdir():
    """A tmpfs mounted with huge=always on a directory of its own, for the
    duration of one boot.  Yields the directory, a list that gets how far
    the host's shmem in huge pages (kB) rose above its value before the
    mount, at its peak over the boot, sampled every second (the proof
    that the guest's memory got them), and that value before (printed
    too: nothing else on a lab host should hold huge shmem)."""
    before = shmem_huge_kb()
    peak = [0]
    done = threading.Event()

    def sample():
        while not done.wait(1.0):
            peak[0] = max(peak[0], shmem_huge_kb() - before)

    try:
        d = tempfile.mkdtemp(prefix="nftlab-huge.", dir="/run")
    except OSError as e:
        raise SystemExit("smp-noise: the setting huge needs root: cannot create its mount point in /run (%s)" % e)
    try:
        subprocess.run(["mount", "-t", "tmpfs", "-o", "huge=always,size=%s,mode=0700" % HUGE_TMPFS_SIZE,
                        "nftlab-huge", d], check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        os.rmdir(d)
        raise SystemExit("smp-noise: cannot mount a huge=always tmpfs on %s (%s): the setting huge needs root"
                         " and a kernel with transparent huge pages in shmem" % (d, e))
    t = threading.Thread(target=sample, daemon=True)
    t.start()
    try:
        yield d, peak, before
    finally:
        done.set()
        t.join()
        # a guest process that outlives lab-run keeps the mount busy: detach it
        if subprocess.run(["umount", d], check=False).returncode:
            subprocess.run(["umount", "--lazy", d], check=False)
        try:
            os.rmdir(d)
        except OSError as e:
            print("smp-noise: %s left behind: %s" % (d, e), file=sys.stderr)


def boot(args, kdir, res, n, name):
    if SETTINGS[name].huge:
        with huge_tmpdir() as (d, peak, before):
            b = boot_in(args, kdir, res, n, name, {"TMPDIR": d})
        b["shmem_huge_kb"] = peak[0]
        b["shmem_huge_kb_before"] = before
        return b
    return boot_in(args, kdir, res, n, name, {})


def boot_dir(res, n, name):
    """The raw directory of boot N (setting NAME) of the run in RES."""
    return os.path.join(res, "raw", "b%d-%s" % (n, name.replace(", ", "-").replace(" ", "")))


def boot_pps(bdir, n, role):
    """[(cell, pps)] of the samples of the boot whose raw directory is BDIR,
    in the order the guest ran them; pps None for an invalid one."""
    out = guestlog.read_out(os.path.join(bdir, "out"), n, role)
    return [(s["cell"], float(s["pps"]) if s.get("valid") and s.get("pps") else None) for s in out["samples"]]


def by_cell(samples):
    """{cell: [pps of its valid samples]} of boot_pps()'s SAMPLES."""
    pps = {}
    for c, p in samples:
        if p is not None:
            pps.setdefault(c, []).append(p)
    return pps


# timeline(): a sample below a fraction of its cell's median (over the
# boots of its setting) gets the mark of the first fraction it is below,
# FAST if none, INVALID if it is not valid.
TIMELINE_MARKS = ((0.85, "#"), (0.93, "+"))
FAST = "."
INVALID = "x"


def timeline(samples, medians):
    """One character per sample of a boot, in the order it ran: how far
    below its cell's median the sample is (TIMELINE_MARKS).  Episodes of
    slow samples in a row are time, not the cells."""
    out = []
    for c, p in samples:
        if p is None or c not in medians:
            out.append(INVALID)
            continue
        r = p / medians[c]
        out.append(next((m for lim, m in TIMELINE_MARKS if r < lim), FAST))
    return "".join(out)


def boot_in(args, kdir, res, n, name, env):
    st = SETTINGS[name]
    duration = st.duration or args.duration
    bdir = boot_dir(res, n, name)
    os.makedirs(bdir, exist_ok=True)
    samples = write_plan(args.role, ["T1"], args.reps, duration, SAME_ORDER_SEED if st.same_order else n, DEV,
                         DEFAULT_T2_LOOKUPS, False, os.path.join(bdir, "plan"), reload=st.reload)
    load = host_load(name)
    st0, tt0 = cpu_ticks()
    cmd = lab.lab_run(args.base, "um", kdir, res, guest_timeout(samples, duration, "um"),
                      ["env", "NFTB_DURATION=%s" % duration, "NFTB_NFTLAB=%s" % lab.NFTLAB]
                      + (["NFTB_BURST=%d" % st.burst] if st.burst else [])
                      + [lab.RUN_PLAN, os.path.join(bdir, "plan"), os.path.join(bdir, "out")],
                      append=st.append, cpus=st.cpus, nft="host")
    if st.pinned:
        cmd = ["taskset", "-c", str(max(os.sched_getaffinity(0)))] + cmd
    if env:
        cmd = ["env"] + ["%s=%s" % kv for kv in sorted(env.items())] + cmd
    print("[smp-noise] boot %d: %s, %d samples, load %s, %d cc1" % (n, name, samples, load["load"], load["cc1"]),
          file=sys.stderr, flush=True)
    rc = tee(cmd, os.path.join(bdir, "console.log"))
    st1, tt1 = cpu_ticks()
    samples = boot_pps(bdir, n, args.role)
    steal = 100.0 * (st1 - st0) / max(1, tt1 - tt0)
    return dict(boot=n, setting=name, status=rc, load=load, steal_pct=round(steal, 2), samples=samples)


def analyse(boots, settings):
    """{setting: {cells: {cell: {within: [CV per boot], across: CV,
    boot_means: CV, boot_best: CV}}}, the medians over the cells}.
    boot_means: the CV of the cell's mean in each boot, the figure a
    comparison that takes the boot as its unit depends on (a setting that
    averages over more of what changes between boots lowers it).
    boot_best: the CV of the cell's fastest sample in each boot.  What
    disturbs a sample (the host, another guest, the guest itself) can
    only slow it, so the fastest of a boot's samples is the one least
    disturbed; if the spread is such disturbances, this CV is far below
    the others."""
    out = {}
    for name in settings:
        mine = [dict(b, pps=by_cell(b["samples"])) for b in boots if b["setting"] == name and b["status"] == 0]
        cells = sorted({c for b in mine for c in b["pps"]})
        per = {}
        medians = {}
        for c in cells:
            pooled = [p for b in mine for p in b["pps"].get(c, [])]
            medians[c] = median(pooled)
            within = [cv(b["pps"][c]) for b in mine if c in b["pps"]]
            across = cv(pooled)
            means = cv([mean(b["pps"][c]) for b in mine if b["pps"].get(c)])
            best = cv([max(b["pps"][c]) for b in mine if b["pps"].get(c)])
            per[c] = dict(within=[w for w in within if w is not None], across=across, boot_means=means,
                          boot_best=best)
        within_all = [median(v["within"]) for v in per.values() if v["within"]]
        across_all = [v["across"] for v in per.values() if v["across"] is not None]
        means_all = [v["boot_means"] for v in per.values() if v["boot_means"] is not None]
        best_all = [v["boot_best"] for v in per.values() if v["boot_best"] is not None]
        lines = {str(b["boot"]): timeline(b["samples"], medians) for b in mine}
        out[name] = dict(boots=len(mine), cells=per, timelines=lines,
                         median_within=median(within_all) if within_all else None,
                         median_across=median(across_all) if across_all else None,
                         median_boot_means=median(means_all) if means_all else None,
                         median_boot_best=median(best_all) if best_all else None)
    return out


def sign_test(res, ref_name, name, key="across"):
    """(cells where NAME's CV KEY (across boots, or that of the boot
    bests) is above REF_NAME's, cells compared, two-sided sign-test p)."""
    ref = res[ref_name]["cells"]
    mine = res[name]["cells"]
    diffs = [mine[c][key] - ref[c][key] for c in ref
             if c in mine and ref[c][key] is not None and mine[c][key] is not None
             and mine[c][key] != ref[c][key]]
    n = len(diffs)
    higher = sum(d > 0 for d in diffs)
    return higher, n, min(1.0, 2 * binom_cdf(min(higher, n - higher), n)) if n else None


def render(run, res):
    # runs before --settings compared the default settings
    settings = run.get("settings", DEFAULT_SETTINGS)
    # runs before the boot means were analysed render as they were
    means = all("median_boot_means" in res[name] for name in settings)
    rows = []
    for name in settings:
        a = res[name]
        f = (lambda x: "-" if x is None else "%.1f %%" % x)
        rows.append([name, str(a["boots"]), str(len(a["cells"])), f(a["median_within"]), f(a["median_across"])]
                    + ([f(a["median_boot_means"]), f(a["median_boot_best"])] if means else []))
    # the default settings keep the words of the runs made before --settings
    default = tuple(settings) == DEFAULT_SETTINGS
    title = ("SMP and timing noise: one UML kernel, ptrace or seccomp userspace, 1 or 2 vCPUs" if default
             else "Timing noise: one UML kernel, run %d ways" % len(settings))
    column = "userspace, vCPUs" if default else "setting"
    own = "" if default else " (unless the setting says otherwise)"
    head = ([column, "boots", "cells", "median CV within a boot", "median CV across boots"] if not means else
            [column, "boots", "cells", "within a boot", "across boots", "boot means", "boot bests"])
    out = [title, "",
           "  kernel: %s, %s (%s)" % (run["kernel"], run["variant"], run["base"]),
           "  T1 cells, %d repetitions of %s s per boot%s, boots alternated; host CPU %s"
           % (run["reps"], run["duration"], own, run["cpu"]), "",
           render_table(head, rows), ""]
    if means:
        out += ["  (each a median over the cells of a cell's CV: of its samples within a boot, of its",
                "  samples across all boots, of its mean in each boot, of its fastest sample in each", "  boot)", ""]
    tests = [("across", "CV across boots")] + ([("boot_best", "CV of the boot bests")] if means else [])
    for key, what in tests:
        out.append("Against %s, %s per cell (two-sided sign test):" % (settings[0], what))
        for name in settings[1:]:
            higher, n, p = sign_test(res, settings[0], name, key)
            out.append("  %s: higher in %d of %d cells, p = %s"
                       % (name, higher, n, "-" if p is None else "%.2f" % p))
    if all("timelines" in res[name] for name in settings):
        marks = ", ".join("'%s': below %.2f of it" % (m, lim) for lim, m in TIMELINE_MARKS)
        out += ["", "Samples in the order each boot ran them, against the median of their cell over the",
                "boots of the setting (%s, '%s': %.2f of it or more, '%s': invalid):"
                % (marks, FAST, TIMELINE_MARKS[-1][0], INVALID)]
        ids = {v: k for k, v in SETTING_IDS.items()}
        width = max(len(ids.get(b["setting"], "?")) for b in run["boots"])
        for b in run["boots"]:
            line = res[b["setting"]]["timelines"].get(str(b["boot"]))
            if line is not None:
                out.append("  %2d %-*s %s" % (b["boot"], width, ids.get(b["setting"], "?"), line))
        out.append("Share of the samples so marked:")
        for name in settings:
            text = "".join(res[name]["timelines"].values())
            out.append("  %s: %s" % (name, ", ".join("'%s' %.0f %%" % (m, 100.0 * text.count(m) / max(1, len(text)))
                                                      for _, m in TIMELINE_MARKS)))
    out += ["", "Host at each boot (compilers running make timing meaningless):"]
    for b in run["boots"]:
        out.append("  boot %d %s: exit %d, load %s, cc1 %d, steal %.2f %%"
                   % (b["boot"], b["setting"], b["status"], b["load"]["load"], b["load"]["cc1"], b["steal_pct"])
                   + (", shmem in huge pages +%d kB" % b["shmem_huge_kb"] if "shmem_huge_kb" in b else "")
                   + (" over %d kB" % b["shmem_huge_kb_before"] if "shmem_huge_kb_before" in b else ""))
    if any(b["load"]["cc1"] for b in run["boots"]):
        out += ["", "WARNING: compilers ran beside some boots: these figures do not measure the lab's noise."]
    if any(b.get("shmem_huge_kb") == 0 for b in run["boots"]):
        out += ["", "WARNING: some boots of a huge pages setting got no huge page: that setting measured 4 kB pages."]
    return "\n".join(out) + "\n"


def report(res, run, result):
    """Writes RES/report.md from one run's figures and prints it: a run and
    --render write the same bytes (check-results compares them)."""
    text = render(run, result)
    write(os.path.join(res, "report.md"), "```\n" + text + "```\n")
    print(text, end="")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    # the question is UML's SMP noise: the first base whose UML has SMP
    baselib.add_option(ap, "the UML kernel's base tree", default_base="7.3")
    ap.add_argument("--variant", default="patched", choices=("patched", "baseline"))
    ap.add_argument("--settings", default="ptrace,seccomp,seccomp2",
                    help="the settings compared, comma-separated, the reference first: %s (default: %%(default)s)"
                    % ", ".join(SETTING_IDS))
    ap.add_argument("--boots", type=int, default=3, help="boots per setting")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--duration", default="0.5")
    ap.add_argument("--results")
    again = ap.add_mutually_exclusive_group()
    again.add_argument("--render", metavar="DIR", help="write DIR/report.md again from DIR/results.json and print it")
    again.add_argument("--reanalyse", metavar="DIR",
                       help="analyse the samples of DIR/raw/ again with this version (DIR/results.json and"
                       " report.md rewritten; the boots' records are kept)")
    args = ap.parse_args(argv)
    if args.render or args.reanalyse:
        # they take the run's own settings: refuse others, never ignore them
        given = [o for o in ("base", "variant", "settings", "boots", "reps", "duration", "results")
                 if getattr(args, o) != ap.get_default(o)]
        if given:
            ap.error("--render and --reanalyse take no other option (given: %s)"
                     % ", ".join("--" + o for o in given))
        d = args.render or args.reanalyse
        if not os.path.isfile(os.path.join(d, "results.json")):
            raise SystemExit("smp-noise: no %s: not the results directory of a run" % os.path.join(d, "results.json"))
    if args.render:
        with open(os.path.join(args.render, "results.json")) as f:
            stored = json.load(f)
        report(args.render, stored["run"], stored["result"])
        return 0
    if args.reanalyse:
        reanalyse(args.reanalyse)
        return 0
    ids = args.settings.split(",")
    unknown = [i for i in ids if i not in SETTING_IDS]
    if unknown or len(ids) < 2 or len(set(ids)) != len(ids):
        ap.error("--settings: two or more different ones of %s%s"
                 % (", ".join(SETTING_IDS), " (unknown: %s)" % ", ".join(unknown) if unknown else ""))
    settings = [SETTING_IDS[i] for i in ids]
    res = os.path.abspath(args.results or os.path.join(lab.TOP, "build", "results",
                                                       rundir.name("smp-noise", args.base)))
    if not os.access(lab.NFTLAB, os.X_OK):
        raise SystemExit("smp-noise: no %s: run make userspace first (the cells load their sets with it)"
                         % lab.NFTLAB)
    args.role = args.variant + "-retpoline"
    kdir = lab.kernel_dir(args.base, "um", args.variant, "retpoline", True)
    if not kdir:
        raise SystemExit("smp-noise: no UML %s retpoline kernel for base %s" % (args.variant, args.base))
    if any(SETTINGS[n].cpus > 1 for n in settings):
        with open(os.path.join(kdir, "config")) as f:
            if "CONFIG_SMP=y\n" not in f.read():
                raise SystemExit("smp-noise: %s has no CONFIG_SMP: no setting with 2 vCPUs" % kdir)
    if any(SETTINGS[n].huge for n in settings):
        # fail before the first boot, not at the first huge one
        with huge_tmpdir():
            pass
    info = lab.build_info(kdir) or {}
    # rotate: each round starts with the next setting
    order = [settings[(i + j) % len(settings)] for i in range(args.boots) for j in range(len(settings))]
    boots = [boot(args, kdir, res, n, name) for n, name in enumerate(order, 1)]
    run = dict(kernel=kdir, variant=args.variant, base=info.get("base"), stamp=info.get("stamp"), reps=args.reps, duration=args.duration,
               cpu=cpu_model(), boots=[{k: v for k, v in b.items() if k != "samples"} for b in boots])
    if tuple(settings) != DEFAULT_SETTINGS:
        run["settings"] = settings
    store(res, run, analyse(boots, settings))
    return 0 if all(b["status"] == 0 for b in boots) else 1


def store(res, run, result):
    """RES/results.json and RES/report.md."""
    # compact: docs/results/ has a size cap, and --render reads any JSON
    write(os.path.join(res, "results.json"), json.dumps(dict(run=run, result=result), sort_keys=True,
                                                        separators=(",", ":")) + "\n")
    report(res, run, result)


def reanalyse(res):
    """The analysis of the run in RES again, from the samples in RES/raw/
    (a run that an earlier version analysed)."""
    with open(os.path.join(res, "results.json")) as f:
        run = json.load(f)["run"]
    role = run["variant"] + "-retpoline"
    boots = []
    for b in run["boots"]:
        bdir = boot_dir(res, b["boot"], b["setting"])
        if b["status"] != 0:
            # analyse() leaves failed boots out
            boots.append(dict(b, samples=[]))
            continue
        if not os.path.isdir(bdir):
            raise SystemExit("smp-noise: no %s: --reanalyse needs the run's raw samples" % bdir)
        boots.append(dict(b, samples=boot_pps(bdir, b["boot"], role)))
    store(res, run, analyse(boots, run.get("settings", DEFAULT_SETTINGS)))

