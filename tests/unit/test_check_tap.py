#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of lib/, the TAP library: lib/tap.py's Tap and unittest
runner, its forward, report and bail line for line against lib/tap.sh's
tap_forward, tap_report and tap_bail, lib/tap.sh's nesting of a test program's TAP in a caller's stream
(tap_sub, as bench-quick and tests/lab/t0-quick.sh run bench validate
and t0.py validate) and tests/run-check's counts of such a stream (tap_count).  Fake sub-programs:
one that passes, one that prints "not ok", one that crashes without
output, one whose tests vanished.

python3 lib/tap.py tests/unit/test_check_tap.py (TAP; make check
runs it with every tests/unit/test_*.py, step units), or python3
tests/unit/test_check_tap.py [-v]."""
import io
import os
import runpy
import subprocess
import sys
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
LIB = os.path.normpath(os.path.join(HERE, "..", "..", "lib"))
runpy.run_path(os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..", "lib", "bootstrap.py"))
import tap  # noqa: E402


def bash(script, *args):
    """(exit status, stdout) of SCRIPT run by bash with lib/tap.sh sourced."""
    r = subprocess.run(["bash", "-c", '. "$0"; ' + script, os.path.join(LIB, "tap.sh")] + list(args),
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return r.returncode, r.stdout


def count(text):
    """tap_count's "PASSED FAILED SKIPPED" of the stream TEXT, as ints."""
    with tempfile.NamedTemporaryFile("w", suffix=".tap") as f:
        f.write(text)
        f.flush()
        rc, out = bash('tap_count "$1"', f.name)
    assert rc == 0, out
    return tuple(int(n) for n in out.split())


# the fake sub-programs, as shell commands
PASSES = "printf 'ok 1 - a\\nok 2 - b\\n1..2\\n'"
PRINTS_NOT_OK = "printf 'ok 1 - a\\nnot ok 2 - b\\n1..2\\n'"
CRASHES = "exit 3"
RUNS_NOTHING = "printf '1..0\\n'"
KNOWN_FAILURE = "printf 'not ok 1 - a # TODO known\\n1..1\\n'"


class Sub(unittest.TestCase):
    """tap_sub DESCRIPTION CMD: CMD's TAP nested, then one line for it."""

    def sub(self, cmd):
        return bash('tap_sub prog bash -c "$1"; tap_end', cmd)

    def test_pass(self):
        """a program that passes: its lines 4 spaces deeper, "ok 1 - prog", the step passes"""
        rc, out = self.sub(PASSES)
        self.assertEqual(out, "    ok 1 - a\n    ok 2 - b\n    1..2\nok 1 - prog\n1..1\n")
        self.assertEqual(rc, 0)

    def test_not_ok(self):
        """a program that prints "not ok" and exits 0 fails"""
        rc, out = self.sub(PRINTS_NOT_OK)
        self.assertIn("\nnot ok 1 - prog\n", out)
        self.assertNotEqual(rc, 0)

    def test_crash(self):
        """a program that exits non-zero without output fails"""
        rc, out = self.sub(CRASHES)
        self.assertTrue(out.startswith("not ok 1 - prog\n# prog: exit status 3"), out)
        self.assertNotEqual(rc, 0)

    def test_no_test(self):
        """a program that exits 0 without a test line fails"""
        rc, out = self.sub(RUNS_NOTHING)
        self.assertIn("\nnot ok 1 - prog\n", out)
        self.assertNotEqual(rc, 0)

    def test_todo(self):
        """a known failure (TODO) does not fail the program"""
        rc, out = self.sub(KNOWN_FAILURE)
        self.assertIn("\nok 1 - prog\n", out)
        self.assertEqual(rc, 0)

    def test_not_tap(self):
        """a line that is not TAP (a traceback on stderr) is a nested comment"""
        rc, out = self.sub("echo Traceback >&2; " + CRASHES)
        self.assertTrue(out.startswith("    # Traceback\nnot ok 1 - prog\n"), out)

    def test_numbering(self):
        """the caller's numbering goes on after the program's line"""
        rc, out = bash('tap_result first 0; tap_sub prog bash -c "$1"; tap_result last 0; tap_end', PASSES)
        self.assertEqual([line for line in out.splitlines() if not line.startswith(" ")],
                         ["ok 1 - first", "ok 2 - prog", "ok 3 - last", "1..3"])

    def test_two_levels(self):
        """a program that nests another: 8 spaces deep, each level its own line"""
        inner = 'tap_sub inner bash -c "$1"; tap_end'
        rc, out = bash('tap_sub outer bash -c ". \\"$0\\"; $2" "$0" "$1"; tap_end', PRINTS_NOT_OK, inner)
        self.assertIn("        not ok 2 - b\n        1..2\n    not ok 1 - inner\n", out)
        self.assertIn("\nnot ok 1 - outer\n", out)
        self.assertNotEqual(rc, 0)
        self.assertEqual(count(out), (1, 1, 0))


