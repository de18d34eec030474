#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# --lookups: the kernel takes 128 expressions per rule (NFT_RULE_MAXEXPRS);
# the largest count nftlab accepts must load, one more must be refused,
# for keys of one, two and six bytes and two fields.  Starts from netdev
# perf's chain in and its sets test and h (no elements needed).
set -u
. "$(dirname "$0")/../lib.sh"
# shellcheck source=../expect.sh
. "$(dirname "$0")/../expect.sh"

# lookup_limit SET FIELDS: the computed maximum loads, one more is refused
lookup_limit() {
	local set=$1 fields=$2 max
	max=$(nftlab_raw rule add netdev perf in --set "$set" --lookups 1000 \
		--counter --verdict accept 2>&1 | sed -n 's/.*at most \([0-9]*\) lookups.*/\1/p')
	if [ -z "$max" ]; then
		not_ok "$set: --lookups 1000 refused with the computed maximum"
		return
	fi
	ok "$set ($fields): at most $max lookups with counter and verdict"
	expect_ok "$set: $max lookups load" rule add netdev perf in --set "$set" \
		--lookups "$max" --counter --verdict accept
	expect_refused "$set: $((max + 1)) lookups refused before sending" \
		"--lookups $((max + 1)): .* the kernel takes 128 per rule and less than 4096 bytes: at most $max lookups" \
		rule add netdev perf in --set "$set" --lookups "$((max + 1))" --counter --verdict accept
}

require
setup_netns
given table add netdev perf
given chain add netdev perf in --hook ingress --dev lo --priority 0
given set add netdev perf test --type 'ipv4_addr . inet_service' --flags interval
given set add netdev perf h --type ipv4_addr --size 100000

expect_ok "mark interval set" set add netdev perf lm --type 'mark . inet_service' --flags interval
expect_ok "ether set" set add netdev perf macs --type ether_addr
lookup_limit test 'ipv4_addr . inet_service'
lookup_limit h ipv4_addr
lookup_limit lm 'mark . inet_service, interval'
lookup_limit macs ether_addr
expect_ok "drop the big rules" chain del netdev perf in
expect_ok "chain in again" chain add netdev perf in --hook ingress --dev lo --priority 0
finish
