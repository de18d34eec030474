#!/bin/bash
# Every shell script of the project passes shellcheck (one TAP line each),
# the ruleset generators of tests/corpus/ (*.gen) included.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
# shellcheck source=../lib/tap.sh
. "$top/lib/tap.sh"
command -v shellcheck >/dev/null || tap_bail "shellcheck missing: run make deps"
tap_each_file shellcheck shellcheck -x < <(git ls-files -co --exclude-standard | grep -v '^build/' |
	while IFS= read -r f; do
		[ -f "$f" ] || continue
		case "$f" in
		*.sh | *.gen) echo "$f" ;;
		*.*) ;;
		*) head -n 1 "$f" | grep -qE '^#!.*(bash|/sh)' && echo "$f" ;;
		esac
	done)
tap_end
