# SPDX-License-Identifier: GPL-2.0
"""The checkout's Python directories on sys.path: the one place of the
tree that edits sys.path.

Python puts a program's own directory on sys.path and nothing else of the
checkout.  A program that imports from another directory of it (lib/tap.py,
the suite's package nftbench, kernel/checks/direct_calls, tests/reliability's
relab, kernel/series/'s modules, tests/lab/kselftest_compare.py,
tests/unit/synth.py) runs this file
first, by its path found from its own __file__, then imports by name:

    import os
    import runpy

    runpy.run_path(os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "lib", "bootstrap.py"))
    import tap  # noqa: E402

with one ".." per directory between the program and the top.  Running it
again (every unit test file does, and lib/tap.py runs many in one process)
changes nothing.  tests/unit/test_imports.py fails on a sys.path edit
anywhere else, and on two directories below that hold a module of the
same name (or of a standard library module's name): one name, one module.

Installed (pip install -e ., pyproject.toml), the console scripts import
nftbench and tap from the installation and this file plays no part.
"""
import os
import sys

TOP = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
# Each directory whose modules and packages programs import by their
# top-level name, what they import from it.
ROOTS = (
    "lib",                  # tap, bootstrap
    "nft_concat_range",     # nftbench, the performance suite
    "kernel/checks",        # direct_calls
    "kernel/series",        # user_series, expand_includes, series_postings
    "kernel/builder",       # build_error
    "tests/reliability",    # relab, faults, splats, summary
    "tests/lab",            # kselftest_compare
    "tests/unit",           # synth
)

# after sys.path[0], the program's own directory, which stays first
sys.path[1:1] = [p for p in (os.path.join(TOP, r) for r in ROOTS) if p not in sys.path]
