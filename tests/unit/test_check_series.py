#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of kernel/checks/check-series (make check-series).  No
kernel is built or booted.

In the stub world of tests/unit/check_series_stubs.py (every program it
runs a stub that logs its command line), every scenario (each part of
both bases, all passing; a failure of each kind; selections by the
environment; no base tree) prints its stored transcript: the same
commands in the same order, with the same redirections, the same TAP,
stderr and exit status (tests/unit/fixtures/check-series/expected/,
recorded from the bash script).

python3 lib/tap.py tests/unit/test_check_series.py (TAP; make check runs
it with every tests/unit/test_*.py, step units), or python3
tests/unit/test_check_series.py [-v]; after an intended change of what
check-series prints: python3 tests/unit/check_series_stubs.py record."""
import os
import re
import runpy
import sys
import unittest
from concurrent.futures import ThreadPoolExecutor

# lib/ (tap) and tests/unit/ (check_series_stubs) on sys.path
runpy.run_path(os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..", "lib", "bootstrap.py"))
import check_series_stubs as stubs  # noqa: E402
import tap  # noqa: E402

_RUNS = {}


def scenario_runs():
    """{scenario: the diff of its transcript against the stored one}."""
    if not _RUNS:
        # the scenarios wait on their stubs' processes: two at a time
        with ThreadPoolExecutor(max_workers=2) as pool:
            _RUNS.update(zip((s.name for s in stubs.SCENARIOS), pool.map(stubs.difference, stubs.SCENARIOS)))
    return _RUNS


class Transcripts(unittest.TestCase):
    """Each scenario of the stub world against its stored transcript."""

    def check(self, name):
        diff = scenario_runs()[name]
        self.assertEqual(diff, "", "check-series does not print what it did:\n%s" % diff)


def _scenario_test(scenario):
    def test(self):
        self.check(scenario.name)
    test.__doc__ = "scenario %s: the stored transcript%s" % (
        scenario.name, " (the bash script's but: %s)" % scenario.bash_differs if scenario.bash_differs else "")
    return test


for _s in stubs.SCENARIOS:
    setattr(Transcripts, "test_" + re.sub(r"\W", "_", _s.name), _scenario_test(_s))


if __name__ == "__main__":
    sys.exit(tap.run_file(__file__))
