#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Runs the unittest tests of the files given and prints TAP, one line
per test ("ok N - FILE: test_name: first line of its docstring"), the
traceback of a failure as comments; exit status 1 if one failed.

Usage: tests/unit/unittest_tap.py TEST_FILE.py...
"""
import importlib.util
import os
import sys
import traceback
import unittest


class TapResult(unittest.TestResult):
    def __init__(self, out):
        super().__init__()
        self.out = out
        self.n = 0
        self.problems = []
        self.skip_reason = None

    def emit(self, text):
        self.out.write(text + "\n")
        self.out.flush()

    def test_line(self, passed, description, directive=""):
        self.n += 1
        self.emit("%s %d - %s%s" % ("ok" if passed else "not ok", self.n, description, directive))

    def startTest(self, test):
        super().startTest(test)
        self.problems = []
        self.skip_reason = None

    def addError(self, test, err):
        super().addError(test, err)
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


def main(paths):
    result = TapResult(sys.stdout)
    for path in paths:
        try:
            module = load(path)
        except Exception:
            result.test_line(False, "%s imports" % path)
            for line in traceback.format_exc().rstrip("\n").split("\n"):
                result.emit("# " + line)
            result.errors.append((path, "import"))
            continue
        unittest.defaultTestLoader.loadTestsFromModule(module).run(result)
    result.emit("1..%d" % result.n)
    return 0 if result.wasSuccessful() and result.n > 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
