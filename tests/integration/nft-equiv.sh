#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/nft/NAME.nft loaded by "nft -f" and NAME.cmds loaded by "nftlab -f"
# (one transaction each) must give the same "nft list ruleset" (timeouts' expiry
# left out).  Also a generated set: nftlab --gen against nft -f of the same
# elements.  Each side gets its own fresh network namespace.
# Usage: NFTLAB=/path/to/nftlab nft-equiv.sh
set -u
. "$(dirname "$0")/lib.sh"

NFTDIR=$(cd "$(dirname "$0")/../nft" && pwd)

# run_cmds FILE: the nftlab script, one transaction
# shellcheck disable=SC2317  # called through check
run_cmds() {
	nftlab -f "$1"
}

reset_netns() {
	ip netns exec "$NS" nft flush ruleset
	ip netns exec "$NS2" nft flush ruleset
}

# same_ruleset NAME: compare both namespaces
same_ruleset() {
	local a b
	a=$(ruleset "$NS2")
	b=$(ruleset "$NS")
	if [ -n "$a" ] && [ "$a" = "$b" ]; then
		ok "$1"
	else
		not_ok "$1"
		diff <(echo "$a") <(echo "$b") | head -30 | diag
	fi
}

test_file() {
	local nft=$1 base
	base=$(basename "$nft" .nft)
	reset_netns
	if [ ! -f "$NFTDIR/$base.cmds" ]; then
		not_ok "$base: no $base.cmds next to $base.nft"
		return
	fi
	check "$base: nft -f loads" ip netns exec "$NS2" nft -f "$nft"
	check "$base: nftlab -f loads the commands" run_cmds "$NFTDIR/$base.cmds"
	same_ruleset "$base: same ruleset from nft -f and nftlab"
}

test_generated() {
	local name=$1 fields=$2 type=$3 flags=$4 range=$5
	reset_netns
	nftlab_raw gen "$fields" --count 5000 --range-size "$range" > "$TMP/gen.txt"
	{
		echo "table netdev perf {"
		echo "  set $name { type $type; $flags }"
		echo "}"
		echo "add element netdev perf $name {"
		sed 's/$/,/' "$TMP/gen.txt"
		echo "}"
	} > "$TMP/gen.nft"
	check "gen $name: nft -f loads 5000 elements" \
		ip netns exec "$NS2" nft -f "$TMP/gen.nft"
	nftlab table add netdev perf &&
		nftlab set add netdev perf "$name" --type "$type" \
			${flags:+--flags interval}
	check "gen $name: nftlab --gen loads 5000 elements" \
		nftlab element add netdev perf "$name" --gen "$fields" \
			--count 5000 --range-size "$range"
	same_ruleset "gen $name: same ruleset from nft -f and nftlab --gen"
}

require
setup_netns
setup_netns2 || skip_all "cannot create a second network namespace"
for f in "$NFTDIR"/*.nft; do
	test_file "$f"
done
test_generated hash addr4 ipv4_addr "" 0
test_generated concat 'addr4 . port' 'ipv4_addr . inet_service' 'flags interval;' 1
test_generated single addr4 ipv4_addr 'flags interval;' 2
test_generated six 'addr6 . port . proto' 'ipv6_addr . inet_service . inet_proto' 'flags interval;' 1
finish
