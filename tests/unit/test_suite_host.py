#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of nft_concat_range/nftbench/host.py, the host side of
bench: the modes' settings, the boot order, the guest's timeout, and a
whole run with stand-ins for kernel/builder/build and kernel/runner/lab-run (no kernel):
the kernels resolved, the boots alternated, each boot's build recorded as
it started, the report rendered from what the run recorded.

python3 tests/unit/test_suite_host.py: TAP (lib/tap.py,
nested in bench-quick's stream); -v: unittest's own runner."""
import json
import os
import runpy
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
runpy.run_path(os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..", "lib", "bootstrap.py"))
import tap  # noqa: E402
from nftbench import cli, host, lab, runlog  # noqa: E402
from nftbench.files import write  # noqa: E402
from nftbench.report import report  # noqa: E402
from nftbench.tables import ALL_TABLES, KNOB_TABLES  # noqa: E402

# kernel/builder/build's stand-in: prints $FAKE_KERNELS/ARCH-VARIANT-FLAVOR when it
# holds a kernel, fails otherwise; with --print-path, prints it regardless.  It
# wants the base given first (--base): bench passes it down, never through
# the environment.
FAKE_BUILD = """#!/bin/sh
[ "$1" = --base ] && [ -n "$2" ] || { echo "fake build: no --base BASE first" >&2; exit 2; }
shift 2
p=0
[ "$1" = --print-path ] && { p=1; shift; }
d="$FAKE_KERNELS/$1-$2-$3"
[ $p = 1 ] || [ -f "$d/BUILD-INFO" ] || exit 1
echo "$d"
"""
# kernel/runner/lab-run's stand-in: the guest command after --, with the plan's
# cells answered by a sample record each (pktgen's rate from the kernel
# directory's name); exits $FAKE_RC_<role> if set.
FAKE_LAB_RUN = """#!/usr/bin/env python3
import json, os, sys
argv = sys.argv[1:]
if argv[:1] != ["--base"]:
    sys.exit("fake lab-run: no --base BASE first")
kdir = argv[argv.index("--kernel") + 1]
cmd = argv[argv.index("--") + 1:]
plan, out = cmd[-2], cmd[-1]
os.makedirs(out)
with open(os.path.join(out, "records.jsonl"), "w") as f:
    opts = argv[:argv.index("--")]
    f.write(json.dumps(dict(record="guest", start="2026-12-01T10:00:00Z", env=" ".join(cmd[:-3]),
                            append=opts[opts.index("--append") + 1] if "--append" in opts else "")) + "\\n")
    for line in open(os.path.join(plan, "plan.tsv")):
        w = line.rstrip("\\n").split("\\t")
        if w[0] == "cell":
            c = json.loads(w[6])
            pps = (1e6 if "patched" in kdir else 9e5) * (0.8 if c["backend"] == "egress" else 1.0) * (1 + int(w[4]) / 100)
            f.write(json.dumps(dict(record="sample", cell=c, knob_req=w[2], rep=int(w[4]), knob=w[2],
                                    usec=500000, sofar=500000, errors=0, counter=500000, tx=500000, pps=pps,
                                    valid=True, reason="ok")) + "\\n")
print("guest output of " + os.path.basename(kdir))
sys.exit(int(os.environ.get("FAKE_RC_" + os.path.basename(kdir).replace("-", "_"), "0")))
"""


def fake_run(tmp, argv, env=None):
    """host.run() of bench ARGV with the stand-ins; (rc, results dir)."""
    saved = (lab.KERNEL_BUILD, lab.LAB_RUN, dict(os.environ))
    try:
        lab.KERNEL_BUILD, lab.LAB_RUN = os.path.join(tmp, "build"), os.path.join(tmp, "lab-run")
        os.environ.update(FAKE_KERNELS=os.path.join(tmp, "kernels"), **(env or {}))
        res = os.path.join(tmp, "res-%d" % len(os.listdir(tmp)))
        args = cli_args(argv + ["--results", res])
        # the tables and the progress of a run nobody reads
        with open(os.devnull, "w") as null:
            out, err = sys.stdout, sys.stderr
            sys.stdout = sys.stderr = null
            try:
                rc = host.run(args)
            finally:
                sys.stdout, sys.stderr = out, err
        return rc, res
    finally:
        lab.KERNEL_BUILD, lab.LAB_RUN = saved[0], saved[1]
        os.environ.clear()
        os.environ.update(saved[2])


def cli_args(argv):
    return cli.bench_parser().parse_args(argv)


def read_json(*path):
    with open(os.path.join(*path)) as f:
        return json.load(f)


def read(*path):
    with open(os.path.join(*path)) as f:
        return f.read()


class Settings(unittest.TestCase):
    def test_modes(self):
        """settings: each mode's defaults, options win, T0 apart from the timed tables"""
        s = host.settings("default", None)
        self.assertEqual((s["rounds"], s["reps"], s["duration"], s["selftest"], s["t0"], s["tables"], s["estimator"]),
                         (6, 2, "0.5", False, True, list(ALL_TABLES), "boot-best"))
        q = host.settings("quick", None)
        self.assertEqual((q["rounds"], q["reps"], q["duration"], q["t0"], q["tables"][0], q["estimator"]),
                         (1, 1, "0.2", False, "T1", "samples"))
        f = host.settings("full", ["T0", "T2"], reps=5, estimator="samples")
        self.assertEqual((f["rounds"], f["reps"], f["duration"], f["selftest"], f["t0"], f["tables"], f["estimator"]),
                         (6, 5, "1", True, True, ["T2"], "samples"))

    def test_knob_tables(self):
        """without the lab knob: the tables that compare it are left out of the timed modes' defaults, refused when asked for, and run by --quick"""
        self.assertEqual(KNOB_TABLES, ("T2", "T3", "T6"))
        s = host.settings("default", None, base="7.3")
        self.assertEqual(s["tables"], ["T1", "T4", "T5", "T7"])
        self.assertEqual(host.settings("default", None, base="6.12")["tables"], list(ALL_TABLES))
        self.assertEqual(host.settings("quick", None, base="7.3")["tables"], list(ALL_TABLES))
        self.assertEqual(host.settings("full", ["T1", "T7"], base="7.3")["tables"], ["T1", "T7"])
        with self.assertRaises(SystemExit) as e:
            host.settings("default", ["T1", "T2", "T6"], base="7.3")
        self.assertIn("T2,T6: compared with the lab's force-indirect knob", str(e.exception))
        self.assertIn("kernel/config/base-7.3-feature.config sets no CONFIG_NFT_LAB_FORCE_INDIRECT", str(e.exception))
        self.assertIn("measured on: BASE=6.12", str(e.exception))

    def test_base_has_knob(self):
        """which bases have the knob: their feature fragment sets its option (6.12's, not 7.3's)"""
        self.assertEqual((lab.base_has_knob("6.12"), lab.base_has_knob("7.3")), (True, False))
        self.assertEqual(lab.knob_bases(), ["6.12"])

    def test_boot_order(self):
        """boot order: kernels alternate between rounds, one seed per boot"""
        self.assertEqual(host.boot_order(["a", "b", "c"], 3),
                         [(1, "a", 2), (1, "b", 3), (1, "c", 4), (2, "c", 5), (2, "b", 6), (2, "a", 7),
                          (3, "a", 8), (3, "b", 9), (3, "c", 10)])

    def test_guest_timeout(self):
        """guest timeout: 180 s plus 4.5 s per 0.5 s sample, three times that under TCG"""
        self.assertEqual(host.guest_timeout(10, "0.5", "um"), 225)
        self.assertEqual(host.guest_timeout(10, "0.5", "x86_64"), 675)

    def test_kernel_roles(self):
        """kernel roles: the tables' kernels; --quick the patched retpoline one only"""
        self.assertEqual(host.kernel_roles("quick", ["T1", "T2"]), ["patched-retpoline"])
        self.assertEqual(host.kernel_roles("default", ["T4"]), ["baseline-retpoline", "patched-retpoline"])


class FakeRun(unittest.TestCase):
    """bench with stand-ins for the kernel build and the boot: a run of T4
    over two rounds (NFTB_KNOB set), after which the cache holds another
    build of the patched kernel than the one booted."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tmp = tempfile.mkdtemp(prefix="suite-host-")
        write(os.path.join(tmp, "build"), FAKE_BUILD)
        write(os.path.join(tmp, "lab-run"), FAKE_LAB_RUN)
        os.chmod(os.path.join(tmp, "build"), 0o755)
        os.chmod(os.path.join(tmp, "lab-run"), 0o755)
        for name in ("um-baseline-retpoline", "um-patched-retpoline"):
            os.makedirs(os.path.join(tmp, "kernels", name))
            write(os.path.join(tmp, "kernels", name, "BUILD-INFO"),
                  "name: %s\nbase: linux-source-6.12 6.12.117-1~deb12u1\ncommit: booted-%s\nseries: s\n"
                  "stamp: tree:1 key\n" % (name, name))
            write(os.path.join(tmp, "kernels", name, "config"), "CONFIG_X=y\n")
        cls.rc, cls.res = fake_run(tmp, ["--base", "7.3", "--tables", "T4", "--rounds", "2", "--reps", "1",
                                         "--estimator", "samples"],
                                   dict(NFTB_KNOB="net.test.knob"))
        # the cache holds another build by now: the report keeps the booted one
        write(os.path.join(tmp, "kernels", "um-patched-retpoline", "BUILD-INFO"), "commit: rebuilt\n")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_run(self):
        """run: both kernels booted in alternating order, the build of each recorded as it booted"""
        self.assertEqual(self.rc, 0)
        boots = sorted(os.listdir(os.path.join(self.res, "raw")))
        self.assertEqual(boots, ["r1-baseline-retpoline", "r1-patched-retpoline", "r2-baseline-retpoline",
                                 "r2-patched-retpoline"])
        for b in boots:
            rec = read_json(self.res, "raw", b, runlog.BOOT)
            self.assertEqual(rec["status"], 0, b)
            self.assertEqual(rec["build"]["commit"], "booted-um-" + rec["role"], b)
            self.assertEqual(len(rec["build"]["config_sha256"]), 64, b)
        self.assertEqual([r["role"] for r in runlog.read_run(self.res)["host_load"]],
                         ["baseline-retpoline", "patched-retpoline", "patched-retpoline", "baseline-retpoline"])

    def test_guest_env(self):
        """run: the guest's environment from the settings and NFTB_KNOB; its output in console.log"""
        with open(os.path.join(self.res, "raw", "r1-patched-retpoline", "out", "records.jsonl")) as f:
            guest = f.readline()
        self.assertIn("NFTB_KNOB=net.test.knob", guest)
        self.assertIn("NFTB_DURATION=0.5", guest)
        self.assertEqual(read(self.res, "raw", "r1-patched-retpoline", "console.log"),
                         "guest output of um-patched-retpoline\n")

    def test_userspace(self):
        """run: the UML guests' userspace is the base's um-userspace (7.3: seccomp, booted with seccomp=on; 6.12: none, ptrace), recorded and in the report beside the duration of the boots"""
        guest = json.loads(read(self.res, "raw", "r1-patched-retpoline", "out", "records.jsonl").splitlines()[0])
        self.assertEqual(guest["append"], "seccomp=on")
        self.assertEqual(read_json(self.res, "bench.json")["settings"]["userspace"], "seccomp")
        report(self.res, quiet=True)
        text = read(self.res, "report.md")
        self.assertIn("target:      um (User-mode Linux lab kernels, seccomp userspace, 1 vCPU)", text)
        self.assertRegex(text, r"\nduration:    0 min 0\d s from the first boot to the report \(kernel builds not included\)\n")
        rc, res = fake_run(self.tmp, ["--base", "6.12", "--tables", "T4", "--rounds", "1", "--reps", "1",
                                      "--estimator", "samples"])
        guest = json.loads(read(res, "raw", "r1-patched-retpoline", "out", "records.jsonl").splitlines()[0])
        self.assertEqual((rc, guest["append"], read_json(res, "bench.json")["settings"]["userspace"]),
                         (0, "", "ptrace"))

    def test_report(self):
        """report of the run: meta from what it recorded (not the cache now), every sample, T4's rows"""
        report(self.res, quiet=True)
        r = read_json(self.res, "results.json")
        self.assertEqual(r["meta"]["kernels"]["patched-retpoline"]["commit"], "booted-um-patched-retpoline")
        self.assertEqual(r["meta"]["knob"], "net.test.knob")
        self.assertEqual(r["meta"]["tables"], ["T4"])
        self.assertEqual((r["schema"], len(r["samples"]["rows"])), ("nftlab-bench/3", 8))
        self.assertTrue(r["tables"]["T4"]["rows"])
        self.assertTrue(os.path.isfile(os.path.join(self.res, "report.md")))

    def test_no_build(self):
        """--no-build: a kernel the cache does not hold is missing, never built, and not booted"""
        rc, res = fake_run(self.tmp, ["--tables", "T4", "--quick", "--no-build"],
                           dict(FAKE_RC_um_patched_retpoline="3", NFTLAB_CACHE=os.path.join(self.tmp, "nocache")))
        self.assertEqual(rc, 0)
        self.assertEqual([k["status"] for k in runlog.read_run(res)["kernels"]], ["missing"])
        self.assertEqual(os.listdir(os.path.join(res, "raw")), [])

    def test_failed_boot(self):
        """a failed boot: exit 1, its status recorded, the report written anyway"""
        rc, res = fake_run(self.tmp, ["--tables", "T4", "--quick"], dict(FAKE_RC_um_patched_retpoline="3"))
        self.assertEqual(rc, 1)
        self.assertEqual(read_json(res, "raw", "r1-patched-retpoline", runlog.BOOT)["status"], 3)
        self.assertTrue(os.path.isfile(os.path.join(res, "report.md")))


if __name__ == "__main__":
    sys.exit(tap.run_file(__file__))
