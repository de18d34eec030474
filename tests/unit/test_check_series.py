#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of kernel/checks/check-series (make check-series; its
program is kernel/checks/check_series/).  No kernel is built or booted.

In the stub world of tests/unit/check_series_stubs.py (every program it
runs a stub that logs its command line):
- every scenario (each part of both bases, all passing; a failure of each
  kind; selections by the environment; no base tree) prints what the bash
  script it replaced printed: the same commands in the same order, with
  the same redirections, the same TAP, stderr and exit status (the stored
  transcripts, tests/unit/fixtures/check-series/expected/), but where the
  bash script stopped at its own bug (the scenario says which);
- --dry-run, after a run of the same world, runs only the commands that
  read, writes nothing, prints as "+ CMD" the commands the run ran, and
  the run's own TAP lines, all passing.
Then the pure logic, on made-up data: the series file, the settings and
their defaults, the stable fixes' table, the bisect's steps, the matrix
items, the kernels part's list, what a kernel directory says, the plan
line and the exit status.

python3 lib/tap.py tests/unit/test_check_series.py (TAP; make check runs
it with every tests/unit/test_*.py, step units), or python3
tests/unit/test_check_series.py [-v]; after an intended change of what
check-series prints: python3 tests/unit/check_series_stubs.py record."""
import io
import os
import re
import runpy
import shlex
import subprocess
import sys
import tempfile
import unittest
from concurrent.futures import ThreadPoolExecutor

TOP = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
# lib/ (tap), kernel/checks/ (check_series) and tests/unit/
# (check_series_stubs) on sys.path
runpy.run_path(os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..", "lib", "bootstrap.py"))
import check_series_stubs as stubs  # noqa: E402
import tap  # noqa: E402
from check_series import bisection, kernels, matrix, settings, stable, stable_fixes, w1  # noqa: E402
from check_series.host import TO_STDOUT, shown  # noqa: E402
from check_series.products import Kernel  # noqa: E402
from check_series.series_file import GROUPS, Series, SeriesError, parse  # noqa: E402

# the scenarios whose worlds a dry run visits next, after the run
DRY = ("default-6.12", "default-7.3")
_RUNS = {}


def scenario_runs():
    """({scenario: the diff of its transcript}, {scenario of DRY: the run
    and the dry run after it}), computed once for both test classes."""
    if not _RUNS:
        dry = {name: {} for name in DRY}

        def diff(scenario):
            return stubs.difference(scenario, dry.get(scenario.name))
        # the scenarios wait on their stubs' processes: two at a time
        with ThreadPoolExecutor(max_workers=2) as pool:
            _RUNS["diffs"] = dict(zip((s.name for s in stubs.SCENARIOS), pool.map(diff, stubs.SCENARIOS)))
        _RUNS["dry"] = dry
    return _RUNS["diffs"], _RUNS["dry"]


class Transcripts(unittest.TestCase):
    """Each scenario of the stub world against its stored transcript."""

    def check(self, name):
        diff = scenario_runs()[0][name]
        self.assertEqual(diff, "", "check-series does not print what it did:\n%s" % diff)


def _scenario_test(scenario):
    def test(self):
        self.check(scenario.name)
    test.__doc__ = "scenario %s: the stored transcript%s" % (
        scenario.name, " (the bash script's but: %s)" % scenario.bash_differs if scenario.bash_differs else "")
    return test


for _s in stubs.SCENARIOS:
    setattr(Transcripts, "test_" + re.sub(r"\W", "_", _s.name), _scenario_test(_s))

# what the dry run runs (it only reads): git queries, build --print-path,
# the compilers' probes
QUERY = re.compile(r"^(git -C \S+ (rev-parse|rev-list|log|grep|diff) |kernel/builder/build --print-path |clang)")
# the test lines the stubs' reports hold, forwarded by a run, unknown to
# a dry run
FORWARDED = re.compile(r"(first check|known issue # TODO upstream|second - with a dash|lookup: direct|"
                       r"dynset: direct|selftest fix applies: 0001-fix\.patch|"
                       r"x86_64-7\.3-modules, 1 CPU\(s\): the guest exited 0|unload: every check)$")
TEST_LINE = re.compile(r"^(ok|not ok) \d+ - (.*)$", re.M)
# a selftest's guest command: the directory tests/lab/stable-kselftest
# printed (DIR/selftests/...) and the test
KSELFTEST_DIR = re.compile(r" _ (\S+)/selftests/tools/testing/selftests/net/netfilter (\S+)$")


def stub_commands(stdout):
    """[(command line, is a query)] of the stubs' log in STDOUT: a line
    "[stub] [FLAVOR=F ]NAME ARGS... >OUT 2>ERR", ARGS quoted by bash's
    printf %q, made one shell-quoted line again."""
    out = []
    for line in stdout.split("\n"):
        if line.startswith("[stub] "):
            words = shlex.split(re.sub(r" >\S* 2>\S*$", "", line[len("[stub] "):]))
            command = " ".join(shlex.quote(w) for w in words)
            out.append((command, bool(QUERY.match(command))))
    return out


def dry_commands(stdout):
    """The command lines a dry run printed ("+ CMD"), without their
    redirections, the checkout's path and the python3 that runs a script,
    as stub_commands gives them."""
    out = []
    for line in stdout.split("\n"):
        if not line.startswith("+ "):
            continue
        words = shlex.split(line[2:])
        while words[-1] == "2>&1" or (len(words) > 2 and words[-2] in (">", ">>", "2>")):
            words = words[:-1] if words[-1] == "2>&1" else words[:-2]
        env = []
        while re.match(r"[A-Z_]+=", words[0]):
            env.append(words.pop(0))
        if words[0] == "python3":
            words.pop(0)
        if words[0].startswith("@W/top/"):
            words[0] = words[0][len("@W/top/"):]
        out.append(" ".join(shlex.quote(w) for w in env + words))
    return out


class DryRun(unittest.TestCase):
    """--dry-run in the worlds of DRY, after their run (all passing)."""

    @classmethod
    def setUpClass(cls):
        cls.results = scenario_runs()[1]

    def test_runs_only_queries(self):
        """a dry run runs no command but those that read"""
        for name, r in self.results.items():
            ran = [c for c, query in stub_commands(r["dry"][1]) if not query]
            self.assertEqual(ran, [], name)

    def test_writes_nothing(self):
        """a dry run leaves every file of the world as it was"""
        for name, r in self.results.items():
            self.assertTrue(r["unchanged"], name)

    def test_prints_the_commands(self):
        """a dry run prints the commands the run ran, in its order (what stable-kselftest prints stands as its command)"""
        for name, r in self.results.items():
            ran = [KSELFTEST_DIR.sub(lambda m: " _ %s %s" % (shlex.quote("$(tests/lab/stable-kselftest %s %s)"
                                                                          % m.groups()), m.group(2)), c)
                   for c, query in stub_commands(r["run"][1]) if not query]
            self.assertGreater(len(ran), 40, name)
            self.assertEqual(dry_commands(r["dry"][1]), ran, name)

    def test_prints_the_tap(self):
        """a dry run prints the run's test lines but the forwarded ones, all passing; exit 0"""
        for name, r in self.results.items():
            run, dry = r["run"], r["dry"]
            self.assertEqual((run[0], dry[0]), (0, 0), name)
            want = [("ok", d) for ok, d in TEST_LINE.findall(run[1]) if not FORWARDED.search(d)]
            self.assertEqual(TEST_LINE.findall(dry[1]), want, name)
            self.assertIn("1..%d" % len(want), dry[1].split("\n"), name)


