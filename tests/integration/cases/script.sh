#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# -f: a script of nftlab commands is one transaction; errors name the
# script's file, line and word; what a script may not do (read-only
# commands, stdin twice, a set deleted earlier) is refused before
# sending.  Starts from the generated ranges c.txt (gen_files).
set -u
. "$(dirname "$0")/../lib.sh"
# shellcheck source=../expect.sh
. "$(dirname "$0")/../expect.sh"

require
setup_netns
gen_files

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
# issue #53 N18: as nft -f, a script without commands does nothing, exit 0
: > "$TMP/empty.cmds"
expect_checked "an empty script: exit 0, nothing done (as nft -f)" \
	-f "$TMP/empty.cmds"
printf '# only comments\n\n   # and blank lines\n' > "$TMP/comments.cmds"
expect_checked "a script of comments only: exit 0, nothing done" \
	-f "$TMP/comments.cmds"
expect_refused "-f with a command as well" "-f takes no command" -f "$TMP/s.cmds" table add ip x
expect_ok "script: ruleset flush then build again" -f <(printf 'ruleset flush inet\ntable add inet sc\nset add inet sc v4 --type ipv4_addr\nelement add inet sc v4 10.1.1.1\n')
check "script: the set was rebuilt with the new type" [ "$(set_elems inet sc v4)" = '["10.1.1.1"]' ]
expect_ok "remove the script tables" table del inet sc
finish
