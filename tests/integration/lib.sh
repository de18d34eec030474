#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Shared helpers of the nftlab integration tests (sourced).
#
# Environment:  NFTLAB          path of the nftlab binary (required)
#               NFTLAB_WRAPPER  command prefix, e.g. "valgrind -q ..." (optional)
# Exit codes follow kselftest: 0 pass, 1 fail, 4 skip.

: "${NFTLAB:?set NFTLAB to the nftlab binary}"
: "${NFTLAB_WRAPPER:=}"
readonly ksft_skip=4
# shellcheck source=../../lib/tap.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../lib/tap.sh"

NS=""
NS2=""
TMP=""
read -r -a WRAP <<< "$NFTLAB_WRAPPER"

# The suite's words for lib/tap.sh.
ok() { tap_check "$*" true; }
not_ok() { tap_check "$*" false; }
# check NAME CMD...: one TAP line from CMD's exit status
check() { tap_check "$@"; }
diag() { tap_diag_lines ""; }

# The whole suite cannot run: one SKIP line naming what is missing.
skip_all() {
	tap_skip "$(basename "$0")" "$*"
	tap_end
	exit "$ksft_skip"
}

cleanup() {
	if [ -n "$NS" ]; then
		ip netns del "$NS" 2>/dev/null
	fi
	if [ -n "$NS2" ]; then
		ip netns del "$NS2" 2>/dev/null
	fi
	if [ -n "$TMP" ]; then
		rm -rf "$TMP"
	fi
}

require() {
	local tool
	[ "$(id -u)" = 0 ] || skip_all "needs root (CAP_NET_ADMIN)"
	for tool in ip nft jq "$NFTLAB"; do
		command -v "$tool" >/dev/null || skip_all "$tool not found"
	done
}

# A fresh network namespace, always removed on exit.
setup_netns() {
	NS="nftlab-$(basename "$0" .sh)-$$"
	trap cleanup EXIT
	trap 'exit 1' INT TERM
	TMP=$(mktemp -d "${TMPDIR:-/tmp}/nftlab-test.XXXXXX") ||
		skip_all "cannot create a temporary directory"
	if ! ip netns add "$NS" 2>"$TMP/netns.err"; then
		NS=""
		skip_all "ip netns add failed: $(head -1 "$TMP/netns.err")"
	fi
	ip netns exec "$NS" ip link set lo up
	ip netns exec "$NS" nft list ruleset >/dev/null 2>&1 ||
		skip_all "nf_tables not usable in a network namespace"
}

# second namespace for side-by-side comparisons
setup_netns2() {
	NS2="${NS}-b"
	ip netns add "$NS2" || return 1
	ip netns exec "$NS2" ip link set lo up
}

# run nftlab in the namespace; stderr to $TMP/err, echoed as TAP comments
nftlab() {
	local rc=0
	ip netns exec "$NS" "${WRAP[@]}" "$NFTLAB" "$@" 2>"$TMP/err" || rc=$?
	diag < "$TMP/err"
	return "$rc"
}

nftlab_raw() {
	ip netns exec "$NS" "${WRAP[@]}" "$NFTLAB" "$@"
}

nftns() {
	ip netns exec "$NS" nft "$@"
}

# The ruleset without the parts that change on their own (timeouts).
ruleset() {
	ip netns exec "${1:-$NS}" nft list ruleset | sed -E 's/ expires [0-9hms]+//g'
}

# elements of a set as nft -j prints them, sorted
set_elems() {
	nftns -j list set "$1" "$2" "$3" | jq -S -c '[.nftables[] | select(.set) | .set.elem // [] | .[]] | sort'
}

# same_elems NAME FAMILY TABLE SET REFTABLE: SET equals the nft-loaded twin
same_elems() {
	local a b
	a=$(set_elems "$2" "$3" "$4")
	b=$(set_elems "$2" "$5" "$4")
	if [ "$a" = "$b" ] && [ "$a" != "[]" ]; then
		ok "$1"
	else
		not_ok "$1"
		diff <(echo "$a" | jq .) <(echo "$b" | jq .) | head -20 | diag
	fi
}

# ref_load FAMILY TABLE SET SETDEF FILE: nft loads FILE's elements into a twin
ref_load() {
	{
		echo "table $1 $2 { set $3 { $4; }; }"
		echo "add element $1 $2 $3 {"
		sed 's/$/,/' "$5"
		echo "}"
	} > "$TMP/ref.nft"
	nftns -f "$TMP/ref.nft"
}

# The elements of the generated sets (the case generated loads them, the
# later ones start from them): $TMP/h.txt 1000 addresses, c.txt 1000
# ranges of addr . port, i.txt 500 address ranges, m.txt 300 ranges of
# addr6 . mac.  The first line of i.txt, 10.0.0.6-10.0.0.9, is no prefix.
gen_files() {
	if ! nftlab_raw gen 'addr4' --count 1000 --start 1 > "$TMP/h.txt" ||
	   ! nftlab_raw gen 'addr4 . port' --count 1000 --range-size 1 > "$TMP/c.txt" ||
	   ! nftlab_raw gen 'addr4' --count 500 --range-size 3 > "$TMP/i.txt" ||
	   ! nftlab_raw gen 'addr6 . mac' --count 300 --range-size 2 > "$TMP/m.txt"; then
		tap_bail "setup: nftlab gen failed"
	fi
}

# given ARGS...: nftlab ARGS builds the state a case starts from (the
# other cases' objects are not there: every case has a netns of its own).
# It is no test of its own: a failure ends the case with one "not ok"
# naming the command, since every later line would only repeat it.
given() {
	nftlab "$@" || tap_bail "setup: nftlab $* failed"
}

# given_ref FAMILY TABLE SET SETDEF FILE: ref_load for a case's setup
given_ref() {
	ref_load "$@" || tap_bail "setup: nft cannot load the twin $1 $2 $3"
}

finish() {
	tap_end && exit 0
	tap_diag "$tap_failed of $tap_n tests failed"
	exit 1
}
