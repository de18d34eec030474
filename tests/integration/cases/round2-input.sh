#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Issue #28: the second round of bad-input findings: standard input
# closed, chains that exist with another hook, options shortened or given
# twice, global options in the wrong place, --max-batch too small, nft's
# priority names per hook, empty list items; -c/--check checks and
# applies nothing.  Starts from table ip inp with set s holding 10.0.0.1.
set -u
. "$(dirname "$0")/../lib.sh"
# shellcheck source=../expect.sh
. "$(dirname "$0")/../expect.sh"

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

require
setup_netns
given table add ip inp
given set add ip inp s --type ipv4_addr
given element add ip inp s 10.0.0.1
printf '10.0.1.1\n' > "$TMP/one.txt"

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
finish