class Count(unittest.TestCase):
    """tap_count FILE: "PASSED FAILED SKIPPED", nested tests included."""

    def nested(self, *cmds):
        """The stream of the programs CMDS nested in one, as tap_sub prints it."""
        script = "".join('tap_sub prog%d bash -c "$%d"; ' % (i, i + 1) for i in range(len(cmds)))
        return bash(script + "tap_end", *cmds)[1]

    def test_flat(self):
        """a flat stream: passes, failures, skips and TODOs; plans and comments ignored"""
        self.assertEqual(count("ok 1 - a\nnot ok 2 - b\nok 3 - c # SKIP why\nnot ok 4 - d # TODO why\n"
                               "# ok 9 - a comment\n1..4\n"), (1, 1, 2))

    def test_pass(self):
        """a passing program's tests count, its own line does not"""
        self.assertEqual(count(self.nested(PASSES)), (2, 0, 0))

    def test_not_ok(self):
        """a failed nested test is one failure, not two"""
        self.assertEqual(count(self.nested(PRINTS_NOT_OK)), (1, 1, 0))

    def test_crash(self):
        """a program that crashed without output is one failure"""
        self.assertEqual(count(self.nested(CRASHES)), (0, 1, 0))

    def test_crash_after_passes(self):
        """a program that passed its tests, then exited non-zero, is one failure"""
        self.assertEqual(count(self.nested(PASSES + "; exit 1")), (2, 1, 0))

    def test_siblings(self):
        """programs side by side are counted each for itself"""
        self.assertEqual(count(self.nested(PASSES, PRINTS_NOT_OK, CRASHES, KNOWN_FAILURE)), (3, 2, 1))

    def test_two_levels(self):
        """a failure two levels deep is one failure"""
        self.assertEqual(count("        ok 1 - a\n        not ok 2 - b\n        1..2\n"
                               "    not ok 1 - inner\n    1..1\nnot ok 1 - outer\nok 2 - c\n1..2\n"),
                         (2, 1, 0))


class PyTap(unittest.TestCase):
    """lib/tap.py: Tap and done()."""

    def test_lines(self):
        """lines numbered from 1, a failure's diagnostics as comments, the plan at the end"""
        out = io.StringIO()
        t = tap.Tap(out)
        t.ok(True, "a")
        t.ok(False, "b", "why\nand more")
        t.skip("c", "no tool")
        t.todo("d", "known")
        self.assertEqual(tap.done(t), 1)
        self.assertEqual(out.getvalue(), "ok 1 - a\nnot ok 2 - b\n# why\n# and more\nok 3 - c # SKIP no tool\n"
                                         "not ok 4 - d # TODO known\n1..4\n")

    def test_todo_passes(self):
        """a TODO does not fail the program"""
        t = tap.Tap(io.StringIO())
        t.todo("d", "known")
        self.assertEqual(tap.done(t), 0)


