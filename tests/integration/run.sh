#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# nftlab integration tests against the running kernel, in a fresh netns.
# Usage: NFTLAB=/path/to/nftlab [NFTLAB_WRAPPER="valgrind ..."] run.sh
set -u
. "$(dirname "$0")/lib.sh"
# shellcheck source=expect.sh
. "$(dirname "$0")/expect.sh"
# shellcheck source=dups.sh
. "$(dirname "$0")/dups.sh"
# shellcheck source=lists.sh
. "$(dirname "$0")/lists.sh"
# shellcheck source=automerge.sh
. "$(dirname "$0")/automerge.sh"
# shellcheck source=open.sh
. "$(dirname "$0")/open.sh"

# elements of a set as nft -j prints them, sorted
set_elems() {
	nftns -j list set "$1" "$2" "$3" | jq -S -c '[.nftables[] | select(.set) | .set.elem // [] | .[]] | sort'
}

# same_elems NAME FAMILY TABLE SET REFTABLE: SET equals the nft-loaded twin
same_elems() {
	local a b
	a=$(set_elems "$2" "$3" "$4")
	b=$(set_elems "$2" "$5" "$4")
	if [ "$a" = "$b" ] && [ "$a" != "[]" ]; then
		ok "$1"
	else
		not_ok "$1"
		diff <(echo "$a" | jq .) <(echo "$b" | jq .) | head -20 | diag
	fi
}

# ref_load FAMILY TABLE SET SETDEF FILE: nft loads FILE's elements into a twin
ref_load() {
	{
		echo "table $1 $2 { set $3 { $4; }; }"
		echo "add element $1 $2 $3 {"
		sed 's/$/,/' "$5"
		echo "}"
	} > "$TMP/ref.nft"
	nftns -f "$TMP/ref.nft"
}

test_lifecycle() {
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
	local got want
	got=$(set_elems netdev perf test)
	want='[{"concat":["10.0.0.9",22]},{"concat":[{"range":["10.0.0.1","10.0.0.5"]},{"range":[80,90]}]}]'
	want=$(echo "$want" | jq -S -c 'sort')
	check "nft -j list set shows exactly the elements" [ "$got" = "$want" ]
	[ "$got" = "$want" ] || echo "$got" | diag
}

test_generated() {
	local spec
	nftlab_raw gen 'addr4' --count 1000 --start 1 > "$TMP/h.txt"
	nftlab_raw gen 'addr4 . port' --count 1000 --range-size 1 > "$TMP/c.txt"
	nftlab_raw gen 'addr4' --count 500 --range-size 3 > "$TMP/i.txt"
	nftlab_raw gen 'addr6 . mac' --count 300 --range-size 2 > "$TMP/m.txt"

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

	spec="type ipv6_addr . ether_addr; flags interval"
	expect_ok "ipv6 . mac interval set" set add netdev perf m \
		--type 'ipv6_addr . ether_addr' --flags interval
	expect_ok "300 ipv6 . mac ranges from stdin" \
		element add netdev perf m --file - < "$TMP/m.txt"
	ref_load netdev ref m "$spec" "$TMP/m.txt"
	same_elems "ipv6 . mac ranges equal nft's" netdev perf m ref
}

# A transaction of several messages and batch pages: every ACK collected,
# an error in a late message still names its element.
test_multi_message() {
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
	# keeps the before/after listings of the later tests short
	expect_ok "set del of a 30000-element set" set del netdev perf big
}

test_file_timeouts() {
	cat > "$TMP/t.txt" <<-'EOT'
	# comments and blank lines are skipped

	10.0.0.1 . 80 timeout 30m,
	10.0.0.2 . 443 timeout 1h
	10.0.0.3 . 22
	EOT
	expect_ok "timeout set" set add inet filter t \
		--type 'ipv4_addr . inet_service' --flags timeout --timeout 2h
	expect_ok "elements with timeouts from a file" \
		element add inet filter t --file "$TMP/t.txt"
	check "per-element timeouts as given" [ "$(nftns -j list set inet filter t |
		jq -c '[.nftables[] | select(.set) | .set.elem[] | .elem.timeout // "default"] | sort_by(tostring)')" = '[1800,3600,"default"]' ]
}

