#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Issue #28: auto-merge sets (set add --auto-merge), merged as nft 1.0.6
# merges them: every step is done by nftlab in table am and by nft in
# its twin amref, and the elements must come out the same; what nft does
# not merge is refused.  Starts from an empty netns.
set -u
. "$(dirname "$0")/../lib.sh"
# shellcheck source=../expect.sh
. "$(dirname "$0")/../expect.sh"

# am_both NAME NFT-STATEMENT NFTLAB-ARGS...: nft runs the statement on
# amref, nftlab the command on am; both exit 0, the elements are the same
am_both() {
	local name=$1 stmt=$2
	shift 2
	nftns "$stmt" || not_ok "$name: nft '$stmt' fails"
	expect_ok "$name" "$@"
	same_elems "$name: the elements are nft's" ip am s amref
}

require
setup_netns

nftns -f - <<-'EOT'
table ip amref {
	set s {
		type ipv4_addr
		flags interval
		auto-merge
	}
}
EOT
expect_ok "auto-merge: set add --auto-merge" -f <(printf '%s\n' \
	'table add ip am' \
	'set add ip am s --type ipv4_addr --flags interval --auto-merge')
check "auto-merge: nft lists it as an auto-merge set" \
	grep -q 'auto-merge' <(nftns list set ip am s)
am_both "auto-merge: adjacent and overlapping elements of one add" \
	'add element ip amref s { 10.0.0.1-10.0.0.5, 10.0.0.6-10.0.0.9, 10.0.0.20, 10.0.0.4 }' \
	element add ip am s 10.0.0.1-10.0.0.5 10.0.0.6-10.0.0.9 10.0.0.20 10.0.0.4
am_both "auto-merge: elements merged with the set's" \
	'add element ip amref s { 10.0.0.10, 10.0.0.3-10.0.0.12, 10.0.0.19 }' \
	element add ip am s 10.0.0.10 10.0.0.3-10.0.0.12 10.0.0.19
am_both "auto-merge: element create inside an interval changes nothing" \
	'create element ip amref s { 10.0.0.2 }' element create ip am s 10.0.0.2
am_both "auto-merge: element del of a merged interval" \
	'delete element ip amref s { 10.0.0.19-10.0.0.20 }' \
	element del ip am s 10.0.0.19-10.0.0.20
expect_fail "auto-merge: element del of part of an interval fails, as in nft" \
	'element del: ip/am/s: 10.0.0.2: No such file or directory' \
	element del ip am s 10.0.0.2
"$NFTLAB" gen addr4 --count 2000 --range-size 1 --start 100 > "$TMP/am.txt"
nftns -f <(echo "add element ip amref s {"; sed 's/$/,/' "$TMP/am.txt"; echo "}")
expect_ok "auto-merge: 2000 touching ranges from a file" \
	element add ip am s --file "$TMP/am.txt"
same_elems "auto-merge: 2000 touching ranges: the elements are nft's" ip am s amref
nftns -f - <<-'EOT'
add element ip amref s { 10.1.0.1-10.1.0.5 }
add element ip amref s { 10.1.0.6-10.1.0.9 }
add element ip amref s { 10.1.1.1, 10.1.1.2 }
EOT
expect_ok "auto-merge: a script merges across its commands" -f <(printf '%s\n' \
	'element add ip am s 10.1.0.1-10.1.0.5' \
	'element add ip am s 10.1.0.6-10.1.0.9' \
	'element add ip am s 10.1.1.1 10.1.1.2')
same_elems "auto-merge: script: the elements are nft's" ip am s amref
expect_ok "auto-merge: a script: del, flush, add" -f <(printf '%s\n' \
	'element del ip am s 10.1.1.1-10.1.1.2' \
	'set flush ip am s' \
	'element add ip am s 10.2.0.1 10.2.0.2 10.2.0.4')
check "auto-merge: flushed, then merged anew" [ "$(set_elems ip am s)" = \
	'["10.2.0.4",{"range":["10.2.0.1","10.2.0.2"]}]' ]
