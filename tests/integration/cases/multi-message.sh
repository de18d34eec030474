#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A transaction of several messages and batch pages: every ACK collected,
# --stats counts them, an error in a late message still names its
# element.  Starts from table netdev perf.
set -u
. "$(dirname "$0")/../lib.sh"
# shellcheck source=../expect.sh
. "$(dirname "$0")/../expect.sh"

require
setup_netns
given table add netdev perf

expect_ok "big hash set" set add netdev perf big --type ipv4_addr --size 100000
expect_ok "30000 elements (9 messages, 2 pages)" --stats element add \
	netdev perf big --gen addr4 --start 100000 --count 30000
check "--stats reports elements, messages and kernel time" grep -Eq \
	'stats: 30000 elements, [0-9]+ messages, [0-9]+ bytes, build [0-9.]+ s \(cpu [0-9.]+ s\), kernel [0-9.]+ s, replies [0-9.]+ s$' \
	"$TMP/err"
check "all 30000 elements present" [ "$(nftns -j list set netdev perf big |
	jq '.nftables[1].set.elem | length')" = 30000 ]
nftlab_raw gen addr4 --start 200000 --count 30000 > "$TMP/big.txt"
nftlab_raw gen addr4 --start 120000 --count 1 >> "$TMP/big.txt"
expect_fail "create: an existing element in the last message is named" \
	"element create: netdev/perf/big: $(tail -1 "$TMP/big.txt"): element already in the set \\(element create.*: File exists" \
	element create netdev perf big --file "$TMP/big.txt"
expect_ok "set del of a 30000-element set" set del netdev perf big
finish