SERIES = """\
# a comment
lab/0000-before-any-group.patch
[lab]
lab/0001-a.patch   # a comment after a patch
  lab/0002 b.patch
[feature]

feature/0001-c.patch
[lab-patched]
[stable]
stable/0001-d.patch
stable/0002-e.patch"""


class SeriesFile(unittest.TestCase):
    """The series file read as kernel/lib.sh series_patches reads it."""

    def test_groups(self):
        """comments and blanks go, names before a group count for none"""
        groups = parse(SERIES + "\n")
        self.assertEqual(groups["lab"], ["lab/0001-a.patch", "lab/0002b.patch"])
        self.assertEqual(groups["feature"], ["feature/0001-c.patch"])
        self.assertEqual(groups["lab-patched"], [])
        self.assertEqual(groups["stable"], ["stable/0001-d.patch", "stable/0002-e.patch"])
        self.assertEqual(set(groups), set(GROUPS))

    def test_last_line_unread(self):
        """a last line without its newline is not read, as the shell's loop does not"""
        self.assertEqual(parse(SERIES)["stable"], ["stable/0001-d.patch"])

    def test_unknown_group(self):
        for bad in ("[labs]", "[lab", "[]", "[lab]x"):
            with self.assertRaisesRegex(SeriesError, re.escape("f: unknown group %s" % bad)):
                parse("[lab]\n%s\n" % bad, "f")

    def test_paths(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "series"), "w") as f:
                f.write(SERIES + "\n")
            self.assertEqual(Series(d).patches("stable"), [d + "/stable/0001-d.patch", d + "/stable/0002-e.patch"])
        with self.assertRaisesRegex(SeriesError, "No such file"):
            Series("/nonexistent")

    def test_both_bases(self):
        """both bases' series read, with feature patches and stable fixes"""
        for d in ("patches-6.12", "patches-7.3"):
            series = Series(os.path.join(TOP, "kernel", "series", d))
            self.assertTrue(series.groups["feature"], d)
            self.assertTrue(series.groups["stable"], d)