test_get_del() {
	local out
	out=$(nftlab element get netdev perf test '10.0.0.9 . 22')
	check "element get prints the element" [ "$out" = "10.0.0.9 . 22" ]
	out=$(nftlab element get netdev perf h 10.0.0.6)
	check "element get on a hash set" [ "$out" = "10.0.0.6" ]
	local range
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
}

test_rules_counters() {
	local json
	expect_ok "rule with 3 lookups, counter, accept" rule add netdev perf in \
		--set test --lookups 3 --counter --verdict accept
	check "rule has 3 lookups of @test" [ "$(nftns -j list chain netdev perf in |
		jq '[.. | objects | select(.right? == "@test")] | length')" = 3 ]
	expect_ok "named counter" counter add inet filter hits
	expect_ok "set with element counters" set add inet filter cs \
		--type inet_service --counter
	expect_ok "elements of the counter set" element add inet filter cs 22 80
	expect_ok "inet rule on an inet_service set" rule add inet filter input \
		--set cs --counter --verdict drop
	json=$(nftlab counters) || json=""
	check "counters is valid JSON" json_true "$json" '. != null'
	check "counters: rules" json_true "$json" \
		'[.rules[] | select(.chain == "in" and .packets == 0)] | length == 1'
	check "counters: named counter" json_true "$json" \
		'[.counters[] | select(.name == "hits")] | length == 1'
	check "counters: set element counters" json_true "$json" \
		'[.elements[] | select(.set == "cs") | .elem] | sort == ["22","80"]'
}

test_bad_input() {
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
}

# Issue #14: every input is applied as asked or refused (exit 2, nothing sent).
test_never_drop() {
	local n
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
}

# expect_closed_stdin NAME REGEX ARGS...: nftlab ARGS with standard input
# closed refuses (exit 2) within 60 s, stderr matching REGEX; before the
# fix fd 0 was the netlink socket and "-" read it forever
expect_closed_stdin() {
	local name=$1 regex=$2 rc=0
	shift 2
	timeout 60 ip netns exec "$NS" "${WRAP[@]}" "$NFTLAB" "$@" \
		<&- 2>"$TMP/err" || rc=$?
	diag < "$TMP/err"
	if [ "$rc" -eq 2 ] && grep -Eq -- "$regex" "$TMP/err"; then
		ok "$name"
	else
		not_ok "$name: exit status $rc, want 2 and /$regex/"
	fi
}

