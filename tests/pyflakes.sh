#!/bin/bash
# Every Python file of the project passes pyflakes (one TAP line each):
# unused imports and names, undefined names, redefinitions.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
# shellcheck source=lab/tap.sh
. "$top/tests/lab/tap.sh"
command -v pyflakes3 >/dev/null || tap_bail "pyflakes3 missing: run make deps"
tap_each_file pyflakes pyflakes3 < <(git ls-files -co --exclude-standard '*.py' | grep -v '^build/')
tap_end