expect_ok "auto-merge: nftlab merges into nft's auto-merge set" \
	element add ip amref s 10.2.0.1 10.2.0.2 10.2.0.4 10.2.0.3
check "auto-merge: ... as one interval" grep -q '10.2.0.1-10.2.0.4' \
	<(nftns list set ip amref s)
expect_refused "auto-merge: not for maps, as in nft" \
	'map add: --auto-merge is for sets \(nft 1.0.6 has no auto-merge for maps\)' \
	map add ip am m --type ipv4_addr --data mark --flags interval --auto-merge
expect_refused "auto-merge: needs --flags interval, as in nft" \
	'set add: --auto-merge needs --flags interval' \
	set add ip am h --type ipv4_addr --auto-merge
expect_refused "auto-merge: no concatenations (nft merges nothing there)" \
	'set add: --auto-merge: single-field interval sets only' \
	set add ip am c --type 'ipv4_addr . inet_service' --flags interval --auto-merge
expect_refused "auto-merge: no set flag" \
	'set add: --flags: auto-merge is no set flag \(in nft either\): --auto-merge' \
	set add ip am h --type ipv4_addr --flags interval,auto-merge
expect_refused "auto-merge: given twice" 'set add: --auto-merge given twice' \
	set add ip am h --type ipv4_addr --flags interval --auto-merge --auto-merge
expect_refused "auto-merge: not for set flush" 'set flush: set flush takes no options' \
	set flush ip am s --auto-merge
expect_ok "auto-merge: a set with timeouts" set add ip am t \
	--type ipv4_addr --flags interval,timeout --auto-merge
expect_refused "auto-merge: element timeouts refused (merged intervals have one)" \
	'ip/am/t: 10.0.0.1 timeout 10s: element timeout in an auto-merge set \(give the set a --timeout\)' \
	element add ip am t 10.0.0.2 '10.0.0.1 timeout 10s'
expect_ok "auto-merge: table del" table del ip am
nftns delete table ip amref

# Issue #53.  twins NAME SETS: tables NAME (nftlab's) and NAMEref (nft's)
# from the same set declarations.
twins() {
	local t
	for t in "$1" "$1ref"; do
		nftns -f <(echo "table ip $t {"; echo "$2"; echo "}") ||
			tap_bail "setup: nft cannot load table $t"
	done
}
# both_script NAME TABLE LINES...: nftlab -f the LINES (element add|del
# ip TABLE s ...), nft -f the same on TABLEref; both exit 0, same elements
both_script() {
	local name=$1 t=$2 l
	shift 2
	: > "$TMP/both.cmds"
	: > "$TMP/both.nft"
	for l in "$@"; do
		echo "element ${l%% *} ip $t s ${l#* }" >> "$TMP/both.cmds"
		echo "${l%% *} element ip ${t}ref s { ${l#* } }" |
			sed 's/^del /delete /' >> "$TMP/both.nft"
	done
	nftns -f "$TMP/both.nft" || not_ok "$name: nft -f fails"
	expect_ok "$name" -f "$TMP/both.cmds"
	same_elems "$name: the elements are nft's" ip "$t" s "${t}ref"
}
# N06: later lines of a script merge with what earlier ones added: the
# kernel cannot delete an interval that the same transaction added
twins m6 'set s { type ipv4_addr; flags interval; auto-merge; elements = { 10.0.0.0/24 }; }'
both_script "auto-merge: a script merges with what an earlier line added (N06)" m6 \
	'add 10.0.1.0/24' 'add 10.0.2.0/24'
check "auto-merge: ... into one interval, as nft -f" \
	grep -q 'elements = { 10.0.0.0-10.0.2.255 }' <(nftns list set ip m6 s)
both_script "auto-merge: a script adds, deletes what it added, merges again" m6 \
	'add 10.0.5.0/24' 'add 10.0.7.0/24' 'del 10.0.5.0/24' 'add 10.0.6.0/24' \
	'add 10.0.4.0' 'add 10.0.3.0/24'