class FakeSeries:
    def __init__(self, feature=(), stable=()):
        self.groups = {"lab": ["l"], "feature": list(feature), "lab-patched": [], "stable": list(stable)}


class Settings(unittest.TestCase):
    def test_default_parts(self):
        """bisect matrix stable; no stable fix: bisect matrix; no feature patch: kernels"""
        self.assertEqual(settings.default_parts(FakeSeries(["f"], ["s"])), "bisect matrix stable")
        self.assertEqual(settings.default_parts(FakeSeries(["f"])), "bisect matrix")
        self.assertEqual(settings.default_parts(FakeSeries([], ["s"])), "kernels")

    def test_defaults(self):
        """an empty variable is an unset one; the base's fields only then"""
        asked = []

        def field(key):
            asked.append(key)
            return "tc-" + key
        s = settings.from_environ({"NFTLAB_MATRIX": "", "NFTLAB_SERIES_FLAVORS": ""}, FakeSeries(["f"]), field)
        self.assertEqual((s.parts, s.matrix, s.flavors), ("bisect matrix", settings.MATRIX.split(),
                                                          ["retpoline", "plain"]))
        self.assertEqual((s.llvm_toolchain, s.kcfi_toolchain, s.stable_fixes),
                         ("tc-llvm-toolchain", "tc-kcfi-toolchain", ""))
        asked.clear()
        s = settings.from_environ({"NFTLAB_LLVM_TOOLCHAIN": "llvm", "NFTLAB_KCFI_TOOLCHAIN": "llvm-16",
                                   "NFTLAB_SERIES_PARTS": "stable", "NFTLAB_MATRIX": " kcfi\tibt ",
                                   "NFTLAB_STABLE_FIXES": "0001-*"}, FakeSeries(), field)
        self.assertEqual(asked, [])
        self.assertEqual((s.parts, s.matrix, s.llvm_toolchain, s.kcfi_toolchain, s.stable_fixes),
                         ("stable", ["kcfi", "ibt"], "llvm", "llvm-16", "0001-*"))

    def test_wants(self):
        """a part is a blank-separated word of NFTLAB_SERIES_PARTS (a tab is no blank there)"""
        s = settings.Settings("matrix  stable", [], [], "", "", "")
        self.assertEqual([p for p in settings.PARTS if s.wants(p)], ["stable", "matrix"])
        s.parts = "bisect\tmatrix"
        self.assertEqual([p for p in settings.PARTS if s.wants(p)], [])
        s.parts = "bisectmatrix kernel"
        self.assertEqual([p for p in settings.PARTS if s.wants(p)], [])

    def test_order(self):
        """the parts run in one order: kernels, stable, bisect, matrix"""
        self.assertEqual(settings.PARTS, ("kernels", "stable", "bisect", "matrix"))


