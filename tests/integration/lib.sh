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
# shellcheck source=../lab/tap.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lab/tap.sh"

NS=""
NS2=""
TMP=""
read -r -a WRAP <<< "$NFTLAB_WRAPPER"

# The suite's words for tests/lab/tap.sh.
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

finish() {
	tap_end && exit 0
	tap_diag "$tap_failed of $tap_n tests failed"
	exit 1
}
