#!/bin/bash
# Every Python file of the project passes pyflakes (one TAP line each):
# unused imports and names, undefined names, redefinitions.  A file is
# Python by its name (*.py) or by its first line (a #! naming python), so
# that the scripts without a suffix (kernel/series/series-figures,
# nft_concat_range/commit-cost, ...) are checked too.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
# shellcheck source=../lib/tap.sh
. "$top/lib/tap.sh"
command -v pyflakes3 >/dev/null || tap_bail "pyflakes3 missing: run make deps"
tap_each_file pyflakes pyflakes3 < <(git ls-files -co --exclude-standard | grep -v '^build/' |
	while IFS= read -r f; do
		[ -f "$f" ] || continue
		case "$f" in
		*.py) echo "$f" ;;
		*) head -n 1 "$f" | grep -qE '^#!.*python' && echo "$f" ;;
		esac
	done)
tap_end
