# SPDX-License-Identifier: GPL-2.0
"""The host side of the suite (nft_concat_range/bench, options in cli.py):
resolves the UML lab kernels the tables need (kernel/builder/build, or the cache
with --no-build), boots them alternately with kernel/runner/lab-run running the
guest side (guest/run-plan) on a plan per boot, records the run as it goes
(runlog.py: settings, host, kernels, host load, each boot's build and CPU
steal), runs the base tree's perf script (--selftest) and T0 (t0/),
then writes the report.  Progress goes to stderr, the tables to stdout."""
import contextlib
import io
import os
import subprocess
import sys
import time

import bases as baselib  # lib/bases.py
import rundir  # lib/rundir.py

from . import lab, runlog
from .analysis import BOOT_BEST_MIN_BOOTS
from .files import cpu_model
from .model import DEV, ROLES
from .plans import roles_for, write_plan
from .report import report
from .t0 import cli as t0cli
from .tables import ALL_TABLES, KNOB_TABLES

# The modes' defaults: boots per kernel, repetitions per boot, seconds per
# sample, whether the base tree's perf script runs, and the estimator.
# The timed modes take each boot's best sample (boot-best): on the same
# samples it cut a same-cell spread of 20 % to 2 % where every-sample
# figures read an untouched cell as proven (nft_concat_range/README.md),
# and it needs BOOT_BEST_MIN_BOOTS boots per kernel.
MODES = {"default": dict(rounds=BOOT_BEST_MIN_BOOTS, reps=2, duration="0.5", selftest=False, estimator="boot-best"),
         "full": dict(rounds=BOOT_BEST_MIN_BOOTS, reps=2, duration="1", selftest=True, estimator="boot-best"),
         "quick": dict(rounds=1, reps=1, duration="0.2", selftest=False, estimator="samples")}
# --quick checks validity on one kernel, which runs every scenario.
QUICK_ROLES = ("patched-retpoline",)
SELFTEST_ROLES = ("baseline-retpoline", "patched-retpoline")
# What the base tree's perf script needs of the tree (git archive paths).
SELFTEST_PATHS = ("tools/testing/selftests/net/lib.sh", "tools/testing/selftests/net/netfilter",
                  "tools/testing/selftests/kselftest", "samples/pktgen")
SELFTEST_DIR = "tools/testing/selftests/net/netfilter"
KNOB = lab.knob_sysctl()


def log(msg):
    print("[bench] %s" % msg, file=sys.stderr, flush=True)


def settings(mode, tables, rounds=None, reps=None, duration=None, selftest=None, estimator=None, base=None):
    """The run's parameters: the mode's defaults where the options left
    them unset; T0 (counted by t0/run.py, not timed) apart from the timed
    tables.  When BASE's patched kernels lack the lab's force-indirect
    knob (lab.base_has_knob), the tables that compare its two settings
    (KNOB_TABLES) measure nothing: the timed modes leave them out of the
    default tables and refuse them when asked for; --quick, a validity
    check of every scenario, runs them, and so does a BASE of None."""
    d = MODES[mode]
    lacking = () if mode == "quick" or base is None or lab.base_has_knob(base) else KNOB_TABLES
    if tables is None:
        tables = (["T0"] if mode != "quick" else []) + [t for t in ALL_TABLES if t not in lacking]
    elif set(tables) & set(lacking):
        asked = [t for t in tables if t in lacking]
        raise SystemExit("nft_concat_range/bench: %s: compared with the lab's force-indirect knob (0 vs 1 in one"
                         " boot), which base %s's patched kernels do not have (%s sets no %s); measured on: %s"
                         % (",".join(asked), base, os.path.relpath(lab.feature_config(base), lab.TOP),
                            lab.knob_config(), " ".join("BASE=%s" % b for b in lab.knob_bases()) or "no base"))
    return dict(mode=mode, tables=[t for t in tables if t != "T0"], t0="T0" in tables,
                rounds=d["rounds"] if rounds is None else rounds, reps=d["reps"] if reps is None else reps,
                duration=d["duration"] if duration is None else duration,
                selftest=d["selftest"] if selftest is None else selftest,
                estimator=d["estimator"] if estimator is None else estimator)


