#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Issue #28: nftlab list ruleset|table|chain|set|map against nft list on
# the same ruleset: the text identical, the JSON of --json equal to nft
# -j's once parsed (jq -S, metainfo and the ever-changing "expires" left
# out); what nftlab does not render is refused (exit 2, a message naming
# it, nothing on stdout).  The rulesets: everything nftlab creates, the
# fixtures tests/nft/ (loaded by nft and by nftlab), the corpus
# tests/corpus/, rulesets nftlab cannot print, 100k elements.  Starts
# from an empty netns.
set -u
. "$(dirname "$0")/../lib.sh"
# shellcheck source=../expect.sh
. "$(dirname "$0")/../expect.sh"

NFTDIR=$(cd "$(dirname "$0")/../../nft" && pwd)
CORPUS=$(cd "$(dirname "$0")/../../corpus" && pwd)

lnft() { nftns "$@"; }
# lnftlab ARGS: nftlab in the netns, stdout to $TMP/lout, stderr to $TMP/lerr
lnftlab() {
	ip netns exec "$NS" "${WRAP[@]}" "$NFTLAB" "$@" > "$TMP/lout" 2> "$TMP/lerr"
}
no_expires() { sed -E 's/ expires [0-9dhms]+//g'; }
json_norm() {
	jq -S -c '.nftables | map(select(has("metainfo") | not)) |
		walk(if type == "object" then del(.expires) else . end)'
}

# list_same WHAT...: nftlab list WHAT prints what nft list WHAT prints;
# --json what nft -j list WHAT prints; ok, or the first difference
list_same() {
	local name="${LIST_WHAT:+$LIST_WHAT: }list $*" want got rc=0
	want=$(lnft list "$@" | no_expires)
	lnftlab list "$@" || rc=$?
	got=$(no_expires < "$TMP/lout")
	if [ "$rc" -ne 0 ] || [ "$want" != "$got" ]; then
		not_ok "$name: text as nft list (exit $rc)"
		diff <(echo "$want") <(echo "$got") | head -10 | diag
		diag < "$TMP/lerr"
		return 1
	fi
	want=$(lnft -j list "$@" 2>/dev/null | json_norm)
	rc=0
	lnftlab list "$@" --json || rc=$?
	got=$(json_norm < "$TMP/lout" 2>&1)
	if [ "$rc" -ne 0 ] || [ "$want" != "$got" ]; then
		not_ok "$name --json: as nft -j list (exit $rc)"
		diff <(echo "$want" | jq .) <(echo "$got" | jq .) | head -10 | diag
		return 1
	fi
	ok "$name: text and JSON as nft"
}

# The objects of the netns' ruleset: "table FAMILY NAME", "set|map|chain ...".
list_objects() {
	lnft -j list ruleset 2>/dev/null | jq -r '.nftables[] |
		if .table then "table \(.table.family) \(.table.name)"
		elif .set then "set \(.set.family) \(.set.table) \(.set.name)"
		elif .map then "map \(.map.family) \(.map.table) \(.map.name)"
		elif .chain then "chain \(.chain.family) \(.chain.table) \(.chain.name)"
		else empty end'
}

# list_refused NAME REGEX ARGS: nftlab ARGS refuses: exit 2, stderr
# matching REGEX, nothing on stdout, the ruleset unchanged
list_refused() {
	local name=$1 regex=$2 rc=0 before
	shift 2
	before=$(lnft list ruleset)
	lnftlab "$@" || rc=$?
	if [ "$rc" -ne 2 ] || [ -s "$TMP/lout" ] ||
	   ! grep -Eq -- "$regex" "$TMP/lerr"; then
		not_ok "$name: exit $rc, want 2, nothing printed and /$regex/"
		diag < "$TMP/lerr"
	elif [ "$before" != "$(lnft list ruleset)" ]; then
		not_ok "$name: ruleset changed"
	else
		ok "$name"
	fi
}

