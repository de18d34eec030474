#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of how tests/run-check runs the Python unit tests: one step,
units, whose command takes tests/unit/test_*.py by glob, so that a new
test file runs without an edit anywhere; in make check's first group,
before any step that builds or boots a kernel; and no other step (nor
bench-quick) runs a unit test file of its own.  The step's command and
groups are read from run-check itself (its step_cmd function and group
lines, evaluated by bash).

python3 tests/unit/test_run_check.py: TAP (lib/tap.py); -v: unittest's own
runner."""
import glob
import os
import re
import runpy
import shutil
import subprocess
import sys
import tempfile
import unittest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
runpy.run_path(os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..", "lib", "bootstrap.py"))
import tap  # noqa: E402

RUN_CHECK = os.path.join(TOP, "tests", "run-check")
BENCH_QUICK = os.path.join(TOP, "nft_concat_range", "bench-quick")


def definitions():
    """run-check's step_cmd function and its group and steps variables,
    as bash text (the rest of the script runs steps)."""
    with open(RUN_CHECK) as f:
        text = f.read()
    func = re.search(r"^step_cmd\(\) \{\n.*?^\}\n", text, re.S | re.M)
    assigns = re.findall(r"^(?:group_\w+|steps_\w+)=.*$", text, re.M)
    return "\n".join(assigns) + "\n" + func.group(0)


def bash(script, cwd=TOP):
    """stdout of bash running run-check's definitions, then SCRIPT, in CWD."""
    out = subprocess.run(["bash", "-c", definitions() + script], cwd=cwd,
                         capture_output=True, text=True, check=True)
    return out.stdout


def units_files(cwd=TOP):
    """The files step units runs, its command expanded in CWD as run_step
    expands it (an unquoted word list)."""
    words = bash('cmd=$(step_cmd units); set -- $cmd; printf "%s\\n" "$@"', cwd).split("\n")
    return sorted(w for w in words if w.endswith(".py") and "/test_" in w)


class UnitsStep(unittest.TestCase):
    def test_every_file(self):
        """step units runs every tests/unit/test_*.py of the tree"""
        want = sorted(os.path.relpath(p, TOP)
                      for p in glob.glob(os.path.join(TOP, "tests", "unit", "test_*.py")))
        self.assertEqual(units_files(), want)

    def test_new_file(self):
        """a new tests/unit/test_*.py runs with no edit (a glob, not a list)

        The command is expanded in a scratch tree with a file no list names."""
        tmp = tempfile.mkdtemp(prefix="test_run_check.")
        self.addCleanup(shutil.rmtree, tmp)
        os.makedirs(os.path.join(tmp, "tests", "unit"))
        for name in ("test_a.py", "test_zz_new_file.py"):
            open(os.path.join(tmp, "tests", "unit", name), "w").close()
        self.assertEqual(units_files(tmp),
                         ["tests/unit/test_a.py", "tests/unit/test_zz_new_file.py"])

    def test_runner(self):
        """step units runs them through lib/tap.py's runner, in one process"""
        self.assertRegex(bash("step_cmd units"), r"^python3 lib/tap\.py tests/unit/test_\*\.py$")

    def test_first_group(self):
        """units is in check's and check-full's first group (no kernel step)

        That group builds and boots no kernel, so a unit test never waits
        for one."""
        for steps in ("steps_quick", "steps_full"):
            first = bash('printf "%s\\n" $' + steps).split("\n")[0].split("+")
            self.assertIn("units", first, steps)
            guests = bash('echo "$group_guests"').split()[0].split("+")
            self.assertFalse(set(first) & set(guests), steps)

    def test_no_other_step(self):
        """no other step, and not bench-quick, runs a unit test file"""
        steps = set()
        for item in bash('printf "%s\\n" $steps_full').split():
            steps.update(item.split("+"))
        steps.discard("units")
        for step in sorted(steps):
            self.assertNotIn("tests/unit/test_", bash("step_cmd " + step), step)
        with open(BENCH_QUICK) as f:
            code = [line for line in f if not line.lstrip().startswith("#")]
        self.assertFalse([line for line in code if "tests/unit" in line])


if __name__ == "__main__":
    sys.exit(tap.run_file(__file__))
