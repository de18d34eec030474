#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# element get on every set kind (a range found by its first and by its
# last value, a concatenated range by a value inside it, a missing
# element, ranges inside and across elements), then element del of ranges from a file, compared with nft
# deleting the same ones from the twins.  Starts from the sets test, h, c
# and i of netdev perf and the twins c and i that nft loaded (as the case
# generated leaves them).
set -u
. "$(dirname "$0")/../lib.sh"
# shellcheck source=../expect.sh
. "$(dirname "$0")/../expect.sh"

require
setup_netns
gen_files
given table add netdev perf
given set add netdev perf test --type 'ipv4_addr . inet_service' --flags interval
given element add netdev perf test '10.0.0.1-10.0.0.5 . 80-90' '10.0.0.9 . 22'
given set add netdev perf h --type ipv4_addr --size 100000
given element add netdev perf h --file "$TMP/h.txt"
given set add netdev perf c --type 'ipv4_addr . inet_service' --flags interval
given element add netdev perf c --file "$TMP/c.txt"
given set add netdev perf i --type ipv4_addr --flags interval
given element add netdev perf i --file "$TMP/i.txt"
given_ref netdev ref c "type ipv4_addr . inet_service; flags interval" "$TMP/c.txt"
given_ref netdev ref i "type ipv4_addr; flags interval" "$TMP/i.txt"

out=$(nftlab element get netdev perf test '10.0.0.9 . 22')
check "element get prints the element" [ "$out" = "10.0.0.9 . 22" ]
out=$(nftlab element get netdev perf h 10.0.0.6)
check "element get on a hash set" [ "$out" = "10.0.0.6" ]
range=$(sed -n 1p "$TMP/i.txt")	# 10.0.0.6-10.0.0.9: not a prefix
out=$(nftlab element get netdev perf i "${range%-*}")
check "element get on an interval set prints the range" [ "$out" = "$range" ]
out=$(nftlab element get netdev perf i "${range#*-}")
check "element get of a range's last value prints the range" [ "$out" = "$range" ]
out=$(nftlab element get netdev perf c '10.0.0.7 . 3')
check "element get inside a concatenated range" [ "$out" = "10.0.0.6/31 . 2-3" ]
expect_fail "element get of a missing element" \
	'perf/h: 10.9.9.9: No such file or directory' \
	element get netdev perf h 10.9.9.9
# Issue #53 (N08): a range is the element that holds all of it, as nft
# 1.0.6 answers; a range across elements or gaps is no element
given set add netdev perf g --type inet_service --flags interval
given element add netdev perf g 10-20 30-40 60-65535
out=$(nftlab element get netdev perf g 12-18)
check "element get of a range inside an element prints the element" [ "$out" = 10-20 ]
out=$(nftlab element get netdev perf g 61-100)
check "element get of a range inside an open element" [ "$out" = 60-65535 ]
expect_fail "element get of a range across two elements (N08)" \
	'perf/g: 15-35: No such file or directory \(no element holds all of it\)$' \
	element get netdev perf g 15-35
expect_fail "element get of a range from an element into a gap" \
	'perf/g: 35-45: No such file or directory' element get netdev perf g 35-45
head -100 "$TMP/c.txt" > "$TMP/cdel.txt"
expect_ok "delete 100 concat ranges from a file" \
	element del netdev perf c --file "$TMP/cdel.txt"
sed 's/^/delete element netdev ref c { /; s/$/ }/' "$TMP/cdel.txt" | nftns -f -
same_elems "after delete: equal to nft's" netdev perf c ref
head -50 "$TMP/i.txt" > "$TMP/idel.txt"
expect_ok "delete 50 single-field ranges" \
	element del netdev perf i --file "$TMP/idel.txt"
sed 's/^/delete element netdev ref i { /; s/$/ }/' "$TMP/idel.txt" | nftns -f -
same_elems "after interval delete: equal to nft's" netdev perf i ref
finish
