#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Runs the unittest tests of the files given and prints TAP, one line
per test ("ok N - FILE: test_name: first line of its docstring"), the
traceback of a failure as comments; exit status 1 if one failed or none
ran.

Usage: tests/unit/unittest_tap.py [--tap-start N] [--count-file PATH] TEST_FILE.py...

--tap-start and --count-file chain it into a caller's TAP stream as
nftbench/tap.py's producers do (bench-quick): the lines numbered on from
N, and instead of the plan line "TESTS FAILED" written to PATH, the
caller's numbers now.  A test file's own __main__ calls run_file().
"""
import argparse
import importlib.util
import os
import sys
import traceback
import unittest


class TapResult(unittest.TestResult):
    def __init__(self, out, start=0):
        super().__init__()
        self.out = out
        self.n = start
        self.failed = 0
        self.problems = []
        self.skip_reason = None

    def emit(self, text):
        self.out.write(text + "\n")
        self.out.flush()

    def test_line(self, passed, description, directive=""):
        self.n += 1
        self.failed += 0 if passed else 1
        self.emit("%s %d - %s%s" % ("ok" if passed else "not ok", self.n, description, directive))

    def startTest(self, test):
        super().startTest(test)
        self.problems = []
        self.skip_reason = None

    def class_level(self, test, passed, directive, err=None):
        """A setUpClass or setUpModule that failed or skipped: unittest
        reports it for no test of its own (an _ErrorHolder, without
        startTest and stopTest) and runs none of the class's tests, so
        it gets a line here; else they would vanish from the stream."""
        self.test_line(passed, test.description, directive)
        if err is not None:
            for line in self._exc_info_to_string(err, test).rstrip("\n").split("\n"):
                self.emit("# " + line)

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
            self.class_level(test, True, " # SKIP " + reason)
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
            self.test_line(True, description, " # SKIP " + self.skip_reason)
            return
        self.test_line(not self.problems, description)
        for problem in self.problems:
            for line in problem.rstrip("\n").split("\n"):
                self.emit("# " + line)


def load(path):
    """The module of the test file PATH, imported under its file name."""
    name = os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def main(argv):
    ap = argparse.ArgumentParser(description="TAP of the unittest tests of TEST_FILE.py...")
    ap.add_argument("--tap-start", type=int, default=0, help="number the lines on from N")
    ap.add_argument("--count-file", help='write "TESTS FAILED" to PATH instead of the plan line')
    ap.add_argument("paths", nargs="+", metavar="TEST_FILE.py")
    args = ap.parse_args(argv)
    result = TapResult(sys.stdout, args.tap_start)
    for path in args.paths:
        try:
            module = load(path)
        except Exception:
            result.test_line(False, "%s imports" % path)
            for line in traceback.format_exc().rstrip("\n").split("\n"):
                result.emit("# " + line)
            result.errors.append((path, "import"))
            continue
        unittest.defaultTestLoader.loadTestsFromModule(module).run(result)
    # no test at all is a failure too, with a line of its own so that a
    # caller counting the lines sees it: a file whose tests vanished (a
    # renamed class, a typo in "def test_") must not pass
    if result.n == args.tap_start:
        result.test_line(False, "%s: no test ran" % " ".join(args.paths))
    if args.count_file:
        with open(args.count_file, "w") as f:
            f.write("%d %d\n" % (result.n, result.failed))
    else:
        result.emit("1..%d" % result.n)
    return 0 if result.wasSuccessful() and not result.failed else 1


def run_file(path):
    """The __main__ of the test file PATH: its TAP (the options of main()
    accepted, as bench-quick passes them), or, given any other argument
    (-v, -k PATTERN, a test's name), unittest's own runner on it."""
    tap_opts = argparse.ArgumentParser(add_help=False)
    tap_opts.add_argument("--tap-start")
    tap_opts.add_argument("--count-file")
    _, rest = tap_opts.parse_known_args(sys.argv[1:])
    if rest:
        prog = unittest.main(module=load(path), argv=[sys.argv[0]] + rest, exit=False)
        return 0 if prog.result.wasSuccessful() else 1
    return main(sys.argv[1:] + [path])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