def kernel_roles(mode, tables):
    return list(QUICK_ROLES) if mode == "quick" else roles_for(tables)


def boot_order(roles, rounds):
    """[(round, role, seed)]: every role once per round, in the order of
    ROLES in odd rounds and reversed in even ones (kernels compared across
    boots that alternate); each boot's plan shuffles with its own seed."""
    out, seed = [], 1
    for rnd in range(1, rounds + 1):
        for role in roles if rnd % 2 else roles[::-1]:
            seed += 1
            out.append((rnd, role, seed))
    return out


def guest_timeout(samples, duration, arch):
    """Seconds the guest may run: pktgen's start/stop and two nft calls per
    sample, the sets loading per group; QEMU TCG runs them about three
    times slower."""
    return int((1 if arch == "um" else 3) * (180 + samples * (float(duration) + 4)))


def host_load(role):
    """The host's load averages and running compilers, before a boot."""
    with open("/proc/loadavg") as f:
        load = " ".join(f.read().split()[:3])
    cc = subprocess.run(["pgrep", "-c", "-x", "cc1"], stdout=subprocess.PIPE, text=True).stdout.strip()
    return dict(time=time.strftime("%H:%M:%S", time.gmtime()), role=role, load=load,
                cc1=int(cc) if cc.isdigit() else 0)


def cpu_ticks():
    """(stolen, total) CPU ticks of the host (/proc/stat, all CPUs): the
    time the hypervisor gave to other guests.  `bench drift` found the
    samples of one cell drifting in episodes of a few seconds that nothing
    inside the lab explains; steal per boot shows whether the host was
    shared while it measured."""
    with open("/proc/stat") as f:
        for line in f:
            w = line.split()
            if w[0] == "cpu":
                return int(w[8]), sum(int(x) for x in w[1:9])
    return 0, 0


def tee(cmd, path, prefix=b"", cwd=None):
    """Runs CMD with its output into PATH and onto stderr (each line after
    PREFIX); its exit status."""
    with open(path, "wb") as f:
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=cwd)
        for line in p.stdout:
            f.write(line)
            sys.stderr.buffer.write(prefix + line)
            sys.stderr.buffer.flush()
        return p.wait()