# Issue #28: the second round of bad-input findings.
test_round2_input() {
	expect_closed_stdin "--file - with stdin closed" \
		'element add: -: standard input is closed' element add ip inp s --file -
	expect_closed_stdin "-f - with stdin closed" \
		'^nftlab: -: standard input is closed' -f -
	expect_fail "chain del of a missing chain names it" \
		'chain del: ip/inp/nosuch: no such chain \(or table\): No such file' \
		chain del ip inp nosuch
	expect_ok "base chain for the chain tests" \
		chain add ip inp in --hook input --priority 0
	expect_fail "chain add of a base chain with a new priority says why" \
		'chain add: ip/inp/in: the chain exists with another hook, priority.*cannot be changed.*: Operation not supported' \
		chain add ip inp in --hook input --priority 10
	expect_refused "an element timeout needs the timeout flag" \
		'ip/inp/s: 10.0.0.2 timeout 30s: element timeout in a set without the timeout flag' \
		element add ip inp s '10.0.0.2 timeout 30s'
	expect_refused "--fil is not --file" "unknown option '--fil'" \
		element add ip inp s --fil "$TMP/one.txt"
	expect_refused "--co is not --count" "unknown option '--co'" \
		element add ip inp s --gen addr4 --co 2
	expect_refused "--typ is not --type" "unknown option '--typ'" \
		set add ip inp s9 --typ ipv4_addr
	expect_refused "--stats twice" '^nftlab: --stats given twice' \
		--stats --stats table add ip inp2
	expect_refused "--max-batch twice" '^nftlab: --max-batch given twice' \
		--max-batch 1M --max-batch 2M table add ip inp2
	expect_refused "--flags interval,interval" \
		"--flags: 'interval' given twice in 'interval,interval'" \
		set add ip inp s9 --type ipv4_addr --flags interval,interval
	expect_refused "a global option after the command" \
		"table add: '--stats' is a global option: global options go first \(nftlab --stats table" \
		table add ip inp2 --stats
	expect_refused "a global option among command options" \
		"'--max-batch' is a global option: global options go first" \
		element add ip inp s 10.0.9.1 --max-batch 1k
	expect_refused "--max-batch 1 refused before sending" \
		'table add: inp2: transaction exceeds --max-batch 1 bytes, nothing sent' \
		--max-batch 1 table add ip inp2
	echo 'table add ip inp2' > "$TMP/mb.cmds"
	expect_refused "--max-batch 1 in a script" \
		'mb.cmds:1: table add: inp2: transaction exceeds --max-batch 1 bytes' \
		--max-batch 1 -f "$TMP/mb.cmds"
	expect_refused "--file '' quotes the empty name" \
		"element add: '': No such file or directory" \
		element add ip inp s --file ''
	expect_refused "priority dstnat on an input hook, as nft" \
		"priority 'dstnat' is not for this hook" \
		chain add ip inp dn --hook input --priority dstnat
	expect_refused "priority raw in a bridge table, as nft" \
		"bad priority 'raw' \\(a number, or NAME \\[\\+\\|- N\\], NAME one of dstnat filter out srcnat\\)" \
		chain add bridge inp dn --hook input --priority raw
	expect_refused "an empty element between commas" \
		"element add: empty element before ','" \
		element add ip inp s '10.0.9.1,,10.0.9.2'
	expect_refused "'{' without '}'" "element add: '\\{' without '\\}'" \
		element add ip inp s '{ 10.0.9.1,'
	expect_refused "an empty list" "element add: no elements in '\\{ \\}'" \
		element add ip inp s '{' '}'
	printf 'table add ip chk\nset add ip chk s --type ipv4_addr\nelement add ip chk s 10.0.0.1\n' > "$TMP/chk.cmds"
	expect_checked "-c -f: a script is checked, nothing applied" \
		-c -f "$TMP/chk.cmds"
	expect_checked "--check: a command is checked, nothing applied" \
		--check element add ip inp s 10.0.9.9
	expect_fail "-c: the kernel's errors are reported" \
		'element create: ip/inp/s: 10.0.0.1: element already in the set' \
		-c element create ip inp s 10.0.0.1
	expect_refused "-c after the command" "'-c' is a global option: global options go first" \
		table add ip chk -c
	expect_refused "-1 as an element hints at --" \
		"unknown option '-1' \(an element that starts with '-' goes after '--'" \
		element add ip inp s -1
}

# --lookups: the kernel takes 128 expressions per rule (NFT_RULE_MAXEXPRS);
# the largest count nftlab accepts must load, one more must be refused.
test_lookup_limit() {
	local set=$1 fields=$2 max
	max=$(nftlab_raw rule add netdev perf in --set "$set" --lookups 1000 \
		--counter --verdict accept 2>&1 | sed -n 's/.*at most \([0-9]*\) lookups.*/\1/p')
	if [ -z "$max" ]; then
		not_ok "$set: --lookups 1000 refused with the computed maximum"
		return
	fi
	ok "$set ($fields): at most $max lookups with counter and verdict"
	expect_ok "$set: $max lookups load" rule add netdev perf in --set "$set" \
		--lookups "$max" --counter --verdict accept
	expect_refused "$set: $((max + 1)) lookups refused before sending" \
		"--lookups $((max + 1)): .* the kernel takes 128 per rule and less than 4096 bytes: at most $max lookups" \
		rule add netdev perf in --set "$set" --lookups "$((max + 1))" --counter --verdict accept
}

