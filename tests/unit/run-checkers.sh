#!/bin/bash
# The checkers step of make check: the unit tests of the kernel/checks/
# programs (tests/unit/test_check_*.py, stdlib unittest on stored objdump
# snippets, no kernel), of lib/ (tests/unit/test_check_tap.py) and of
# kernel/series/postings (tests/unit/test_check_series_mail.py), one
# TAP line per test, from lib/tap.py's unittest runner.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
exec python3 "$top/lib/tap.py" "$top"/tests/unit/test_check_*.py