class StableFixes(unittest.TestCase):
    def real_fixes(self):
        for d in ("patches-6.12", "patches-7.3"):
            yield from Series(os.path.join(TOP, "kernel", "series", d)).patches("stable")

    def test_every_fix_has_a_reproducer(self):
        """every [stable] fix of both bases has a reproducer, and it exists"""
        for fix in self.real_fixes():
            repro = stable_fixes.reproducer(fix)
            self.assertIsNotNone(repro, fix)
            self.assertTrue(os.path.isfile(os.path.join(TOP, repro)), repro)

    def test_table(self):
        self.assertEqual(stable_fixes.reproducer("/x/0003-netfilter-nf_tables-set-the-hook-ops-type-of-devices.patch"),
                         "tests/reliability/chain-update-hook-type.sh")
        self.assertIsNone(stable_fixes.reproducer("0002-netfilter-nf_tables-set-the-hook-ops-type-of-devices.patch"))
        self.assertEqual(stable_fixes.kselftest("0003-netfilter-nft_set_rbtree-refuse-closing-an-open-inte.patch"),
                         "nft_interval_open.sh")
        self.assertIsNone(stable_fixes.kselftest("0003-netfilter-nf_tables-set-the-hook-ops-type-of-devices.patch"))
        self.assertEqual(stable_fixes.prepare("tests/reliability/open-interval-stable.sh"),
                         ["tests/reliability/open-interval.sh", "--build"])
        self.assertIsNone(stable_fixes.prepare("tests/reliability/commit-swap.sh"))

    def test_guests(self):
        """a race between CPUs in x86_64 with 2 vCPUs; the rest, and every selftest, in UML"""
        self.assertEqual(stable_fixes.reproducer_guest("tests/reliability/commit-swap.sh", "stable"),
                         (["--with", "smp", "x86_64", "stable", "retpoline"],
                          ["--arch", "x86_64", "--cpus", "2", "--mem", "1G"], 900))
        self.assertEqual(stable_fixes.reproducer_guest("tests/reliability/rbtree-expired.sh", "baseline"),
                         (["um", "baseline", "retpoline"], [], 120))
        self.assertEqual(stable_fixes.kselftest_guest("stable"), (["um", "stable", "retpoline"], [], 300))
        self.assertEqual((stable_fixes.wanted_exit("baseline"), stable_fixes.wanted_exit("stable")), (1, 0))

    def test_selected(self):
        """globs on the file name; none given: every fix; blanks only: none"""
        fix = "/p/stable/0002-netfilter-x.patch"
        self.assertTrue(stable_fixes.selected(fix, ""))
        self.assertTrue(stable_fixes.selected(fix, "0001-* 000[23]-*"))
        self.assertFalse(stable_fixes.selected(fix, "0001-*"))
        self.assertFalse(stable_fixes.selected(fix, " "))
        self.assertFalse(stable_fixes.selected(fix, "stable/0002-*"))

    def test_console_as_comments(self):
        """sed 's/^/# /': every line, a last one without its newline stays without"""
        self.assertEqual(stable.as_comments(""), "")
        self.assertEqual(stable.as_comments("a\n\nb\n"), "# a\n# \n# b\n")
        self.assertEqual(stable.as_comments("a\nb"), "# a\n# b")


class Bisect(unittest.TestCase):
    def test_feature_options(self):
        text = "# comment\nCONFIG_A=y\nCONFIG_B_2=m\n# CONFIG_C is not set\nCONFIG_D\nxCONFIG_E=y"
        self.assertEqual(bisection.feature_options(text), ["A", "B_2"])

    def test_lines(self):
        """mapfile -t: a last line without its newline counts, an empty output has none"""
        self.assertEqual(bisection.lines(""), [])
        self.assertEqual(bisection.lines("a\nb\n"), ["a", "b"])
        self.assertEqual(bisection.lines("a\n\nb"), ["a", "", "b"])

    def test_step_name(self):
        """step 1 is every lab patch at once, the baseline"""
        self.assertEqual(bisection.step_name(1, "um: x"), "all lab patches (baseline): um: x")
        self.assertEqual(bisection.step_name(2, "netfilter: y"), "netfilter: y")


class Matrix(unittest.TestCase):
    def test_items(self):
        """every default item has its runner, in the documented order"""
        self.assertEqual(list(matrix.ITEMS), settings.MATRIX.split())
        self.assertEqual(list(matrix.RUN), list(matrix.ITEMS))

    def test_kcfi_compiler(self):
        """the shell's clang${tc#llvm}"""
        self.assertEqual([matrix.kcfi_compiler(t) for t in ("llvm", "llvm-16", "llvm-19", "gcc")],
                         ["clang", "clang-16", "clang-19", "clanggcc"])

    def test_objects(self):
        self.assertEqual(w1.object_of("net/core/dev.c"), "net/core/dev.o")

    def test_kernels(self):
        """the kernels part: UML retpoline, eibrs, plain, then x86_64 retpoline and plain"""
        self.assertEqual(kernels.KERNELS, (("um", "retpoline"), ("um", "eibrs"), ("um", "plain"),
                                           ("x86_64", "retpoline"), ("x86_64", "plain")))