test_lookup_limits() {
	expect_ok "mark interval set" set add netdev perf lm --type 'mark . inet_service' --flags interval
	expect_ok "ether set" set add netdev perf macs --type ether_addr
	test_lookup_limit test 'ipv4_addr . inet_service'
	test_lookup_limit h ipv4_addr
	test_lookup_limit lm 'mark . inet_service, interval'
	test_lookup_limit macs ether_addr
	expect_ok "drop the big rules" chain del netdev perf in
	expect_ok "chain in again" chain add netdev perf in --hook ingress --dev lo --priority 0
}

# -f: a script of nftlab commands is one transaction
test_script() {
	cat > "$TMP/s.cmds" <<-'EOT'
	# comments and blank lines are skipped

	table add inet sc
	set add inet sc "a b" --type ipv4_addr
	EOT
	expect_refused "script: a bad name names file and line" \
		"s.cmds:4: set add: set name 'a b'" -f "$TMP/s.cmds"
	cat > "$TMP/s.cmds" <<-EOT
	table add inet sc
	set add inet sc v4 --type 'ipv4_addr . inet_service' --flags interval
	element add inet sc v4 '10.0.0.1-10.0.0.5 . 80-90' "10.0.0.9 . 22"
	element add inet sc v4 --file $TMP/c.txt
	chain add inet sc input --hook input --priority filter
	rule add inet sc input --set v4 --lookups 2 --counter --verdict accept
	counter add inet sc hits
	EOT
	expect_ok "script: table, set, elements, chain, rule in one transaction" \
		--stats -f "$TMP/s.cmds"
	check "script: one transaction (stats)" grep -Eq \
		"s.cmds: stats: 1002 elements" "$TMP/err"
	check "script: elements present" [ "$(nftns -j list set inet sc v4 |
		jq '.nftables[1].set.elem | length')" = 1002 ]
	printf 'table add inet sc2\nset add inet sc2 s --type ipv4_addr\nelement create inet sc2 s 10.0.0.1 10.0.0.1\n' > "$TMP/dup.cmds"
	expect_fail "script: a kernel error names the script line, nothing applied" \
		'dup.cmds:3: element create: inet/sc2/s: 10.0.0.1: duplicate: given twice in this transaction \(first at .*dup.cmds:3 word 6, again at .*dup.cmds:3 word 7\)' -f "$TMP/dup.cmds"
	printf 'table add inet sc3\nset add inet sc3 s --type ipv4_addr\nelement add inet sc3 s 10.0.0.x\n' > "$TMP/bad.cmds"
	expect_refused "script: bad element refused before sending" \
		"bad.cmds:3: element add: inet/sc3/s: 10.0.0.x" -f "$TMP/bad.cmds"
	printf 'table add inet sc4\ncounters\n' > "$TMP/ro.cmds"
	expect_refused "script: read-only commands refused" \
		"ro.cmds:2: counters: not allowed in a script" -f "$TMP/ro.cmds"
	printf "table add inet sc5\nset add inet sc5 s --type 'ipv4_addr\n" > "$TMP/q.cmds"
	expect_refused "script: unterminated quote" "q.cmds:2: unterminated ' quote" -f "$TMP/q.cmds"
	printf 'set del inet sc v4\nelement add inet sc v4 10.9.9.9\n' > "$TMP/del.cmds"
	expect_refused "script: a set deleted earlier in the script" \
		"del.cmds:2: element add: inet/sc/v4: deleted earlier in this script" -f "$TMP/del.cmds"
	# redirections, not pipes: a pipeline would run the test in a subshell
	# and lose its count and failure
	expect_ok "script from standard input" -f - < <(printf 'table add inet sc6\n')
	check "script from stdin applied" nftns list table inet sc6
	printf '10.0.0.1\n' > "$TMP/e.txt"
	expect_refused "script on stdin cannot read elements from stdin" \
		"standard input is already read" -f - \
		< <(printf 'table add inet sc7\nset add inet sc7 s --type ipv4_addr\nelement add inet sc7 s --file -\n')
	: > "$TMP/empty.cmds"
	expect_refused "script without commands" "empty.cmds: no commands" -f "$TMP/empty.cmds"
	expect_refused "-f with a command as well" "-f takes no command" -f "$TMP/s.cmds" table add ip x
	expect_ok "script: ruleset flush then build again" -f <(printf 'ruleset flush inet\ntable add inet sc\nset add inet sc v4 --type ipv4_addr\nelement add inet sc v4 10.1.1.1\n')
	check "script: the set was rebuilt with the new type" [ "$(set_elems inet sc v4)" = '["10.1.1.1"]' ]
	expect_ok "remove the script tables" table del inet sc
}

