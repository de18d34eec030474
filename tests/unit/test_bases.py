#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of the bases as data (kernel/builder/bases/, lib/bases.py,
kernel/lib.sh) and of the run directory's name (lib/rundir.py).

A fake third base, added as one file to a copy of the tree's kernel/,
lib/ and nft_concat_range/, must show in kernel/builder/build --dry-run,
kernel/runner/lab-run --dry-run and t0.py's --help, without a fetch or a
build: a base is one file.  The copy's cache is a temporary directory."""
import os
import runpy
import shutil
import subprocess
import sys
import tempfile
import unittest

runpy.run_path(os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..", "lib", "bootstrap.py"))
import bases  # noqa: E402
import rundir  # noqa: E402
import tap  # noqa: E402

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
FAKE = "9.9"
FAKE_BASE = """# A base that exists for this test only.
package: linux-source-9.9
pin: 9.9.1-1
suite: forky
patches: kernel/series/patches-9.9
blurb: docs/cover-letter-blurb-9.9.txt
prefix: PATCH test
llvm-toolchain: llvm-19
kcfi-toolchain: llvm-19
cache: base-9.9
lock: tree-9.9.lock
nft: host
selftest-groups: reported_issues
"""


def skip_outputs(d, names):
    """copytree's ignore: the Python caches and build output directories."""
    return [n for n in names if n == "__pycache__" or (n == "build" and os.path.isdir(os.path.join(d, n)))]


class FakeBase(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="test-bases.")
        cls.top = os.path.join(cls.tmp, "top")
        for d in ("kernel", "lib", "nft_concat_range"):
            shutil.copytree(os.path.join(TOP, d), os.path.join(cls.top, d), symlinks=True,
                            ignore=skip_outputs)
        os.makedirs(os.path.join(cls.top, "kernel", "series", "patches-" + FAKE))
        with open(os.path.join(cls.top, "kernel", "series", "patches-" + FAKE, "series"), "w") as f:
            f.write("[lab]\n")
        with open(os.path.join(cls.top, "kernel", "builder", "bases", FAKE), "w") as f:
            f.write(FAKE_BASE)
        cls.env = dict(os.environ, NFTLAB_CACHE=os.path.join(cls.tmp, "cache"))
        cls.env.pop("NFTLAB_BASE", None)
        cls.env.pop("NFTLAB_PATCHES", None)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def run_tool(self, *argv, env=None):
        argv = [a if not a.startswith(("kernel/", "nft_concat_range/")) else os.path.join(self.top, a) for a in argv]
        r = subprocess.run(argv, cwd=self.top, env=env or self.env, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
        return r.returncode, r.stdout, r.stderr

    def test_builder_dry_run(self):
        """the builder's dry run: the fake base's package, pin and series"""
        rc, out, err = self.run_tool("kernel/builder/build", "--base", FAKE, "--dry-run", "um", "baseline",
                                     "retpoline")
        self.assertEqual(rc, 0, err)
        self.assertIn("base: 9.9 (linux-source-9.9 9.9.1-1, suite forky)", out)
        self.assertIn("series: %s/kernel/series/patches-9.9 (baseline)" % self.top, out)
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "cache", "base-9.9")), "a dry run fetched")

    def test_lab_run_dry_run(self):
        """lab-run --dry-run: the guest's job names the fake base, with its nft"""
        rc, out, err = self.run_tool("kernel/runner/lab-run", "--base", FAKE, "--dry-run", "--", "true")
        self.assertEqual(rc, 0, err)
        self.assertIn("NFTLAB_BASE=9.9", out)
        self.assertNotIn("NFTLAB_NFT_PREFIX", out, "the base says nft: host")

    def test_t0_help(self):
        """t0.py run --help lists the fake base among the choices"""
        rc, out, err = self.run_tool(sys.executable, "nft_concat_range/t0.py", "run", "--help")
        self.assertEqual(rc, 0, err)
        self.assertIn("9.9", out.split("--base", 1)[1].split("\n", 1)[0])

    def test_unknown_base_refused(self):
        """an unknown base is refused, naming the known ones"""
        rc, _, err = self.run_tool("kernel/builder/build", "--base", "1.0", "--dry-run", "um", "baseline",
                                   "retpoline")
        self.assertNotEqual(rc, 0)
        self.assertIn("unknown base '1.0'", err)
        self.assertIn("9.9", err)

    def test_one_default(self):
        """the default base is one fact: two "default: yes" lines are refused"""
        env = dict(self.env)
        with open(os.path.join(self.top, "kernel", "builder", "bases", FAKE), "a") as f:
            f.write("default: yes\n")
        try:
            rc, _, err = self.run_tool("kernel/builder/build", "--dry-run", "um", "baseline", "retpoline", env=env)
            self.assertNotEqual(rc, 0)
            self.assertIn("more than one file of kernel/builder/bases/ says 'default: yes'", err)
            with self.assertRaises(SystemExit):
                bases.default(os.path.join(self.top, "kernel", "builder", "bases"))
        finally:
            with open(os.path.join(self.top, "kernel", "builder", "bases", FAKE), "w") as f:
                f.write(FAKE_BASE)