printf '%s\n' 'add element ip m6ref s { 10.0.9.0/24, 10.0.10.0/24 }' \
	'delete element ip m6ref s { 10.0.9.0/24 }' > "$TMP/part.nft"
# shellcheck disable=SC2317  # called through check
nft_refuses() { ! nftns "$@" 2>/dev/null; }
check "auto-merge: nft -f refuses to delete part of what it merged" \
	nft_refuses -f "$TMP/part.nft"
printf '%s\n' 'element add ip m6 s 10.0.9.0/24 10.0.10.0/24' \
	'element del ip m6 s 10.0.9.0/24' > "$TMP/part.cmds"
expect_fail "auto-merge: ... so does nftlab" \
	'part.cmds:2: element del: ip/m6/s: 10.0.9.0/24: No such file or directory$' \
	-f "$TMP/part.cmds"
# N07: a merge that reaches the top of the type
twins m7 'set s { type inet_service; flags interval; auto-merge; elements = { 0-100 }; }
set a { type ipv4_addr; flags interval; auto-merge; elements = { 255.255.255.0/24 }; }'
nftns add element ip m7ref s '{ 101-65535 }'
nftns add element ip m7ref a '{ 255.255.254.0/24 }'
expect_ok "auto-merge: merged up to the top of the type (N07)" \
	element add ip m7 s 101-65535
same_elems "auto-merge: ... 0-65535, as nft" ip m7 s m7ref
expect_ok "auto-merge: merged up to 255.255.255.255" \
	element add ip m7 a 255.255.254.0/24
same_elems "auto-merge: ... 255.255.254.0/23, as nft" ip m7 a m7ref
# N17: set add of an existing set does not change it (the kernel keeps
# the user data that holds auto-merge): a different auto-merge is refused
twins m17 'set s { type ipv4_addr; flags interval; elements = { 10.0.0.0/24 }; }
set m { type ipv4_addr; flags interval; auto-merge; elements = { 10.0.0.0/24 }; }'
expect_refused "auto-merge: set add --auto-merge of an existing set without it (N17)" \
	'set add: ip/m17/s: exists without auto-merge, and set add leaves an existing set as it is .*: leave --auto-merge out, or set del it first$' \
	set add ip m17 s --type ipv4_addr --flags interval --auto-merge
printf '%s\n' 'set add ip m17 s --type ipv4_addr --flags interval --auto-merge' \
	'element add ip m17 s 10.0.1.0/24' > "$TMP/m17.cmds"
expect_refused "auto-merge: ... in a script, before an element add" \
	'm17.cmds:1: set add: ip/m17/s: exists without auto-merge' -f "$TMP/m17.cmds"
expect_refused "auto-merge: set add without --auto-merge of an auto-merge set" \
	'set add: ip/m17/m: exists with auto-merge, .*: give --auto-merge, or set del it first$' \
	set add ip m17 m --type ipv4_addr --flags interval
expect_ok "auto-merge: element add into the set without it" \
	element add ip m17 s 10.0.1.0/24
nftns add element ip m17ref s '{ 10.0.1.0/24 }'
same_elems "auto-merge: ... not merged: /24, /24 as nft keeps them" ip m17 s m17ref
expect_ok "auto-merge: set add of the existing auto-merge set, then element add" \
	-f <(printf '%s\n' 'set add ip m17 m --type ipv4_addr --flags interval --auto-merge' \
		'element add ip m17 m 10.0.1.0/24')
check "auto-merge: ... merged with what the set holds (it is not new)" \
	grep -q 'elements = { 10.0.0.0/23 }' <(nftns list set ip m17 m)
nftns delete table ip m6
nftns delete table ip m6ref
nftns delete table ip m7
nftns delete table ip m7ref
nftns delete table ip m17
nftns delete table ip m17ref
finish