# A guest's report: passes, a TODO, a failure, descriptions with " - ",
# comments, lines that are not TAP, and a last line without its newline.
REPORT = ("# a comment\nok 1 - first\nnot ok 2 - known - with a dash # TODO upstream\n"
          "ok 3 -no blank\nnot ok 4 - broken\n  ok 5 - indented\n1..5\nnoise\nok  - odd\n"
          "ok 6 - unread")
CONSOLE = "".join("line %d\n" % i for i in range(1, 40)) + "last, without its newline"


class Forward(unittest.TestCase):
    """lib/tap.py Tap.forward, report and bail print what lib/tap.sh
    tap_forward, tap_report and tap_bail print, under the caller's
    numbering."""

    def both(self, script, py, files):
        """(exit status, stdout) of SCRIPT (tap.sh) and of PY(tap) on the
        same FILES {name: text}, after one test line of the caller's own."""
        with tempfile.TemporaryDirectory() as d:
            paths = {}
            for name, text in files.items():
                paths[name] = os.path.join(d, name)
                if text is not None:
                    with open(paths[name], "w") as f:
                        f.write(text)
            sh = bash('tap_check own true; %s; tap_end' % script, *[paths[n] for n in sorted(paths)])
            out = io.StringIO()
            t = tap.Tap(out)
            t.ok(True, "own")
            try:
                py(t, *[paths[n] for n in sorted(paths)])
                rc = tap.done(t)
            except SystemExit as e:
                rc = e.code
        return sh, (rc, out.getvalue())

    def test_forward(self):
        sh, py = self.both('tap_forward "p: " "$1"', lambda t, f: t.forward("p: ", f), {"r": REPORT})
        self.assertEqual(py, sh)
        self.assertIn("not ok 3 - p: known - with a dash # TODO upstream\n", py[1])
        self.assertEqual(py[0], 1)

    def test_report(self):
        """a report forwarded; none, or an empty one: a failure and the console's last 30 lines"""
        for report in (REPORT, "", None):
            sh, py = self.both('tap_report "p: " "$2" "$1"', lambda t, c, r: t.report("p: ", r, c),
                               {"c": CONSOLE, "r": report})
            self.assertEqual(py, sh, repr(report))
        self.assertIn("# last, without its newline\n", py[1])
        self.assertNotIn("# line 9\n", py[1])

    def test_bail(self):
        sh, py = self.both('tap_bail "no way"', lambda t: t.bail("no way"), {})
        self.assertEqual(py, sh)
        self.assertEqual(py, (1, "ok 1 - own\nBail out! no way\nnot ok 2 - no way\n"))


class Runner(unittest.TestCase):
    """python3 lib/tap.py TEST_FILE.py: TAP of a unittest file."""

    def run_file(self, body):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "test_fake.py")
            with open(path, "w") as f:
                f.write(textwrap.dedent(body))
            r = subprocess.run([sys.executable, os.path.join(LIB, "tap.py"), path],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        return r.returncode, r.stdout

    def test_lines(self):
        """one line per test method, its docstring; a failure fails the run"""
        rc, out = self.run_file('''
            import unittest
            class T(unittest.TestCase):
                def test_a(self):
                    """it works"""
                def test_b(self):
                    self.assertEqual(1, 2)
            ''')
        lines = out.splitlines()
        self.assertEqual(lines[0], "ok 1 - test_fake: test_a: it works")
        self.assertEqual(lines[1], "not ok 2 - test_fake: test_b")
        self.assertEqual(lines[-1], "1..2")
        self.assertEqual(rc, 1)

    def test_no_test(self):
        """a file without a test fails, with a line of its own"""
        rc, out = self.run_file("import unittest\n")
        self.assertIn("not ok 1 - ", out)
        self.assertEqual(rc, 1)

    def test_import_error(self):
        """a file that does not import fails, its traceback as comments"""
        rc, out = self.run_file("import no_such_module_here\n")
        self.assertTrue(out.startswith("not ok 1 - ") and "# ModuleNotFoundError" in out, out)
        self.assertEqual(rc, 1)


if __name__ == "__main__":
    sys.exit(tap.run_file(__file__))
