#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Rules of several lookups with a counter and a verdict, a named counter,
# a set with element counters, and nftlab counters reporting all three as
# JSON.  Starts from netdev perf's ingress chain in and set test, and inet
# filter's input chain.
set -u
. "$(dirname "$0")/../lib.sh"
# shellcheck source=../expect.sh
. "$(dirname "$0")/../expect.sh"

require
setup_netns
given table add netdev perf
given chain add netdev perf in --hook ingress --dev lo --priority 0
given set add netdev perf test --type 'ipv4_addr . inet_service' --flags interval
given table add inet filter
given chain add inet filter input --hook input --priority filter --policy accept

expect_ok "rule with 3 lookups, counter, accept" rule add netdev perf in \
	--set test --lookups 3 --counter --verdict accept
check "rule has 3 lookups of @test" [ "$(nftns -j list chain netdev perf in |
	jq '[.. | objects | select(.right? == "@test")] | length')" = 3 ]
expect_ok "named counter" counter add inet filter hits
expect_ok "set with element counters" set add inet filter cs \
	--type inet_service --counter
expect_ok "elements of the counter set" element add inet filter cs 22 80
expect_ok "inet rule on an inet_service set" rule add inet filter input \
	--set cs --counter --verdict drop
json=$(nftlab counters) || json=""
check "counters is valid JSON" json_true "$json" '. != null'
check "counters: rules" json_true "$json" \
	'[.rules[] | select(.chain == "in" and .packets == 0)] | length == 1'
check "counters: named counter" json_true "$json" \
	'[.counters[] | select(.name == "hits")] | length == 1'
check "counters: set element counters" json_true "$json" \
	'[.elements[] | select(.set == "cs") | .elem] | sort == ["22","80"]'
finish
