#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Issue #14: every input is applied as asked or refused (exit 2, nothing
# sent): words after --, unreadable files, NUL and control bytes, options
# without the option they need, over-long tokens and keys, names nft
# would read as keywords, numbers that would wrap.  Starts from an empty
# netns: the refusals of netdev perf objects come before any message.
set -u
. "$(dirname "$0")/../lib.sh"
# shellcheck source=../expect.sh
. "$(dirname "$0")/../expect.sh"

require
setup_netns

expect_ok "table for the input tests" table add ip inp
expect_ok "set for the input tests" set add ip inp s --type ipv4_addr
expect_ok "words after -- are elements, none skipped" \
	element add ip inp s 10.0.0.1 -- 10.0.0.2 10.0.0.3
check "all three elements loaded" [ "$(set_elems ip inp s)" = '["10.0.0.1","10.0.0.2","10.0.0.3"]' ]
expect_ok "an element that looks like an option after --" \
	element add ip inp s -- 10.0.0.4
expect_refused "--file of a directory is a read error" \
	"element add: $TMP: read error: Is a directory" \
	element add ip inp s --file "$TMP"
expect_refused "--file that does not exist" \
	"element add: $TMP/none: No such file or directory" \
	element add ip inp s --file "$TMP/none"
printf '10.0.1.1\n10.0.0.9\0garbage\n' > "$TMP/nul.txt"
expect_refused "NUL byte names file and line" "nul.txt:2: NUL byte at byte 9" \
	element add ip inp s --file "$TMP/nul.txt"
printf '10.0.1.1\n10.0.1.2\033[2J\n' > "$TMP/ctl.txt"
expect_refused "control byte names file and line" 'ctl.txt:2: control byte at byte 9 \(0x1b\)' \
	element add ip inp s --file "$TMP/ctl.txt"
printf '10.0.1.1\n' > "$TMP/one.txt"
expect_refused "--file twice" "--file given twice" \
	element add ip inp s --file "$TMP/one.txt" --file "$TMP/one.txt"
expect_refused "--start without --gen" "--start needs --gen" \
	element add ip inp s 10.0.1.1 --start 5
expect_refused "--proto without --gen" "--proto needs --gen" \
	element add ip inp s 10.0.1.1 --proto tcp
expect_refused "--count without --gen" "--count needs --gen" \
	element add ip inp s 10.0.1.1 --count 5
expect_refused "--gen without --count" "--gen needs --count" \
	element add ip inp s --gen addr4
expect_refused "no elements at all" "no elements" element add ip inp s
printf '%*s\n' 100000 '' | tr ' ' 'x' > "$TMP/long.txt"
expect_refused "a 100 kB token is cut in the message" \
	"long.txt:1: x{50,}\.\.\.: element too long" \
	element add ip inp s --file "$TMP/long.txt"
n=$(wc -c < "$TMP/err")
check "... and the message stays short ($n bytes)" [ "$n" -lt 400 ]
expect_refused "6 concatenated fields" "at most 5 fields" \
	set add ip inp s6 --type 'ether_addr . ether_addr . ether_addr . ether_addr . ether_addr . ether_addr'
expect_refused "key longer than 64 bytes" "at most 5 fields .* and 64 bytes" \
	set add ip inp s80 --type 'ipv6_addr . ipv6_addr . ipv6_addr . ipv6_addr . ipv6_addr'
expect_ok "5 fields are fine" set add ip inp s5 \
	--type 'ipv4_addr . ipv4_addr . inet_service . inet_proto . mark' --flags interval
expect_ok "and take elements" element add ip inp s5 '10.0.0.1 . 10.0.0.2 . 80 . tcp . 0x1'
expect_refused "empty set name" "set name '': empty name" \
	set add ip inp '' --type ipv4_addr
expect_refused "name with a newline" "set name 'a\\\\nb'" \
	set add ip inp $'a\nb' --type ipv4_addr
expect_refused "keyword as a name" "'counter' is an nft keyword" \
	set add ip inp counter --type ipv4_addr
expect_refused "keyword as a table name" "'table' is an nft keyword" \
	table add ip table
expect_refused "an operator word as a name (nft reads lt as <)" \
	"table name 'lt': 'lt' is an nft keyword" table add ip lt
expect_refused "a list word as a set name (nft list set ip t all fails)" \
	"set name 'all': 'all' is an nft keyword" set add ip inp all --type ipv4_addr
expect_refused "device name over 15 bytes" "at most 15 \\(IFNAMSIZ\\)" \
	chain add netdev perf x --hook ingress --dev abcdefghijklmnop --priority 0
expect_refused "unknown chain type" "unknown chain type 'bogus' \\(filter, route, nat\\)" \
	chain add ip inp c --hook input --priority 0 --type bogus
expect_refused "nat chain in a netdev table" "chain type nat: ip, ip6 and inet" \
	chain add netdev perf x --hook ingress --dev lo --priority 0 --type nat
expect_refused "--lookups 0" "--lookups: bad number '0'" \
	rule add netdev perf in --set test --lookups 0
expect_refused "--lookups without --set" "--lookups needs --set" \
	rule add netdev perf in --lookups 2
expect_refused "--gen that wraps" "go past 4127195130" \
	element add ip inp s --gen addr4 --count 10 --range-size 4294967295
expect_refused "--gen with --start near 2^32" "go past" \
	element add ip inp s --gen addr4 --count 2 --start 4294967295
expect_refused "--max-batch that would wrap" "too large" \
	--max-batch 17179869185G element add ip inp s 10.0.1.1
expect_ok "element add of an existing element exits 0, as nft's add element" \
	element add ip inp s 10.0.0.1
expect_fail "element create of an existing element says so" \
	'element create: ip/inp/s: 10.0.0.1: element already in the set \(element create refuses existing elements, element add takes them\): File exists' \
	element create ip inp s 10.0.0.1
expect_fail "counters of a missing table" 'counters: ip/nope: no such table' \
	counters ip nope
finish
