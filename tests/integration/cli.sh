#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# nftlab command line and man page; needs no privileges or namespace.
# Usage: NFTLAB=/path/to/nftlab cli.sh
set -u
: "${NFTLAB:?set NFTLAB to the nftlab binary}"
: "${NFTLAB_WRAPPER:=}"
read -r -a WRAP <<< "$NFTLAB_WRAPPER"
MAN="$(cd "$(dirname "$0")/../../userspace" && pwd)/nftlab.8"
TESTS=0
FAILED=0

result() {
	TESTS=$((TESTS + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $TESTS - $2"
	else
		FAILED=$((FAILED + 1))
		echo "not ok $TESTS - $2"
	fi
}

# status WANT NAME ARGS...: exit status of nftlab ARGS is WANT
status() {
	local want=$1 name=$2 rc=0
	shift 2
	"${WRAP[@]}" "$NFTLAB" "$@" > /dev/null 2>&1 || rc=$?
	[ "$rc" -eq "$want" ]
	result $? "$name (exit $rc)"
}

status 0 "--help" --help
status 0 "--version" --version
status 2 "no arguments" 
status 2 "unknown object" frobnicate
status 2 "unknown global option" --frob table add ip t
status 2 "bad --max-batch" --max-batch 12x table add ip t
status 1 "usage error of a subcommand" gen
status 1 "gen: unknown field" gen 'addr4 . bogus' --count 1
out=$("${WRAP[@]}" "$NFTLAB" gen 'addr4 . port' --count 2 --range-size 1 2>&1)
[ "$out" = $'10.0.0.6-10.0.0.7 . 2-3\n10.0.0.8-10.0.0.9 . 4-5' ]
result $? "gen prints nft_concat_range.sh-style elements"
help=$("${WRAP[@]}" "$NFTLAB" --help)
man_text=$(sed 's/\\-/-/g; s/\\f[BIPR]//g' "$MAN")
missing=""
for word in "table add" "chain add" "set add" "set flush" "element add" \
	"element get" "rule add" "counters" "ruleset flush" "--lookups" "--gen"; do
	grep -qF -- "$word" <<< "$help" || missing="$missing '$word'"
	grep -qF -- "$word" <<< "$man_text" || missing="$missing man:'$word'"
done
[ -z "$missing" ]
result $? "--help and nftlab.8 cover every command${missing:+ (missing$missing)}"
if command -v man >/dev/null; then
	warn=$(LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 man --warnings -E UTF-8 -l "$MAN" 2>&1 >/dev/null)
	[ -z "$warn" ]
	result $? "nftlab.8 renders without warnings"
	while IFS= read -r line; do
		[ -n "$line" ] && echo "# $line"
	done <<< "$warn"
else
	TESTS=$((TESTS + 1))
	echo "ok $TESTS - nftlab.8 renders without warnings # SKIP man not installed"
fi
echo "1..$TESTS"
[ "$FAILED" -eq 0 ]
