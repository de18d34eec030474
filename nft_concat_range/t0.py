#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""t0.py - T0 of nftbench, the performance suite: what one packet costs,
counted exactly (the package nftbench/t0/: cells.py its cells and
analysis, run.py its runner, cli.py these options).  Subcommands: run,
patch, plot, report, validate, code, compare.  Unit tests:
tests/unit/test_t0*.py."""
import os
import runpy
import sys

runpy.run_path(os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "lib", "bootstrap.py"))
from nftbench.t0.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
