#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# nftlab command line and man page; needs no privileges or namespace.
# Usage: NFTLAB=/path/to/nftlab cli.sh
set -u
: "${NFTLAB:?set NFTLAB to the nftlab binary}"
: "${NFTLAB_WRAPPER:=}"
read -r -a WRAP <<< "$NFTLAB_WRAPPER"
MAN="$(cd "$(dirname "$0")/../../userspace" && pwd)/nftlab.8"
# shellcheck source=../../lib/tap.sh
. "$(dirname "$0")/../../lib/tap.sh"

# result STATUS DESCRIPTION
result() { tap_result "$2" "$1"; }

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
status 2 "usage error of a subcommand" gen
status 2 "gen: unknown field" gen 'addr4 . bogus' --count 1
status 0 "per-command --help" element --help
status 0 "per-verb --help" set add --help
status 2 "--max-batch that would wrap" --max-batch 17179869185G table add ip t
status 2 "--max-batch above 1G" --max-batch 2G table add ip t
status 2 "gen: --count 0" gen addr4 --count 0
status 2 "gen: --count given twice" gen addr4 --count 1 --count 2
status 2 "gen: --proto without a proto field" gen addr4 --count 1 --proto tcp

# expect_err NAME REGEX ARGS...: exit status 2, stderr matches REGEX
expect_err() {
	local name=$1 regex=$2 rc=0 err
	shift 2
	err=$("${WRAP[@]}" "$NFTLAB" "$@" 2>&1 >/dev/null) || rc=$?
	[ "$rc" -eq 2 ] && grep -Eq -- "$regex" <<< "$err"
	result $? "$name (exit $rc)"
	[ "$rc" -eq 2 ] || echo "# $err"
}
expect_err "gen: --range-size 4294967295 wraps" 'go past 4127195130.*wrap' \
	gen addr4 --count 2 --range-size 4294967295
expect_err "gen: --start near 2^32 wraps" 'start 4294967290.*go past' \
	gen addr4 --count 3 --start 4294967290
expect_err "gen: addr6 past 2^32 values wraps" 'go past 4294967295' \
	gen addr6 --count 10 --start 4294967290
expect_err "gen: port range over 65534 values" 'port range holds at most 65534' \
	gen 'addr4 . port' --count 1 --range-size 65534
expect_err "gen: 6 fields" 'more than 5 fields' \
	gen 'mac . mac . mac . mac . mac . mac' --count 1
expect_err "getopt errors name the program and the command" \
	"^nftlab: gen: unknown option '--bogus'" gen addr4 --count 1 --bogus
expect_err "missing option argument" "^nftlab: gen: option '--count' needs an argument" \
	gen addr4 --count
expect_err "unknown global option: one line, no help text" \
	"^nftlab: unknown option '--frob' \(nftlab --help\)$" --frob table add ip t
expect_err "quoted input is escaped and cut" \
	'unknown option .--x\\x1b\[31m\\ny+\.\.\.. ' \
	gen addr4 --count 1 "--x"$'\033[31m\n'"$(printf 'y%.0s' {1..500})"
# full_out NAME ARGS...: stdout on /dev/full is exit status 1 with a message
full_out() {
	local name=$1 rc=0 err
	shift
	err=$("${WRAP[@]}" "$NFTLAB" "$@" 2>&1 >/dev/full) || rc=$?
	[ "$rc" -eq 1 ] && grep -q 'writing standard output: No space left' <<< "$err"
	result $? "$name on /dev/full: exit 1 and a message (exit $rc)"
}
full_out "--help" --help
full_out "--version" --version
full_out "per-command --help" element --help
out=$("${WRAP[@]}" "$NFTLAB" gen 'mac . mac . mac . mac . mac' --count 2 --range-size 3 | tail -1)
[ "$out" = "$(printf '00:01:00:00:00:07-00:01:00:00:00:0a . %.0s' 1 2 3 4)00:01:00:00:00:07-00:01:00:00:00:0a" ]
result $? "gen: 5 mac fields with ranges fit the text buffer"
out=$("${WRAP[@]}" "$NFTLAB" gen 'addr4' --count 1 --start 4127195130)
[ "$out" = "255.255.255.255" ]
result $? "gen: the largest addr4 value is generated"
out=$("${WRAP[@]}" "$NFTLAB" gen 'addr4 . port' --count 2 --range-size 1 2>&1)
[ "$out" = $'10.0.0.6-10.0.0.7 . 2-3\n10.0.0.8-10.0.0.9 . 4-5' ]
result $? "gen prints nft_concat_range.sh-style elements"
help=$("${WRAP[@]}" "$NFTLAB" --help)
man_text=$(sed 's/\\-/-/g; s/\\f[BIPR]//g' "$MAN")
missing=""
for word in "table add" "chain add" "set add" "set flush" "map add" "--vmap" "element add" \
	"element get" "rule add" "counters" "ruleset flush" "--lookups" "--gen" \
	"list ruleset" "list table" "list chain" "list set" "--json"; do
	grep -qF -- "$word" <<< "$help" || missing="$missing '$word'"
	grep -qF -- "$word" <<< "$man_text" || missing="$missing man:'$word'"
done
[ -z "$missing" ]
result $? "--help and nftlab.8 cover every command${missing:+ (missing$missing)}"
# Issue #53 N20: the line limit nftlab enforces and its default
# --max-batch are the ones nftlab.8 and README.md state (no privileges:
# a script of comments sends nothing)
README="$(dirname "$MAN")/README.md"
lines=$(mktemp -d "${TMPDIR:-/tmp}/nftlab-cli.XXXXXX")
{ printf '#'; head -c 1048575 /dev/zero | tr '\0' x; echo; } > "$lines/max.cmds"
{ printf '#'; head -c 1048576 /dev/zero | tr '\0' x; echo; } > "$lines/long.cmds"
status 0 "-f: a line of 1048576 bytes" -f "$lines/max.cmds"
err=$("${WRAP[@]}" "$NFTLAB" -f "$lines/long.cmds" 2>&1)
limit=$(sed -n 's/.*long.cmds:1: line longer than \([0-9]*\) bytes$/\1/p' <<< "$err")
rm -rf "$lines"
[ "$limit" = 1048576 ] && grep -q "at most $limit bytes" <<< "$man_text" &&
	grep -q "at most $limit bytes" "$README"
result $? "-f: a longer line is refused; nftlab.8 and README.md state the limit (${limit:-no limit})"
default=$(sed -n 's/.*default \([0-9]*[kMG]\), at most 1G.*/\1/p' <<< "$help")
[ -n "$default" ] && grep -q -- "default $default, at most 1G" <<< "$man_text" &&
	grep -q "default ${default%M} MiB" "$README"
result $? "--max-batch default in --help, nftlab.8 and README.md (${default:-none})"
if command -v man >/dev/null; then
	warn=$(LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 man --warnings -E UTF-8 -l "$MAN" 2>&1 >/dev/null)
	[ -z "$warn" ]
	result $? "nftlab.8 renders without warnings"
	while IFS= read -r line; do
		[ -n "$line" ] && tap_diag "$line"
	done <<< "$warn"
else
	tap_skip "nftlab.8 renders without warnings" "man not installed"
fi
tap_end
