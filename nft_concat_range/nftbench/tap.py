# SPDX-License-Identifier: GPL-2.0
"""TAP output of the suite's Python checks (validate, t0.py validate,
tests/results/check-results.py); the unit tests print theirs through
tests/unit/unittest_tap.py, which takes the same chaining options.

START numbers on from an earlier producer's tests (bench-quick runs
several in one TAP stream); count_file() hands the numbers back to it."""
import argparse
import sys


class Tap:
    def __init__(self, start=0):
        self.n = start
        self.failed = 0

    def ok(self, cond, desc, diag=None):
        self.n += 1
        print("%s %d - %s" % ("ok" if cond else "not ok", self.n, desc))
        if not cond:
            self.failed += 1
            if diag:
                for line in str(diag).splitlines()[:15]:
                    print("# " + line)
        sys.stdout.flush()
        return cond

    def todo(self, desc, why, diag=None):
        """A known, explained failure: "not ok ... # TODO WHY" (counted
        with the skips by tests/run-check, never as passed)."""
        self.n += 1
        print("not ok %d - %s # TODO %s" % (self.n, desc, why))
        for line in str(diag or "").splitlines()[:15]:
            print("# " + line)
        sys.stdout.flush()

    def skip(self, desc, why):
        self.n += 1
        print("ok %d - %s # SKIP %s" % (self.n, desc, why))

    def count_file(self, path):
        """Writes "N FAILED" to PATH (if given) for the caller's tally."""
        if path:
            with open(path, "w") as f:
                f.write("%d %d\n" % (self.n, self.failed))

    def status(self):
        return 1 if self.failed else 0


def from_argv(argv=None):
    """(Tap, count file) of a test program's command line: [--tap-start N]
    [--count-file PATH], as bench-quick chains its producers."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--tap-start", type=int, default=0)
    ap.add_argument("--count-file")
    args = ap.parse_args(argv)
    return Tap(args.tap_start), args.count_file


def done(tap, count_file=None):
    """The end of a test program: the numbers to the chaining caller, or
    the plan line when it runs alone; the exit status."""
    if count_file:
        tap.count_file(count_file)
    else:
        print("1..%d" % tap.n)
    return tap.status()
