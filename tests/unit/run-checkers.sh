#!/bin/bash
# The checkers step of make check: the unit tests of the kernel/checks/
# programs (tests/unit/test_check_*.py, stdlib unittest on stored objdump
# snippets, no kernel), one TAP line per test.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
exec python3 "$top/tests/unit/unittest_tap.py" "$top"/tests/unit/test_check_*.py