class Bench:
    """One run: its results directory and its record (runlog.RUN)."""

    def __init__(self, args, s):
        self.args, self.s = args, s
        self.res = args.results or os.path.join(lab.TOP, "build", "results",
                                                rundir.name("bench", args.base))
        os.makedirs(os.path.join(self.res, "raw"), exist_ok=True)
        self.res = os.path.realpath(self.res)
        self.start = time.monotonic()
        self.knob = os.environ.get("NFTB_KNOB", KNOB)
        self.burst = os.environ.get("NFTB_BURST", "")
        self.nftlab = lab.NFTLAB if os.access(lab.NFTLAB, os.X_OK) else ""
        # the UML guests' userspace: the base's choice (kernel/builder/bases/)
        self.userspace = (baselib.fields(args.base).get("um-userspace") or "ptrace") if args.arch == "um" else None
        if self.userspace not in (None, "ptrace", "seccomp"):
            raise SystemExit("kernel/builder/bases/%s: um-userspace: %s (ptrace or seccomp)"
                             % (args.base, self.userspace))
        self.kdirs = {}
        self.failed = 0
        self.run = dict(settings=dict(mode=s["mode"], tables=s["tables"], rounds=s["rounds"], reps_per_boot=s["reps"],
                                      duration=s["duration"], t2_lookups=args.t2_lookups, knob=self.knob,
                                      burst=self.burst or "1000", build=args.build, arch=args.arch, base=args.base,
                                      estimator=s["estimator"],
                                      nftlab=self.nftlab or "not built", userspace=self.userspace),
                        host=dict(date=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), cpu=cpu_model(),
                                  nproc=os.cpu_count()),
                        kernels=[], host_load=[], selftest={})
        self.save()

    def save(self):
        runlog.save(os.path.join(self.res, runlog.RUN), self.run)

    def elapsed(self):
        return int(time.monotonic() - self.start)

    def note_load(self, role):
        r = host_load(role)
        self.run["host_load"].append(r)
        self.save()
        if r["cc1"] > 0:
            log("WARNING: %d compiler processes running: timings are not meaningful" % r["cc1"])

    def resolve(self, roles):
        for role in roles:
            variant, flavor = ROLES[role]
            d = lab.kernel_dir(self.args.base, self.args.arch, variant, flavor, self.args.build, log)
            if d:
                self.kdirs[role] = d
                log("kernel %s: %s" % (role, d))
            else:
                log("kernel %s: not available: its cells will be reported as not measured" % role)
            self.run["kernels"].append(dict(role=role, status="ok" if d else "missing", dir=d,
                                            build=lab.build_info(d) if d else None))
        self.save()
        if not self.nftlab:
            log("no %s (make userspace): sets are loaded with nft -f only" % lab.NFTLAB)

    def boot(self, rnd, role, seed):
        """One boot: plan, run, record."""
        a, s, kdir = self.args, self.s, self.kdirs[role]
        bdir = os.path.join(self.res, "raw", "r%d-%s" % (rnd, role))
        os.makedirs(bdir, exist_ok=True)
        n = write_plan(role, s["tables"], s["reps"], s["duration"], seed, DEV, a.t2_lookups,
                       s["mode"] == "quick", os.path.join(bdir, "plan"))
        timeout = guest_timeout(n, s["duration"], a.arch)
        self.note_load(role)
        log("round %d/%d: %s: %d samples (guest timeout %ds, %ds elapsed)"
            % (rnd, s["rounds"], role, n, timeout, self.elapsed()))
        # what is booted, read now: the cache may hold another build by
        # the time the report is rendered
        rec = dict(role=role, round=rnd, kernel=kdir, status="running", build=lab.build_info(kdir))
        runlog.save(os.path.join(bdir, runlog.BOOT), rec)
        env = ["env", "NFTB_DURATION=%s" % s["duration"], "NFTB_KNOB=%s" % self.knob]
        env += ["NFTB_BURST=%s" % self.burst] if self.burst else []
        env += ["NFTB_NFTLAB=%s" % self.nftlab]
        st0, tt0 = cpu_ticks()
        rc = tee(lab.lab_run(a.base, a.arch, kdir, self.res, timeout,
                             env + [lab.RUN_PLAN, os.path.join(bdir, "plan"), os.path.join(bdir, "out")],
                             append="seccomp=on" if self.userspace == "seccomp" else None),
                 os.path.join(bdir, "console.log"))
        st1, tt1 = cpu_ticks()
        rec.update(status=rc, steal_ticks=[st1 - st0, tt1 - tt0])
        runlog.save(os.path.join(bdir, runlog.BOOT), rec)
        if rc != 0:
            log("boot %s round %d exited %d (see %s/console.log)" % (role, rnd, rc, bdir))
            self.failed += 1

    def selftest(self, limit):
        """The base tree's own nft_concat_range_perf.sh (its performance
        group), unmodified, beside ours.  It loads its sets with a bash
        loop that forks for every element, which is slow under UML (about
        4 min for net,port's 3 x 1001 elements), so it is stopped after
        LIMIT seconds: the types it finished by then are compared with T1,
        the others are reported as not measured."""
        src = lab.base_src(self.args.base)
        for role in SELFTEST_ROLES:
            if role not in self.kdirs or not src:
                self.run["selftest"][role] = "not run: %s missing" % ("kernel" if src else "base tree")
                continue
            st = os.path.join(self.res, "selftest-%s" % role)
            os.makedirs(st, exist_ok=True)
            arch = subprocess.Popen(["git", "-C", src, "archive", "base"] + list(SELFTEST_PATHS),
                                    stdout=subprocess.PIPE)
            untar = subprocess.run(["tar", "-x", "-C", st], stdin=arch.stdout)
            arch.stdout.close()
            if arch.wait() != 0 or untar.returncode != 0:
                self.run["selftest"][role] = "not run: git archive of %s failed" % src
                continue
            log("base tree nft_concat_range_perf.sh on %s (stopped after %ds)" % (role, limit))
            self.note_load("selftest-%s" % role)
            # LIMIT is the script's whole run, not only a silence: it
            # prints nothing while it loads a large set
            rc = tee(lab.lab_run(self.args.base, self.args.arch, self.kdirs[role], self.res, limit, ["./nft_concat_range_perf.sh"],
                                 max_time=limit),
                     os.path.join(st, "output.log"), b"[selftest] ", cwd=os.path.join(st, SELFTEST_DIR))
            what = {0: "exit 0",
                    124: "stopped at the %ds limit (exit 124): the types it finished are compared" % limit
                    }.get(rc, "exit %d" % rc)
            self.run["selftest"][role] = "%s; output: selftest-%s/output.log" % (what, role)
            log("selftest on %s: %s" % (role, what))
        self.save()

    def t0(self):
        """T0 on the x86_64 kernels already built (under TCG: about N boots)."""
        log("T0: exact per-packet counts in the x86_64 kernels under QEMU TCG (t0.py, %ds elapsed)" % self.elapsed())
        argv = ["run", "--no-build", "--base", self.args.base] + (["--quick"] if self.s["mode"] == "quick" else []) + ["--results", self.res]
        try:
            # its text is in the report: only its progress (stderr) shows
            with contextlib.redirect_stdout(io.StringIO()):
                rc = t0cli.main(argv)
        except (Exception, SystemExit) as e:
            log("T0: %s" % e)
            rc = 1
        if rc:
            log("T0: t0.py exited non-zero (see %s/t0/)" % self.res)