class KernelDirectory(unittest.TestCase):
    """What the checks read in a kernel directory of kernel/builder/build."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.path = self.dir.name
        with open(os.path.join(self.path, "config"), "w") as f:
            f.write("CONFIG_A=y\n# CONFIG_B is not set\nCONFIG_C=m")
        with open(os.path.join(self.path, "BUILD-INFO"), "w") as f:
            f.write("toolchain: gcc (x)\nobjdir: /o\nmodules: /m1\nbuilt: now in 1s\nmodules: /m2\n")

    def tearDown(self):
        self.dir.cleanup()

    def test_config(self):
        """whole lines, a last line without its newline included"""
        k = Kernel(self.path)
        self.assertEqual(k.config_lacks(["CONFIG_A=y", "# CONFIG_B is not set", "CONFIG_C=m", "CONFIG_A"]),
                         ["CONFIG_A"])
        self.assertTrue(k.config_has("CONFIG_C=m"))
        self.assertEqual(Kernel("/nonexistent").config_lacks(["CONFIG_A=y"]), ["CONFIG_A=y"])

    def test_info(self):
        k = Kernel(self.path)
        self.assertEqual(k.info("modules"), "/m1\n/m2")
        self.assertEqual(k.info("objdir"), "/o")
        self.assertEqual(k.info("nothing"), "")
        self.assertEqual(k.info_lines(("built", "toolchain")), "toolchain: gcc (x);built: now in 1s")

    def test_bootable(self):
        """UML's linux, executable; no directory at all: /nonexistent"""
        self.assertFalse(Kernel(self.path).bootable())
        linux = os.path.join(self.path, "linux")
        with open(linux, "w"):
            pass
        self.assertFalse(Kernel(self.path).bootable())
        os.chmod(linux, 0o755)
        self.assertTrue(Kernel(self.path).bootable())
        self.assertFalse(Kernel("").bootable())

    def test_dry(self):
        """in a dry run a kernel boots and has every option; its names are read"""
        k = Kernel("/nonexistent", dry=True)
        self.assertTrue(k.bootable())
        self.assertEqual(k.config_lacks(["CONFIG_A=y"]), [])
        self.assertEqual(k.info("modules"), "$(sed -n 's/^modules: //p' /nonexistent/BUILD-INFO)")
        self.assertEqual(Kernel(self.path, dry=True).info("objdir"), "/o")


class Output(unittest.TestCase):
    def test_shown(self):
        """a dry run's command line: quoted, its environment and redirections"""
        self.assertEqual(shown(["a b", "c"], stdout="/o f", stderr=TO_STDOUT, env={"X": "1 2"}),
                         "X='1 2' 'a b' c > '/o f' 2>&1")
        self.assertEqual(shown(["m"], stdout="/l", append=True, stderr="/dev/null"), "m >> /l 2> /dev/null")

    def test_plan(self):
        """the last line is the plan; the exit status 1 when a test failed, a TODO aside"""
        out = io.StringIO()
        t = tap.Tap(out)
        t.ok(True, "a")
        t.skip("b", "why")
        self.assertEqual(tap.done(t), 0)
        t.todo("c", "known")
        self.assertEqual(tap.done(t), 0)
        t.ok(False, "d")
        self.assertEqual(tap.done(t), 1)
        self.assertEqual(out.getvalue().split("\n")[-2], "1..4")

    def test_usage(self):
        """an unknown option: usage on stderr, exit status 2; --help: the documentation"""
        prog = os.path.join(TOP, "kernel", "checks", "check-series")
        r = subprocess.run([prog, "--frobnicate"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.assertEqual((r.returncode, r.stdout), (2, ""))
        self.assertIn("usage: kernel/checks/check-series [--dry-run]", r.stderr)
        r = subprocess.run([prog, "--help"], stdout=subprocess.PIPE, text=True)
        self.assertEqual(r.returncode, 0)
        self.assertIn("NFTLAB_SERIES_PARTS", r.stdout)


if __name__ == "__main__":
    sys.exit(tap.run_file(__file__))
