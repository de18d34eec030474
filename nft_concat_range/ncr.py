#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""ncr.py - the run, plans, reports, validation and drift of the nftlab
performance suite (the nft_concat_range package beside this file).  Subcommands:
bench (what nft_concat_range/bench runs), plan, roles, report, validate,
drift.  Unit tests: tests/unit/test_suite_*.py."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nft_concat_range.cli import ncr_main  # noqa: E402

if __name__ == "__main__":
    sys.exit(ncr_main())
