#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# element list: streams every element (text and JSON), overlaps named in
# full, a listing loads back with --file, and 1M elements in bounded
# memory (skipped with NFTLAB_BIG=0: ASan and valgrind).  Starts from an
# empty netns.
set -u
. "$(dirname "$0")/../lib.sh"
# shellcheck source=../expect.sh
. "$(dirname "$0")/../expect.sh"

require
setup_netns

expect_ok "list table" table add ip ls
expect_ok "interval set to list" set add ip ls i --type ipv4_addr --flags interval
expect_ok "ranges, prefixes, single values, the top" element add ip ls i \
	10.0.0.1-10.0.0.5 10.0.0.9 10.1.0.0/16 255.255.255.0-255.255.255.255 0.0.0.0-0.0.0.3
expect_ok "a set for overlaps" set add ip ls ov --type ipv4_addr --flags interval
expect_ok "a /16 in it" element add ip ls ov 10.1.0.0/16
expect_fail "a /8 over the /16 names both intervals" \
	'ip/ls/ov: 10.0.0.0/8: overlaps 10.1.0.0/16 in the set: File exists' \
	element add ip ls ov 10.0.0.0/8
expect_fail "a range around the /16 names it" \
	'ip/ls/ov: 10.0.255.0-10.2.0.0: overlaps 10.1.0.0/16 in the set' \
	element add ip ls ov 10.0.255.0-10.2.0.0
expect_ok "the overlap set del" set del ip ls ov
out=$(nftlab element list ip ls i | sort | tr '\n' ' ')
check "element list of an interval set" [ "$out" = "0.0.0.0/30 10.0.0.1-10.0.0.5 10.0.0.9 10.1.0.0/16 255.255.255.0/24 " ]
expect_ok "verdict map to list" map add ip ls vm --type 'ipv4_addr . inet_service' --data verdict --flags interval
expect_ok "its elements" element add ip ls vm '10.0.0.1-10.0.0.5 . 80 : accept' '10.0.0.9 . 22 : drop'
out=$(nftlab element list ip ls vm --json)
check "element list --json of a verdict map" json_true "$out" \
	'.map == "vm" and ([.elements[] | [.elem, .data]] | sort) == [["10.0.0.1-10.0.0.5 . 80","accept"],["10.0.0.9 . 22","drop"]]'
nftlab element list ip ls i > "$TMP/i.list"
expect_ok "a twin table" -f <(printf 'table add ip ls2\nset add ip ls2 i --type ipv4_addr --flags interval\n')
expect_ok "a listing loads back with --file" element add ip ls2 i --file "$TMP/i.list"
same_elems "... with the same elements" ip ls i ls2
expect_ok "twin table del" table del ip ls2
expect_fail "element list of a missing set" "ip/ls/nope: no such table or set" \
	element list ip ls nope
expect_refused "element list in a script" "not allowed in a script" \
	-f <(printf 'element list ip ls i\n')
expect_ok "list table del" table del ip ls
# 1M elements: peak RSS stays small (skipped under ASan/valgrind)
if [ "${NFTLAB_BIG:-1}" = 0 ] || [ ! -x /usr/bin/time ]; then
	ok "element list of 1M elements # SKIP NFTLAB_BIG=0 or no /usr/bin/time"
	finish
fi
expect_ok "1M-element set" -f <(printf 'table add ip big\nset add ip big h --type ipv4_addr --size 2000000\nelement add ip big h --gen addr4 --count 1000000\n')
lines=$(ip netns exec "$NS" /usr/bin/time -f %M -o "$TMP/rss" "$NFTLAB" element list ip big h |
	wc -l)
rss=$(cat "$TMP/rss")
check "element list streams 1M elements ($lines lines, $rss kB peak RSS < 16 MB)" \
	test "$lines" = 1000000 -a "$rss" -lt 16384
expect_ok "1M table del" table del ip big
finish
