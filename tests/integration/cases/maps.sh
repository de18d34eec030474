#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Maps and verdict maps: elements with data, jumps and gotos checked
# against the table's chains (base chains refused, missing ones named),
# rules with --vmap and --map, element get and del by key, and every
# misuse refused with a message naming it.  The listings are compared
# with nft's in nft-equiv.sh.  Starts from an empty netns.
set -u
. "$(dirname "$0")/../lib.sh"
# shellcheck source=../expect.sh
. "$(dirname "$0")/../expect.sh"

require
setup_netns

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
finish