class TreeBases(unittest.TestCase):
    def test_roles_agree(self):
        """each role (default, lts, hookstress) is one base's, the same for lib/bases.py and kernel/lib.sh"""
        env = dict(os.environ)
        env.pop("NFTLAB_BASE", None)
        for role in ("default", "lts", "hookstress"):
            out = subprocess.run(["bash", "-c", '. kernel/lib.sh && flagged_base "$1"', "_", role], cwd=TOP,
                                 env=env, stdout=subprocess.PIPE, text=True, check=True).stdout.strip()
            self.assertEqual(out, bases.flagged(role), role)
            self.assertIn(out, bases.names(), role)

    def test_every_base_has_every_field(self):
        """every base file holds the fields the tools read"""
        need = ("package", "pin", "suite", "patches", "blurb", "prefix", "llvm-toolchain", "kcfi-toolchain",
                "cache", "lock", "nft", "selftest-groups")
        for b in bases.names():
            missing = [k for k in need if not bases.fields(b).get(k)]
            self.assertEqual(missing, [], "kernel/builder/bases/%s" % b)
            self.assertTrue(os.path.isdir(os.path.join(TOP, bases.field(b, "patches"))), b)
            self.assertTrue(os.path.isfile(os.path.join(TOP, bases.field(b, "blurb"))), b)
            self.assertTrue(bases.field(b, "patches").endswith("-" + b), "patches-BASE: %s" % b)


class RunDir(unittest.TestCase):
    def test_name_and_parse(self):
        """a name has the form, and parses back to its parts"""
        n = rundir.name("check-series", "7.3", "v8", now=0)
        self.assertEqual(n, "check-series-7.3-v8-19700101T000000Z")
        self.assertEqual(rundir.parse(n), dict(tool="check-series", base="7.3", tag="v8", utc="19700101T000000Z"))
        self.assertEqual(rundir.parse("t0-6.12-20261201T171400Z")["tag"], None)
        self.assertEqual(rundir.parse("t0-7.3-nf-next-p1-4-20261206T033256Z")["tag"], "nf-next-p1-4")

    def test_old_forms_refused(self):
        """the forms of before 2026-12-06 (no base, tag after the time) do not parse"""
        for old in ("t0-20261201T171400Z", "t0-20261202T143634Z-seeds", "bench-20261201T120133Z-t6",
                    "make-check-budget-20261202"):
            self.assertIsNone(rundir.parse(old), old)

    def test_bad_tag(self):
        with self.assertRaises(ValueError):
            rundir.name("t0", "7.3", "Big Tag")


if __name__ == "__main__":
    sys.exit(tap.run_file(__file__))
