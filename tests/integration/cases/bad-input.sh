#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Bad input of every kind, refused before sending (exit 2) or by the
# kernel (exit 1), always with a message that names the element, file
# and line, or object, and the ruleset unchanged (expect.sh).  Starts from
# netdev perf's chain in and its sets test (two elements), h (1000
# addresses) and i (500 ranges), as the cases lifecycle and generated
# leave them.
set -u
. "$(dirname "$0")/../lib.sh"
# shellcheck source=../expect.sh
. "$(dirname "$0")/../expect.sh"

require
setup_netns
gen_files
given table add netdev perf
given chain add netdev perf in --hook ingress --dev lo --priority 0
given set add netdev perf test --type 'ipv4_addr . inet_service' --flags interval
given element add netdev perf test '10.0.0.1-10.0.0.5 . 80-90' '10.0.0.9 . 22'
given set add netdev perf h --type ipv4_addr --size 100000
given element add netdev perf h --file "$TMP/h.txt"
given set add netdev perf i --type ipv4_addr --flags interval
given element add netdev perf i --file "$TMP/i.txt"

expect_refused "malformed element" "10.0.0.x . 80: '10.0.0.x' is not an IPv4" \
	element add netdev perf test '10.0.0.20 . 80' '10.0.0.x . 80'
expect_refused "wrong key length (missing field)" 'set type has 2' \
	element add netdev perf test '10.0.0.20'
expect_refused "wrong key type (ipv6 in ipv4 set)" 'not an IPv4 address' \
	element add netdev perf h 2001:db8::1
expect_fail "unknown table" 'netdev/nope/test: no such table or set: No such file or directory' \
	element add netdev nope test '10.0.0.20 . 80'
expect_fail "unknown set" 'netdev/perf/nope: no such table or set: No such file or directory' \
	element add netdev perf nope '10.0.0.20 . 80'
expect_fail "create: an existing element after new ones" \
	'netdev/perf/test: 10.0.0.9 . 22: element already in the set \(element create refuses existing elements, element add takes them\): File exists' \
	element create netdev perf test '10.0.0.30 . 80' '10.0.0.9 . 22' '10.0.0.31 . 80'
expect_fail "create: an element given twice is a duplicate, not in the set" \
	'element create: netdev/perf/h: 10.9.0.40: duplicate: given twice in this transaction \(first at argument [0-9]+, again at argument [0-9]+\): File exists' \
	element create netdev perf h 10.9.0.40 10.9.0.40
expect_ok "add: an element given twice is taken, as nft's add element" \
	element add netdev perf h 10.9.0.41 10.9.0.41
expect_fail "overlapping concat intervals" 'netdev/perf/test: 10.0.0.2/31 . 85-95: overlaps 10.0.0.1-10.0.0.5 . 80-90 in the set: File exists' \
	element add netdev perf test '10.0.0.2-10.0.0.3 . 85-95'
expect_fail "two overlapping intervals in one transaction" \
	'netdev/perf/test: 10.0.0.55 . 1: overlaps 10.0.0.50-10.0.0.60 . 1 given earlier in this transaction \(at argument [0-9]+; this one at argument [0-9]+\): File exists' \
	element add netdev perf test '10.0.0.50-10.0.0.60 . 1' '10.0.0.55 . 1'
expect_fail "create: an existing single-field interval again is the same element" \
	"netdev/perf/i: [0-9./]+: element already in the set .*: File exists" \
	element create netdev perf i "$(sed -n 200p "$TMP/i.txt")"
expect_fail "overlapping single-field intervals name the other one" \
	"netdev/perf/i: $(sed -n 200p "$TMP/i.txt" | cut -d- -f1): overlaps .+ in the set: File exists" \
	element add netdev perf i "$(sed -n 200p "$TMP/i.txt" | cut -d- -f1)"
expect_refused "out-of-range port" 'port 65536 out of range' \
	element add netdev perf test '10.0.0.20 . 65536'
printf '10.1.0.1\n10.1.0.2\n10.1.0.3 . 9\n' > "$TMP/bad.txt"
expect_refused "bad line in a file names file and line" 'bad.txt:3: 10.1.0.3 . 9: key has more' \
	element add netdev perf h --file "$TMP/bad.txt"
expect_refused "oversized batch (--max-batch)" 'exceeds --max-batch 4096 bytes.*Message too long' \
	--max-batch 4096 element add netdev perf h --gen addr4 --start 5000 --count 5000
expect_ok "small set" set add netdev perf small --type ipv4_addr --size 10
expect_fail "more elements than the set size" 'netdev/perf/small: .*: set is full \(size 10\): Too many open files in system' \
	element add netdev perf small --gen addr4 --count 20
expect_refused "range in a hash set" 'ranges need a set with flags interval' \
	element add netdev perf h 10.2.0.1-10.2.0.9
expect_refused "timeout on a set without timeouts" \
	'netdev/perf/h: 10.2.0.1 timeout 10s: element timeout in a set without the timeout flag' \
	element add netdev perf h '10.2.0.1 timeout 10s'
expect_refused "unknown key type" 'bad key type' \
	set add netdev perf x --type ipv4_address
expect_fail "duplicate set" 'netdev/perf/test: File exists' \
	set add netdev perf test --type ipv4_addr
expect_refused "netdev chain with an inet hook" "hook 'input' not valid" \
	chain add netdev perf bad --hook input --dev lo --priority 0
expect_fail "delete unknown table" 'netdev/nope: No such file or directory' \
	table del netdev nope
expect_fail "delete a missing element" 'netdev/perf/h: 10.9.9.9: No such file or directory' \
	element del netdev perf h 10.0.0.6 10.9.9.9
expect_fail "rule on an unknown set" 'netdev/perf/nope: no such table or set: No such file' \
	rule add netdev perf in --set nope --verdict accept
# NFT_NAME_MAXLEN: refused before sending (the kernel would answer
# ERANGE, "Numerical result out of range")
expect_refused "too-long table name" \
	'element get: table name .a+\.\.\..: name of 300 bytes, at most 255' \
	element get ip "$(printf 'a%.0s' {1..300})" s 10.0.0.1
expect_refused "usage error" 'usage: nftlab element' element add netdev perf
finish
