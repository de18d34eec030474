#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Generated elements (--gen, --file, --file -) of a hash set, concatenated
# ranges, single-field ranges and ipv6 . mac ranges: each set's elements
# equal those of its twin in table netdev ref, which nft loaded from the
# same elements.  Starts from table netdev perf.
set -u
. "$(dirname "$0")/../lib.sh"
# shellcheck source=../expect.sh
. "$(dirname "$0")/../expect.sh"

require
setup_netns
gen_files
given table add netdev perf

expect_ok "hash set" set add netdev perf h --type ipv4_addr --size 100000
expect_ok "1000 generated hash elements" \
	element add netdev perf h --gen addr4 --count 1000 --start 1
ref_load netdev ref h "type ipv4_addr; size 100000" "$TMP/h.txt"
same_elems "hash elements equal nft's" netdev perf h ref

expect_ok "concat interval set c" set add netdev perf c \
	--type 'ipv4_addr . inet_service' --flags interval
expect_ok "1000 generated concat ranges" element add netdev perf c \
	--gen 'addr4 . port' --count 1000 --range-size 1
ref_load netdev ref c "type ipv4_addr . inet_service; flags interval" "$TMP/c.txt"
same_elems "concat ranges equal nft's" netdev perf c ref

expect_ok "single-field interval set" set add netdev perf i \
	--type ipv4_addr --flags interval
expect_ok "500 ranges from a file" element add netdev perf i --file "$TMP/i.txt"
ref_load netdev ref i "type ipv4_addr; flags interval" "$TMP/i.txt"
same_elems "single-field intervals equal nft's" netdev perf i ref

expect_ok "ipv6 . mac interval set" set add netdev perf m \
	--type 'ipv6_addr . ether_addr' --flags interval
expect_ok "300 ipv6 . mac ranges from stdin" \
	element add netdev perf m --file - < "$TMP/m.txt"
ref_load netdev ref m "type ipv6_addr . ether_addr; flags interval" "$TMP/m.txt"
same_elems "ipv6 . mac ranges equal nft's" netdev perf m ref
finish
