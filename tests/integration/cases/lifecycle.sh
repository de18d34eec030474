#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Tables, base chains of three families (hooks, devices, named
# priorities, policies), a regular chain and a jump to it, chain del, and a
# concatenated interval set whose elements nft lists back exactly.
# Starts from an empty netns.
set -u
. "$(dirname "$0")/../lib.sh"
# shellcheck source=../expect.sh
. "$(dirname "$0")/../expect.sh"

require
setup_netns

expect_ok "table add" table add netdev perf
expect_ok "netdev ingress chain on lo" \
	chain add netdev perf in --hook ingress --dev lo --priority 0
expect_ok "inet base chain" table add inet filter
expect_ok "inet input chain" \
	chain add inet filter input --hook input --priority filter --policy accept
expect_ok "netdev egress chain on lo" \
	chain add netdev perf out --hook egress --dev lo --priority -100
expect_ok "ip6 table" table add ip6 six
expect_ok "ip6 prerouting chain, named priority" \
	chain add ip6 six pre --hook prerouting --priority raw --policy drop
check "ip6 chain as nft shows it" [ "$(nftns -j list chain ip6 six pre |
	jq -c '.nftables[1].chain | [.type, .hook, .prio, .policy]')" = '["filter","prerouting",-300,"drop"]' ]
expect_ok "regular chain" chain add inet filter sub
expect_ok "rule jumping to it" rule add inet filter input --verdict jump:sub
expect_ok "chain del" chain del ip6 six pre
expect_ok "concat interval set" set add netdev perf test \
	--type 'ipv4_addr . inet_service' --flags interval
expect_ok "elements from arguments" element add netdev perf test \
	'10.0.0.1-10.0.0.5 . 80-90' '10.0.0.9 . 22'
got=$(set_elems netdev perf test)
want='[{"concat":["10.0.0.9",22]},{"concat":[{"range":["10.0.0.1","10.0.0.5"]},{"range":[80,90]}]}]'
want=$(echo "$want" | jq -S -c 'sort')
check "nft -j list set shows exactly the elements" [ "$got" = "$want" ]
[ "$got" = "$want" ] || echo "$got" | diag
finish
