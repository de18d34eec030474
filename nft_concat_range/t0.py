#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""t0.py - T0 of nftbench, the performance suite: what one packet costs, counted
exactly (nft_concat_range/t0cells.py, runner nft_concat_range/t0run.py).
Subcommands: run, report, validate, compare.  Unit tests:
tests/unit/test_t0.py, tests/unit/test_t0compare.py."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nftbench.cli import t0_main  # noqa: E402

if __name__ == "__main__":
    sys.exit(t0_main())
