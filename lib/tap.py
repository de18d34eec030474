#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The TAP producer of every Python program of the project, the Python half
of lib/ (lib/tap.sh is the shell one; the same lines, the same rules).

Tap: the checks of a program (the suite's validate and t0.py validate,
tests/results/check-results.py, tests/reliability/*.py,
kernel/checks/direct_calls): "ok N - ...", "not ok N - ...", numbered from
1; done() ends with the plan line "1..N" and gives the exit status.

The unittest runner: python3 lib/tap.py TEST_FILE.py... runs the unittest
tests of the files and prints one line per test ("ok N - FILE: test_name:
first line of its docstring", the traceback of a failure as comments);
exit status 1 if one failed or none ran.  A test file's own __main__
calls run_file().

A program never numbers on from another: a caller that runs several in
one stream nests each one's TAP under a line of its own (lib/tap.sh
tap_sub, the kselftest way).

A user runs lib/bootstrap.py first, found from its own __file__ as it
finds the rest of the checkout (it puts lib/ and the checkout's other
Python directories on sys.path), and imports tap."""
import importlib.util
import os
import re
import sys
import traceback
import unittest


class Tap:
    """Test lines on OUT (default: sys.stdout when the line is written)."""

    def __init__(self, out=None):
        self.out = out
        self.n = 0
        self.failed = 0

    def line(self, text):
        out = self.out or sys.stdout
        out.write(text + "\n")
        out.flush()

    def diag(self, text, limit=15):
        for line in str(text or "").splitlines()[:limit]:
            self.line("# " + line)

    def ok(self, cond, desc, diag=None):
        self.n += 1
        self.line("%s %d - %s" % ("ok" if cond else "not ok", self.n, desc))
        if not cond:
            self.failed += 1
            self.diag(diag)
        return cond

    def todo(self, desc, why, diag=None):
        """A known, explained failure: "not ok ... # TODO WHY" (counted
        with the skips by tests/run-check, never as passed)."""
        self.n += 1
        self.line("not ok %d - %s # TODO %s" % (self.n, desc, why))
        self.diag(diag)

    def skip(self, desc, why):
        self.n += 1
        self.line("ok %d - %s # SKIP %s" % (self.n, desc, why))

    def status(self):
        return 1 if self.failed else 0

    def bail(self, why):
        """Stop the program: "Bail out! WHY", a failed line for it, exit
        status 1 (lib/tap.sh tap_bail)."""
        self.line("Bail out! %s" % why)
        self.line("not ok %d - %s" % (self.n + 1, why))
        raise SystemExit(1)

    def forward(self, prefix, path):
        """The test lines of another TAP stream, the file PATH (a guest's
        report), under this one's numbering with PREFIX before each
        description (lib/tap.sh tap_forward): a "# TODO" failure stays one,
        never counted; a comment passes as it is; other lines are dropped.
        A last line without its newline is not read, as the shell's read
        loop does not read it."""
        for line in file_lines(path)[0]:
            if line.startswith("ok "):
                self.ok(True, prefix + _description(line, "ok "))
            elif line.startswith("not ok ") and "# TODO" in line[len("not ok "):]:
                self.n += 1
                self.line("not ok %d - %s%s" % (self.n, prefix, _description(line, "not ok ")))
            elif line.startswith("not ok "):
                self.ok(False, prefix + _description(line, "not ok "))
            elif line.startswith("#"):
                self.line(line)

    def report(self, prefix, path, console):
        """A guest's report PATH forwarded (forward), or, when it wrote none
        (no file, or an empty one), a failure and the last 30 lines of the
        guest's CONSOLE as comments (lib/tap.sh tap_report)."""
        try:
            written = os.stat(path).st_size > 0
        except OSError:
            written = False
        if written:
            self.forward(prefix, path)
            return
        self.ok(False, "%sthe guest wrote a report (%s)" % (prefix, path))
        lines, last = file_lines(console)
        for line in (lines + ([last] if last else []))[-30:]:
            self.line("# " + line)


def file_lines(path):
    """([every line of the file PATH that ends in a newline], the text
    after the last newline): the bytes as they are (surrogateescape), no
    newline translation; ([], "") for a file that cannot be read."""
    try:
        with open(path, encoding="utf-8", errors="surrogateescape", newline="") as f:
            text = f.read()
    except OSError:
        return [], ""
    lines = text.split("\n")
    return lines[:-1], lines[-1]


def _description(line, head):
    """LINE without HEAD, its number and " - " (the shell's ${line#ok * - }:
    the shortest such prefix); LINE itself when it has none."""
    m = re.match(re.escape(head) + r".*? - ", line, re.S)
    return line[m.end():] if m else line


def done(tap):
    """The end of a test program: the plan line; the exit status."""
    tap.line("1..%d" % tap.n)
    return tap.status()


class TapResult(unittest.TestResult):
    """unittest's results as the lines of a Tap, one per test method."""

    def __init__(self, tap):
        super().__init__()
        self.tap = tap
        self.problems = []
        self.skip_reason = None

    def startTest(self, test):
        super().startTest(test)
        self.problems = []
        self.skip_reason = None

    def class_level(self, test, passed, directive, err=None):
        """A setUpClass or setUpModule that failed or skipped: unittest
        reports it for no test of its own (an _ErrorHolder, without
        startTest and stopTest) and runs none of the class's tests, so
        it gets a line here; else they would vanish from the stream."""
        if directive:
            self.tap.skip(test.description, directive)
            return
        self.tap.ok(passed, test.description)
        if err is not None:
            self.tap.diag(self._exc_info_to_string(err, test), limit=None)

    def addError(self, test, err):
        super().addError(test, err)
        if not isinstance(test, unittest.TestCase):
            self.class_level(test, False, "", err)
            return
        self.problems.append(self._exc_info_to_string(err, test))

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self.problems.append(self._exc_info_to_string(err, test))

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is not None:
            self.problems.append("%s\n%s" % (subtest, self._exc_info_to_string(err, test)))

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        if not isinstance(test, unittest.TestCase):
            self.class_level(test, True, reason)
            return
        self.skip_reason = reason

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self.problems.append("passed, but is marked as an expected failure")

    def stopTest(self, test):
        super().stopTest(test)
        module = test.__class__.__module__
        doc = test.shortDescription()
        description = "%s: %s%s" % (module, test._testMethodName, ": " + doc if doc else "")
        if self.skip_reason is not None:
            self.tap.skip(description, self.skip_reason)
            return
        self.tap.ok(not self.problems, description)
        for problem in self.problems:
            self.tap.diag(problem, limit=None)


def load(path):
    """The module of the test file PATH, imported under its file name."""
    name = os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def run_tests(paths):
    """TAP of the unittest tests of the files PATHS; the exit status."""
    tap = Tap()
    result = TapResult(tap)
    for path in paths:
        try:
            module = load(path)
        except Exception:
            tap.ok(False, "%s imports" % path)
            tap.diag(traceback.format_exc(), limit=None)
            continue
        unittest.defaultTestLoader.loadTestsFromModule(module).run(result)
    # no test at all is a failure too, with a line of its own: a file whose
    # tests vanished (a renamed class, a typo in "def test_") must not pass
    if tap.n == 0:
        tap.ok(False, "%s: no test ran" % " ".join(paths))
    return done(tap) or (0 if result.wasSuccessful() else 1)


def run_file(path):
    """The __main__ of the test file PATH: its TAP, or, given any argument
    (-v, -k PATTERN, a test's name), unittest's own runner on it."""
    if sys.argv[1:]:
        prog = unittest.main(module=load(path), argv=sys.argv, exit=False)
        return 0 if prog.result.wasSuccessful() else 1
    return run_tests([path])


if __name__ == "__main__":
    if not sys.argv[1:] or sys.argv[1].startswith("-"):
        print("Usage: python3 lib/tap.py TEST_FILE.py...", file=sys.stderr)
        sys.exit(2)
    sys.exit(run_tests(sys.argv[1:]))