def run(args):
    """bench: every boot of ARGS (cli.bench_args), the base script, T0,
    then the report; 1 when a boot failed (the report is written anyway)."""
    s = settings(args.mode, args.tables, args.rounds, args.reps, args.duration, args.selftest, args.estimator,
                 args.base)
    if s["estimator"] == "boot-best" and (s["rounds"] < BOOT_BEST_MIN_BOOTS or s["reps"] < 2):
        raise SystemExit("nft_concat_range/bench: the estimator boot-best (the default) takes each boot's best of"
                         " its repetitions: give --rounds %d or more (the CI of a median needs %d values) and"
                         " --reps 2 or more (asked: --rounds %d --reps %d), or --estimator samples"
                         % (BOOT_BEST_MIN_BOOTS, BOOT_BEST_MIN_BOOTS, s["rounds"], s["reps"]))
    b = Bench(args, s)
    roles = kernel_roles(s["mode"], s["tables"])
    b.resolve(roles)
    measure_start = time.monotonic()
    for rnd, role, seed in boot_order(roles, s["rounds"]):
        if role in b.kdirs:
            b.boot(rnd, role, seed)
    if s["selftest"]:
        b.selftest(int(os.environ.get("NFTB_SELFTEST_LIMIT", "600")))
    if s["t0"]:
        b.t0()
    # what the run took once its kernels were there: builds vary, the
    # measuring is what a user waits for each time
    b.run["host"].update(end=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                         measure_s=int(time.monotonic() - measure_start))
    b.save()
    log("report (%ds elapsed)" % b.elapsed())
    report(b.res)
    print("\nresults: %s" % os.path.join(b.res, "report.md"))
    if b.failed:
        log("%d boot(s) failed: their cells are missing from the report" % b.failed)
        return 1
    return 0
