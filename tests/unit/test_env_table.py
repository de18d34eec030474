#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of the top-level README as a user's guide: its "Environment"
table has a row for every NFTLAB_* and NFTB_* variable the tree reads and
for every make variable of its Makefiles, and no row for a variable that
nothing reads; it stays within 250 lines; every path it names exists.

"Reads": the name anywhere in a tracked file (scripts, Python, Makefiles,
configuration), except docs (*.md, docs/), stored results, the kernel
patches, and C sources, where only getenv("NAME") counts (their NFTLAB_*
names are include guards and macros).  No kernel.

python3 tests/unit/test_env_table.py: TAP (lib/tap.py); -v: unittest's own
runner."""
import os
import re
import runpy
import subprocess
import sys
import unittest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
runpy.run_path(os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..", "lib", "bootstrap.py"))
import tap  # noqa: E402

README = os.path.join(TOP, "README.md")
MAX_LINES = 250
NAME_RE = re.compile(r"\b(?:NFTLAB|NFTB)_[A-Z0-9_]+\b")
GETENV_RE = re.compile(r"getenv\(\"((?:NFTLAB|NFTB)_[A-Z0-9_]+)\"\)")
MAKE_USE_RE = re.compile(r"\$\(([A-Z][A-Z0-9_]*)\)")
MAKE_DEFAULT_RE = re.compile(r"^([A-Z][A-Z0-9_]*)\s*\?=", re.M)
# make's own variables and the environment's, which no user sets for nftlab
MAKE_BUILTIN = {"MAKE", "CURDIR", "HOME", "MAKEFILE_LIST"}
# documents and data: what they name, they describe or record, not read
NOT_CODE_RE = re.compile(r"(\.md$|^docs/|^kernel/series/patches-[^/]*/)")
PATH_ROOTS = ("kernel/", "docs/", "tests/", "userspace/", "nft_concat_range/", "lib/")


def tracked():
    out = subprocess.run(["git", "-C", TOP, "ls-files", "-z"], check=True,
                         stdout=subprocess.PIPE).stdout.decode()
    return [f for f in out.split("\0") if f and os.path.isfile(os.path.join(TOP, f))]


def read(path):
    with open(os.path.join(TOP, path), "rb") as f:
        data = f.read()
    return None if b"\0" in data else data.decode("utf-8", "replace")


def variables_read():
    """{name: first file} of every NFTLAB_*/NFTB_* variable the tree reads."""
    found = {}
    for path in tracked():
        if NOT_CODE_RE.search(path):
            continue
        text = read(path)
        if text is None:
            continue
        names = GETENV_RE.findall(text) if path.endswith((".c", ".h")) else NAME_RE.findall(text)
        for name in names:
            found.setdefault(name, path)
    return found


def make_variables():
    """{name: Makefile} of the variables a user may set on make's command
    line: those the top Makefile expands and those a Makefile defaults (?=)."""
    found = {}
    for path in tracked():
        if os.path.basename(path) != "Makefile":
            continue
        text = read(path)
        names = set(MAKE_DEFAULT_RE.findall(text))
        if path == "Makefile":
            names |= set(MAKE_USE_RE.findall(text)) - MAKE_BUILTIN
        for name in names:
            found.setdefault(name, path)
    return found


def readme_lines():
    with open(README) as f:
        return f.read().split("\n")


def table_rows():
    """Every name of the first column of the README's Environment table."""
    lines = readme_lines()
    start = lines.index("## Environment")
    names = set()
    for line in lines[start + 1:]:
        if line.startswith("## "):
            break
        if line.startswith("| `"):
            names.update(re.findall(r"`([A-Za-z0-9_]+)`", line.split("|")[1]))
    return names


class EnvironmentTable(unittest.TestCase):
    def test_every_variable(self):
        """every NFTLAB_*/NFTB_* variable the tree reads has a row"""
        rows = table_rows()
        missing = sorted("%s (%s)" % (n, p) for n, p in variables_read().items() if n not in rows)
        self.assertEqual(missing, [], "no row in README.md's Environment table")

    def test_every_make_variable(self):
        """every make variable of the Makefiles has a row"""
        rows = table_rows()
        missing = sorted("%s (%s)" % (n, p) for n, p in make_variables().items() if n not in rows)
        self.assertEqual(missing, [], "no row in README.md's Environment table")

    def test_no_stale_row(self):
        """every NFTLAB_*/NFTB_* row names a variable the tree reads"""
        known = variables_read()
        stale = sorted(n for n in table_rows() if NAME_RE.fullmatch(n) and n not in known)
        self.assertEqual(stale, [])

    def test_scan_finds_reads(self):
        """the scan sees the variables read in shell, Python and make"""
        found = variables_read()
        for name in ("NFTLAB_STEPS", "NFTB_SELFTEST_LIMIT", "NFTLAB_CACHE"):
            self.assertIn(name, found)
        self.assertIn("BASE", make_variables())


class Guide(unittest.TestCase):
    def test_length(self):
        """README.md is at most 250 lines"""
        self.assertLessEqual(len(readme_lines()) - 1, MAX_LINES)

    def test_paths_exist(self):
        """every path of the tree the README names in backquotes exists"""
        text = "\n".join(readme_lines())
        missing = []
        for token in re.findall(r"`([^`\s]+)`", text):
            path = token.rstrip(",.:;")
            if not path.startswith(PATH_ROOTS) or re.search(r"[<>*{}$]", path):
                continue
            if not os.path.exists(os.path.join(TOP, path)):
                missing.append(path)
        self.assertEqual(missing, [])


if __name__ == "__main__":
    sys.exit(tap.run_file(__file__))
