#!/bin/bash
# Every shell script of the project passes shellcheck (one TAP line each),
# the ruleset generators of tests/corpus/ (*.gen) included.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
command -v shellcheck >/dev/null || { echo "not ok 1 - shellcheck missing: run make deps"; exit 1; }
n=0 bad=0
while IFS= read -r f; do
	n=$((n + 1))
	if out=$(shellcheck -x "$f" 2>&1); then
		echo "ok $n - shellcheck $f"
	else
		echo "not ok $n - shellcheck $f"
		printf '%s\n' "$out" | sed 's/^/# /'
		bad=1
	fi
done < <(git ls-files -co --exclude-standard | grep -v '^build/' |
	while IFS= read -r f; do
		[ -f "$f" ] || continue
		case "$f" in
		*.sh | *.gen) echo "$f" ;;
		*.*) ;;
		*) head -n 1 "$f" | grep -qE '^#!.*(bash|/sh)' && echo "$f" ;;
		esac
	done)
echo "1..$n"
exit "$bad"