# list_missing NAME REGEX ARGS: exit 1 (ENOENT, as nft), nothing printed
list_missing() {
	local name=$1 regex=$2 rc=0
	shift 2
	lnftlab "$@" || rc=$?
	if [ "$rc" -eq 1 ] && [ ! -s "$TMP/lout" ] && grep -Eq -- "$regex" "$TMP/lerr"; then
		ok "$name"
	else
		not_ok "$name: exit $rc, want 1 and /$regex/"
		diag < "$TMP/lerr"
	fi
}

# Everything nftlab creates: key and data types, flags, timeouts,
# counters, policies, chains of every family, every rule shape.
list_script() {
	cat <<-'EOT'
	table add ip ltab
	set add ip ltab i --type ipv4_addr --flags interval
	element add ip ltab i 10.0.0.1-10.0.0.5 10.0.0.9 10.1.0.0/16 255.255.255.0-255.255.255.255 0.0.0.0-0.0.0.3 10.2.0.0-10.2.0.1
	set add ip ltab whole --type ipv4_addr --flags interval
	element add ip ltab whole 0.0.0.0/0
	set add ip ltab m --type mark --flags interval
	element add ip ltab m 0x0-0xf 0x10 0xfffffff0-0xffffffff 0x100-0x200
	set add ip ltab p --type inet_service --flags interval
	element add ip ltab p 0-1023 2000 65000-65535
	set add ip ltab pr --type inet_proto --flags interval
	element add ip ltab pr 0-15 58 200 250-255
	set add ip ltab e --type ether_addr --flags interval
	element add ip ltab e 00:11:22:33:44:00-00:11:22:33:44:ff 02:00:00:00:00:01
	set add ip ltab tc --type ipv4_addr --flags timeout --counter --size 100
	element add ip ltab tc '10.0.0.1 timeout 10m' 10.0.0.2
	set add ip ltab cst --type ipv4_addr --flags constant --size 10 --policy memory
	element add ip ltab cst 1.2.3.4
	set add ip ltab pol --type ipv4_addr --size 10 --policy memory --flags dynamic
	set add ip ltab six --type 'ipv6_addr . inet_service . inet_proto' --flags interval
	element add ip ltab six '2001:db8::/64 . 80-81 . tcp' '::1 . 22 . udp'
	set add ip ltab c3 --type 'inet_proto . mark . ether_addr'
	element add ip ltab c3 'tcp . 0x1 . 00:11:22:33:44:55' 'udp . 0x2 . 00:11:22:33:44:56' '47 . 0x3 . 01:00:00:00:00:00'
	set add ip ltab ci --type 'mark . ether_addr . inet_service' --flags interval
	element add ip ltab ci '0x20-0x2f . 00:11:22:33:44:00-00:11:22:33:44:ff . 10-20' '0x1 . 00:00:00:00:00:01 . 1'
	set add ip ltab co --type 'ipv4_addr . inet_service' --flags interval
	element add ip ltab co '10.0.0.9 . 22' '10.0.0.1 . 80' '9.0.0.0/8 . 0-65535' '10.0.0.3 . 1-2'
	set add ip ltab h6 --type ipv6_addr
	element add ip ltab h6 2001:db8::2 ::ffff:1.2.3.4 2001:db8::1 fe80::1
	set add ip ltab hp --type inet_proto
	element add ip ltab hp 58 6 17 200
	set add ip ltab hm --type mark
	element add ip ltab hm 0x1 0x100 0x2 0x10000
	set add ip ltab big --type ipv4_addr
	element add ip ltab big --gen addr4 --count 23
	set add ip ltab ports --type inet_service
	element add ip ltab ports --gen port --count 13 --start 7
	set add ip ltab tt --type ipv4_addr --flags interval,timeout --timeout 1d2h3m4s --counter
	element add ip ltab tt '10.0.0.0/24 timeout 90s' 10.9.0.1
	set add ip ltab empty --type ether_addr
	set add ip ltab am --type ipv4_addr --flags interval --auto-merge
	element add ip ltab am 10.0.0.1-10.0.0.5 10.0.0.6-10.0.0.9 10.0.0.20
	map add ip ltab mt --type ipv4_addr --data inet_service --flags timeout --timeout 1h
	element add ip ltab mt '10.0.0.1 timeout 10m : 80' '10.0.0.2 : 443'
	chain add ip ltab x
	map add ip ltab vm --type ipv4_addr --data verdict
	element add ip ltab vm '10.0.0.1 : jump x' '10.0.0.2 : goto x' '10.0.0.3 : drop' '10.0.0.4 : accept' '10.0.0.5 : continue' '10.0.0.6 : return'
	map add ip ltab mi --type 'ipv4_addr . inet_service' --data mark --flags interval
	element add ip ltab mi '10.0.0.1-10.0.0.5 . 80 : 0x10' '10.1.0.0/16 . 1-1024 : 0x20'
	map add ip ltab mp --type inet_service --data inet_proto
	element add ip ltab mp '80 : tcp' '53 : 17' '1 : 200'
	counter add ip ltab hits
	counter add ip ltab misses
	chain add ip ltab in --hook input --priority -140 --policy drop
	rule add ip ltab in --set i --lookups 2 --counter --verdict accept
	rule add ip ltab in --set co --match 'saddr . sport' --verdict jump:x
	rule add ip ltab in --vmap vm
	rule add ip ltab in --map mi --counter
	rule add ip ltab in --set hm
	rule add ip ltab in --set m --verdict goto:x
	rule add ip ltab in
	rule add ip ltab x --counter --verdict return
	chain add ip ltab out --hook output --priority 'security + 7' --type route
	chain add ip ltab nat --hook postrouting --priority 90 --type nat
	chain add ip ltab pre --hook prerouting --priority dstnat-10
	chain add ip ltab forw --hook forward --priority 45
	table add netdev ln
	set add netdev ln h --type ipv4_addr
	set add netdev ln m --type ether_addr
	set add netdev ln mk --type 'mark . inet_service' --flags interval
	set add netdev ln p6 --type 'ipv6_addr . inet_proto . inet_service'
	set add netdev ln me --type 'ether_addr . ipv4_addr'
	map add netdev ln vm --type ipv4_addr --data verdict
	map add netdev ln mm --type 'ipv4_addr . inet_service' --data mark
	chain add netdev ln other
	chain add netdev ln in --hook ingress --dev lo --priority -95
	chain add netdev ln eg --hook egress --dev lo --priority 'filter + 10'
	rule add netdev ln in --set h --lookups 3 --counter --verdict accept
	rule add netdev ln in --set m --lookups 2 --match saddr
	rule add netdev ln in --set mk --lookups 2
	rule add netdev ln in --set p6 --match 'saddr . l4proto . sport' --verdict continue
	rule add netdev ln in --set me --match 'saddr . saddr'
	rule add netdev ln in --vmap vm --lookups 2
	rule add netdev ln in --map mm --lookups 2 --counter
	rule add netdev ln in --verdict jump:other
	rule add netdev ln other --counter --verdict drop
	table add bridge lb
	set add bridge lb m --type 'ether_addr . ipv4_addr'
	set add bridge lb s6 --type ipv6_addr
	chain add bridge lb c --hook prerouting --priority -290 --policy drop
	chain add bridge lb o --hook output --priority out
	chain add bridge lb f --hook forward --priority -199
	rule add bridge lb c --set m --counter
	rule add bridge lb c --set s6 --match saddr
	table add inet li
	set add inet li p --type inet_proto
	set add inet li s --type inet_service
	set add inet li a6 --type ipv6_addr --flags interval
	chain add inet li c --hook input --priority 95 --policy accept
	chain add inet li ing --hook ingress --dev lo --priority 0
	rule add inet li c --set p --lookups 2
	rule add inet li c --set s --match sport
	rule add inet li c --set a6 --counter --verdict drop
	table add ip6 l6
	set add ip6 l6 a --type ipv6_addr
	chain add ip6 l6 c --hook output --priority -160 --type route
	rule add ip6 l6 c --set a --match saddr --lookups 2
	table add arp la
	chain add arp la c --hook output --priority 11
	chain add arp la i --hook input --priority filter
	EOT
}