# maps and verdict maps (the listings are compared with nft's in nft-equiv.sh)
test_maps() {
	local out
	expect_ok "map table" table add ip mp
	expect_ok "chain to jump to" chain add ip mp other
	expect_ok "verdict map" map add ip mp vm --type ipv4_addr --data verdict
	expect_ok "verdict map elements" element add ip mp vm '10.0.0.1 : accept' \
		'10.0.0.2 : jump other' '10.0.0.3 : goto other'
	expect_ok "mark map, concatenated interval key" map add ip mp mm \
		--type 'ipv4_addr . inet_service' --data mark --flags interval
	expect_ok "mark map elements from a file" element add ip mp mm \
		--file <(printf '10.0.0.1-10.0.0.5 . 80 : 0x10\n10.1.0.0/16 . 1-1024 : 0x20\n')
	check "map elements as nft lists them" [ "$(nftns -j list map ip mp vm |
		jq -c '[.nftables[1].map.elem[] | [.[0], (.[1] | keys[0])]] | sort')" = \
		'[["10.0.0.1","accept"],["10.0.0.2","jump"],["10.0.0.3","goto"]]' ]
	expect_ok "chain with map rules" chain add ip mp input --hook input --priority 0
	expect_refused "map element jumping to a base chain" \
		"10.0.0.9 : jump input: jump to 'input': base chain \\(has a hook\\); jumps go to regular chains only" \
		element add ip mp vm '10.0.0.8 : drop' '10.0.0.9 : jump input'
	expect_refused "rule jumping to a missing chain names it" \
		"rule add: jump to 'nosuch': no such chain in ip/mp \\(chain add it first\\)" \
		rule add ip mp other --verdict jump:nosuch
	expect_refused "rule going to a base chain" \
		"rule add: jump to 'input': base chain" \
		rule add ip mp other --verdict goto:input
	expect_refused "script: jump to a chain deleted earlier" \
		"jump to 'other': no such chain in ip/mp \\(deleted earlier in this script\\)" \
		-f <(printf 'chain del ip mp other\nrule add ip mp input --verdict jump:other\n')
	expect_ok "script: jump to a chain added earlier" \
		-f <(printf 'chain add ip mp other2\nrule add ip mp other2 --verdict accept\nrule add ip mp other --verdict jump:other2\n')
	expect_fail "chain add of a regular chain with a hook says why" \
		'ip/mp/other: a regular chain of that name exists; it cannot become a base chain.*: File exists' \
		chain add ip mp other --hook input --priority 0
	expect_ok "rule with a verdict map lookup" rule add ip mp input --vmap vm
	expect_ok "rule setting the mark from a map" rule add ip mp input --map mm --counter
	check "vmap and map rules as nft lists them" [ "$(nftns list chain ip mp input |
		grep -cE 'ip daddr vmap @vm|meta mark set ip daddr . th dport map @mm')" = 2 ]
	out=$(nftlab element get ip mp vm 10.0.0.2)
	check "element get on a map prints the key" [ "$out" = "10.0.0.2" ]
	expect_ok "element del on a map needs no data" element del ip mp vm 10.0.0.3
	expect_fail "element add of a key with other data says so" \
		'ip/mp/vm: 10.0.0.1: element already in the set with other data' \
		element add ip mp vm '10.0.0.1 : drop'
	expect_refused "map element without data" "10.0.0.9: map element without ' : DATA'" \
		element add ip mp vm 10.0.0.9
	expect_refused "bad verdict" "'bogus' is not a verdict" \
		element add ip mp vm '10.0.0.9 : bogus'
	expect_refused "jump without a chain" "jump needs one chain name" \
		element add ip mp vm '10.0.0.9 : jump'
	expect_refused "jump to a keyword" "chain: 'counter' is an nft keyword" \
		element add ip mp vm '10.0.0.9 : jump counter'
	expect_refused "data of the wrong type" "'accept' is not a mark" \
		element add ip mp mm '10.0.0.9 . 80 : accept'
	expect_refused "jump to a missing chain names it" \
		"ip/mp/vm: 10.0.0.9 : jump nochain: jump to 'nochain': no such chain in ip/mp" \
		element add ip mp vm '10.0.0.9 : jump nochain'
	expect_refused "map add without --data" "map add needs --data" \
		map add ip mp x --type ipv4_addr
	expect_refused "--data on a set" "--data is for maps" \
		set add ip mp x --type ipv4_addr --data mark
	expect_refused "--vmap of a mark map" "--vmap mm: not a verdict map" \
		rule add ip mp input --vmap mm
	expect_refused "--map of a verdict map" "--map vm: not a map with --data mark" \
		rule add ip mp input --map vm
	expect_refused "--match with a word of the wrong field" \
		"--match 'saddr . port': field 2 \\(inet_service\\) takes sport or dport" \
		rule add ip mp input --map mm --match 'saddr . port'
	expect_refused "--match with too few fields" \
		"--match 'saddr': 2 fields joined by ' . ' for the key of mm" \
		rule add ip mp input --map mm --match saddr
	expect_refused "--set and --vmap together" "one of --set, --vmap, --map" \
		rule add ip mp input --set vm --vmap vm
	expect_ok "map del" table del ip mp
}

