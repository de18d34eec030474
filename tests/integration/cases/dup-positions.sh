#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Issue #28: an element given twice in one transaction (element create),
# or an interval overlapping one given earlier in it, names where both
# came from: FILE:LINE, the command-line argument, the script line and
# word, the generated element.  Starts from an empty netns.
set -u
. "$(dirname "$0")/../lib.sh"
# shellcheck source=../expect.sh
. "$(dirname "$0")/../expect.sh"

require
setup_netns

d=$TMP/dup
mkdir -p "$d"
expect_ok "dup: table and sets" -f <(printf '%s\n' 'table add ip dp' \
	'set add ip dp s --type ipv4_addr' \
	'set add ip dp i --type ipv4_addr --flags interval' \
	"set add ip dp c --type 'ipv4_addr . inet_service' --flags interval")
printf '10.0.0.1\n# a comment\n\n10.0.0.2\n10.0.0.3\n10.0.0.1\n' > "$d/twice.txt"
expect_fail "dup: twice in one --file names both lines" \
	"element create: ip/dp/s: 10.0.0.1: duplicate: given twice in this transaction \\(first at .*twice.txt:1, again at .*twice.txt:6\\): File exists" \
	element create ip dp s --file "$d/twice.txt"
printf '10.0.1.1\n10.0.1.2\n' > "$d/one.txt"
expect_fail "dup: a command-line element again in --file" \
	"10.0.1.2: duplicate: given twice in this transaction \\(first at argument 7, again at .*one.txt:2\\)" \
	element create ip dp s 10.0.9.9 10.0.1.2 --file "$d/one.txt"
expect_fail "dup: twice on the command line names both arguments" \
	"10.0.2.1: duplicate: given twice in this transaction \\(first at argument 6, again at argument 8\\)" \
	element create ip dp s 10.0.2.1 10.0.2.2 10.0.2.1
expect_fail "dup: a command-line element among generated ones" \
	"10.0.0.8: duplicate: given twice in this transaction \\(first at argument 6, again at --gen element 3\\)" \
	element create ip dp s 10.0.0.8 --gen addr4 --count 5
"$NFTLAB" gen addr4 --count 30000 --start 100 > "$d/big.txt"
"$NFTLAB" gen addr4 --count 1 --start 101 >> "$d/big.txt"
expect_fail "dup: the first of 30001 lines again at the end (other message)" \
	"$(sed -n 2p "$d/big.txt"): duplicate: given twice in this transaction \\(first at .*big.txt:2, again at .*big.txt:30001\\)" \
	element create ip dp s --file "$d/big.txt"
printf '10.1.0.0/16\n10.2.0.1-10.2.0.9\n10.1.2.3\n' > "$d/ov.txt"
expect_fail "dup: an interval inside one given earlier names both" \
	"ip/dp/i: 10.1.2.3: overlaps 10.1.0.0/16 given earlier in this transaction \\(at .*ov.txt:1; this one at .*ov.txt:3\\): File exists" \
	element add ip dp i --file "$d/ov.txt"
printf '10.0.0.5 . 80\n' > "$d/c.txt"
expect_fail "dup: overlapping concatenated ranges, argument and file" \
	"ip/dp/c: 10.0.0.5 . 80: overlaps 10.0.0.1-10.0.0.9 . 80 given earlier in this transaction \\(at argument 6; this one at .*c.txt:1\\)" \
	element add ip dp c '10.0.0.1-10.0.0.9 . 80' --file "$d/c.txt"
printf '%s\n' 'element create ip dp s 10.0.3.1' '# comment' \
	"element create ip dp s 10.0.3.2 --file $d/one.txt 10.0.3.1" > "$d/s.cmds"
expect_fail "dup: script lines and words of both" \
	"s.cmds:3: element create: ip/dp/s: 10.0.3.1: duplicate: given twice in this transaction \\(first at .*s.cmds:1 word 6, again at .*s.cmds:3 word 9\\)" \
	-f "$d/s.cmds"
expect_ok "dup: element add takes the same element twice (as nft)" \
	element add ip dp s --file "$d/twice.txt"
expect_ok "dup: table del" table del ip dp
finish