test_list_nftlab_objects() {
	local obj
	list_script > "$TMP/list.cmds"
	if ! lnftlab -f "$TMP/list.cmds"; then
		not_ok "list: the objects nftlab creates load"
		diag < "$TMP/lerr"
		return
	fi
	ok "list: the objects nftlab creates load"
	list_same ruleset
	list_same ruleset netdev
	list_same ruleset ip6
	while read -r obj; do
		# under ASan/valgrind: a few of every kind
		if [ "${NFTLAB_BIG:-1}" = 0 ]; then
			case "$obj" in
			"table ip ltab" | "set ip ltab i" | "set ip ltab co" | \
			"map ip ltab vm" | "chain ip ltab in" | "chain netdev ln in") ;;
			*) continue ;;
			esac
		fi
		# shellcheck disable=SC2086  # the object's words
		list_same $obj
	done < <(list_objects)
}

# tests/nft/NAME.nft loaded by nft, NAME.cmds by nftlab: both list as nft.
test_list_nft_corpus() {
	local f base
	for f in "$NFTDIR"/*.nft; do
		base=$(basename "$f" .nft)
		lnft flush ruleset
		# under ASan/valgrind: the nftlab-loaded half
		if [ "${NFTLAB_BIG:-1}" = 0 ]; then
			:
		elif lnft -f "$f"; then
			LIST_WHAT="$base.nft (nft -f)" list_same ruleset
		else
			not_ok "list: $base.nft: nft -f loads it"
		fi
		lnft flush ruleset
		if lnftlab -f "$NFTDIR/$base.cmds"; then
			LIST_WHAT="$base.cmds (nftlab -f)" list_same ruleset
		else
			not_ok "list: $base.cmds: nftlab -f loads it"
		fi
	done
}

# corpus_objects FILE: every object of the ruleset nft loaded from FILE
# lists as nft lists it, or is refused; never differently.
corpus_objects() {
	local f=$1 obj rc same=0 refused=0 bad=""
	while read -r obj; do
		rc=0
		# shellcheck disable=SC2086
		lnftlab list $obj || rc=$?
		# shellcheck disable=SC2086
		if [ "$rc" -eq 0 ] && [ "$(no_expires < "$TMP/lout")" = "$(lnft list $obj | no_expires)" ]; then
			same=$((same + 1))
		elif [ "$rc" -eq 2 ] && [ ! -s "$TMP/lout" ] &&
		     grep -q 'nftlab list prints only what nftlab creates' "$TMP/lerr"; then
			refused=$((refused + 1))
		else
			bad="$bad [$obj: exit $rc]"
		fi
	done < <(list_objects)
	if [ -z "$bad" ]; then
		ok "list: corpus $(basename "$f"): $same objects as nft, $refused refused"
	else
		not_ok "list: corpus $(basename "$f"): listed differently:$bad"
	fi
}

test_list_corpus() {
	local f n=0
	for f in "$CORPUS"/*.nft; do
		n=$((n + 1))
		[ "${NFTLAB_BIG:-1}" = 0 ] && [ "$n" -gt 3 ] && break
		lnft flush ruleset
		if ! lnft -f "$f" 2>/dev/null; then
			ok "list: corpus $(basename "$f") # SKIP nft -f cannot load it here"
			continue
		fi
		corpus_objects "$f"
	done
	lnft flush ruleset
}

test_list_refusals() {
	lnft -f - <<-'EOT'
	table ip rf {
		counter c {
			comment "note"
		}
		set ty {
			typeof ip saddr
		}
		set cm {
			type ipv4_addr
			comment "set note"
		}
		set ec {
			type ipv4_addr
			elements = { 10.0.0.1 comment "element note" }
		}
		map ca {
			type inet_service : verdict
			elements = { 22 : accept, * : drop }
		}
		set ok {
			type ipv4_addr
			elements = { 10.0.0.1 }
		}
		chain cc {
			comment "chain note"
		}
		chain r {
			ip daddr { 10.0.0.1, 10.0.0.2 } accept
			tcp dport 22 drop
		}
		chain ok2 {
			ip daddr @ok accept
		}
	}
	table ip dormant {
		flags dormant
	}
	table ip rq {
		quota q {
			over 10 mbytes
		}
	}
	table inet mixed {
		set a {
			type ipv4_addr . ipv6_addr
		}
		chain c {
		}
	}
	EOT
	lnftlab rule add inet mixed c --set a
	list_refused "list: a counter comment is refused" \
		'list table: ip/rf/c: a counter comment: nftlab list prints only' list table ip rf
	list_refused "list: a quota is refused" \
		'list table: ip/rq/q: a stateful object other than a counter' \
		list table ip rq
	list_refused "list: a typeof set is refused" \
		'list set: ip/rf/ty: a typeof key declaration' list set ip rf ty
	list_refused "list: a set comment is refused" 'ip/rf/cm: a set comment' \
		list set ip rf cm
	list_refused "list: an element comment is refused" \
		'ip/rf/ec: an element: an element comment' list set ip rf ec
	list_refused "list: a catch-all element is refused" \
		'ip/rf/ca: an element: an element without a key.*catch-all' list map ip rf ca
	local rc=0
	lnftlab element list ip rf ca || rc=$?
	check "element list: the elements of a map with a catch-all, exit 2 naming it" \
		test "$rc" = 2 -a "$(cat "$TMP/lout")" = "22 : accept"
	grep -q 'element list: ip/rf/ca: 1 element(s) without a key.*not listed' \
		"$TMP/lerr" || diag < "$TMP/lerr"
	list_refused "list: a chain comment is refused" 'ip/rf/cc: a chain comment' \
		list chain ip rf cc
	list_refused "list: a rule nft wrote is refused, naming its handle" \
		'list chain: ip/rf/r: rule handle [0-9]+: not a rule nftlab writes' \
		list chain ip rf r
	list_refused "list: table flags are refused" \
		'ip/dormant: table flags \(dormant, owner\)' list table ip dormant
	list_refused "list: a key of ipv4 and ipv6 fields is refused" \
		'inet/mixed/c: rule handle [0-9]+: a key of ipv4_addr and ipv6_addr fields' \
		list chain inet mixed c
	list_refused "list ruleset: refused as a whole" 'list ruleset: .*nftlab list prints only' \
		list ruleset
	list_same set ip rf ok
	list_same chain ip rf ok2
}

test_list_usage() {
	list_missing "list: a missing table" \
		'list table: ip/nosuch: no such table: No such file or directory' list table ip nosuch
	list_missing "list: a missing chain" 'list chain: ip/rf/nosuch: no such chain' \
		list chain ip rf nosuch
	list_missing "list: a missing set" 'list set: ip/rf/nosuch: no such set' \
		list set ip rf nosuch
	list_missing "list: set of a map" 'list set: ip/rf/ca: no such set \(a map: nftlab list map\)' \
		list set ip rf ca
	list_missing "list: map of a set" 'list map: ip/rf/ok: no such map \(a set: nftlab list set\)' \
		list map ip rf ok
	list_refused "list: --json twice" 'list ruleset: --json given twice' \
		list ruleset --json --json
	list_refused "list: a bad family" "list ruleset: unknown family 'bogus'" \
		list ruleset bogus
	list_refused "list: a missing argument" 'list chain: usage: nftlab list' \
		list chain ip rf
	list_refused "list: an unknown option" "list set: unknown option '--jsn'" \
		list set ip rf ok --jsn
	list_refused "list: not in a script" 'list ruleset: not allowed in a script' \
		-f <(echo 'list ruleset')
}

# 100k elements of a hash set and 20k ranges, as nft lists them
test_list_big() {
	if [ "${NFTLAB_BIG:-1}" = 0 ]; then
		ok "list: 100k elements as nft # SKIP NFTLAB_BIG=0"
		return
	fi
	lnft flush ruleset
	lnftlab -f <(printf '%s\n' 'table add ip big' \
		'set add ip big h --type ipv4_addr --size 200000' \
		'element add ip big h --gen addr4 --count 100000' \
		'set add ip big i --type ipv4_addr --flags interval' \
		'element add ip big i --gen addr4 --count 20000 --range-size 2')
	LIST_WHAT="100k elements, 20k ranges" list_same ruleset
}

require
setup_netns
test_list_nftlab_objects
lnft flush ruleset
test_list_nft_corpus
test_list_corpus
test_list_refusals
test_list_usage
test_list_big
finish