# element list: streams every element (text and JSON), bounded memory
test_list() {
	local out rss lines
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
		return
	fi
	expect_ok "1M-element set" -f <(printf 'table add ip big\nset add ip big h --type ipv4_addr --size 2000000\nelement add ip big h --gen addr4 --count 1000000\n')
	lines=$(ip netns exec "$NS" /usr/bin/time -f %M -o "$TMP/rss" "$NFTLAB" element list ip big h |
		wc -l)
	rss=$(cat "$TMP/rss")
	check "element list streams 1M elements ($lines lines, $rss kB peak RSS < 16 MB)" \
		test "$lines" = 1000000 -a "$rss" -lt 16384
	expect_ok "1M table del" table del ip big
}

test_teardown() {
	expect_ok "set flush" set flush netdev perf c
	check "flushed set is empty" [ "$(set_elems netdev perf c)" = "[]" ]
	expect_ok "set del" set del netdev perf c
	check "deleted set is gone" set_absent netdev perf c
	expect_ok "table del" table del netdev ref
	expect_ok "ruleset flush" ruleset flush
	check "ruleset empty after flush" [ -z "$(ruleset "$NS")" ]
}

require
setup_netns
test_lifecycle
test_generated
test_multi_message
test_file_timeouts
test_get_del
test_rules_counters
test_bad_input
test_never_drop
test_round2_input
test_lookup_limits
test_script
test_maps
test_list
test_dup_positions
test_automerge
test_list_nft
test_open_intervals
test_teardown
finish
