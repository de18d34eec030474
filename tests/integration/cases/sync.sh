#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Issue #53 item 2: set sync FAMILY TABLE SET --file FILE makes the set's
# elements those of the file in one transaction.  Every step is checked
# against what nft lists afterwards: additions and deletions, a file equal
# to the set (exit 0, no commit: nft monitor sees none), --dry-run's
# lines, merged intervals, maps, renewed timeouts, refused input with
# nothing applied, and another process committing between the dump and
# the commit (retried, or refused with --retries 0).  Starts from an
# empty netns.
set -u
. "$(dirname "$0")/../lib.sh"
# shellcheck source=../expect.sh
. "$(dirname "$0")/../expect.sh"

# elems FAMILY TABLE SET: the elements nft lists, one per line, sorted,
# without their expiry (a set or a map)
elems() {
	{ nftns list set "$@" 2> /dev/null || nftns list map "$@"; } |
		sed -E 's/ expires [0-9dhms]+//g' |
		tr -d '\n\t' | sed -n 's/.*elements = { \(.*\) }.*/\1/p' |
		sed -E 's/, +/\n/g' | sort
}

# expect_exit WANT NAME ARGS...: nftlab ARGS exits with WANT
expect_exit() {
	local want=$1 name=$2 rc=0
	shift 2
	nftlab "$@" || rc=$?
	check "$name (exit status $rc, want $want)" [ "$rc" -eq "$want" ]
}

# holds NAME FAMILY TABLE SET LINE...: the set holds exactly LINE...
holds() {
	local name=$1 want got
	shift
	want=$(printf '%s\n' "${@:4}" | sort)
	got=$(elems "$1" "$2" "$3")
	if [ "$want" = "$got" ]; then
		ok "$name"
	else
		not_ok "$name"
		diff <(echo "$want") <(echo "$got") | diag
	fi
}

# commits CMD...: the number of element events nft monitor prints while
# CMD runs (a sync that writes nothing prints none).  The monitor is
# ready once it has printed an element added to the set mon.
commits() {
	local mon=$TMP/monitor.out pid n=0 before
	ip netns exec "$NS" nft monitor elements > "$mon" 2>&1 &
	pid=$!
	while ! grep -q 'ip t mon' "$mon" && [ "$n" -lt 100 ]; do
		n=$((n + 1))
		nftns add element ip t mon "{ 10.9.9.$n }"
		sleep 0.1
	done
	sleep 0.2
	before=$(grep -c . "$mon")
	"$@" > /dev/null 2>&1
	sleep 0.3
	kill "$pid"
	wait "$pid" 2> /dev/null
	echo $(($(grep -c . "$mon") - before))
}

require
setup_netns
given table add ip t
given set add ip t s --type ipv4_addr
given set add ip t other --type ipv4_addr
given set add ip t mon --type ipv4_addr

# --- additions, deletions, equal ---
printf '%s\n' 10.0.0.1 10.0.0.2 10.0.0.3 > "$TMP/a.txt"
printf '%s\n' '# a comment, a blank line, a trailing comma' '' \
	10.0.0.2 10.0.0.3, 10.0.0.4 10.0.0.4 > "$TMP/b.txt"
expect_exit 3 "sync: an empty set gets the file's elements" \
	set sync ip t s --file "$TMP/a.txt"
holds "sync: the set holds the file's elements" ip t s 10.0.0.1 10.0.0.2 10.0.0.3
expect_exit 0 "sync: a file equal to the set" set sync ip t s --file "$TMP/a.txt"
check "sync: a file equal to the set commits nothing (nft monitor)" \
	[ "$(commits nftlab_raw set sync ip t s --file "$TMP/a.txt")" = 0 ]
check "sync: nft monitor sees the commit of a sync that changes the set" \
	[ "$(commits nftlab_raw set sync ip t s --file "$TMP/b.txt")" -gt 0 ]
holds "sync: extra element deleted, missing one added" ip t s \
	10.0.0.2 10.0.0.3 10.0.0.4
expect_exit 3 "sync: back to the first file" set sync ip t s --file "$TMP/a.txt"

# --- dry run ---
out=$(nftlab_raw set sync ip t s --file "$TMP/b.txt" --dry-run)
rc=$?
check "sync --dry-run: exit status 3 when the set differs" [ "$rc" = 3 ]
check "sync --dry-run: '-' and '+' lines" \
	[ "$out" = "$(printf '%s\n' '- 10.0.0.1' '+ 10.0.0.4')" ]
holds "sync --dry-run: nothing applied" ip t s 10.0.0.1 10.0.0.2 10.0.0.3
check "sync --dry-run of an equal file: exit 0, no output" \
	[ -z "$(nftlab_raw set sync ip t s --file "$TMP/a.txt" --dry-run)" ]
expect_exit 3 "sync: from standard input" set sync ip t s --file - < "$TMP/b.txt"
holds "sync: from standard input: the set holds the file's elements" \
	ip t s 10.0.0.2 10.0.0.3 10.0.0.4
: > "$TMP/empty.txt"
expect_exit 3 "sync: an empty file empties the set" \
	set sync ip t s --file "$TMP/empty.txt"
check "sync: the set is empty" [ -z "$(elems ip t s)" ]

# --- intervals: merged as --auto-merge merges ---
given set add ip t i --type ipv4_addr --flags interval
printf '%s\n' 10.0.0.0/24 10.0.1.0/24 10.0.5.0-10.0.5.9 10.0.5.5-10.0.5.20 \
	192.168.0.1 > "$TMP/i1.txt"
expect_exit 3 "sync interval: overlapping and touching intervals" \
	set sync ip t i --file "$TMP/i1.txt"
holds "sync interval: the set holds the merged intervals" ip t i \
	10.0.0.0/23 10.0.5.0-10.0.5.20 192.168.0.1
expect_exit 0 "sync interval: the same file again: equal" \
	set sync ip t i --file "$TMP/i1.txt"
printf '%s\n' 10.0.0.0/22 192.168.0.1 > "$TMP/i2.txt"
out=$(nftlab_raw set sync ip t i --file "$TMP/i2.txt" --dry-run | sort)
check "sync interval --dry-run: a wider interval replaces the narrower" \
	[ "$out" = "$(printf '%s\n' '+ 10.0.0.0/22' '- 10.0.0.0/23' '- 10.0.5.0-10.0.5.20')" ]
expect_exit 3 "sync interval: a wider interval in one transaction" \
	set sync ip t i --file "$TMP/i2.txt"
holds "sync interval: the set holds the wider interval" ip t i \
	10.0.0.0/22 192.168.0.1
printf '%s\n' 0.0.0.0/0 > "$TMP/i3.txt"
expect_exit 3 "sync interval: an interval open to the top over the set's" \
	set sync ip t i --file "$TMP/i3.txt"
holds "sync interval: the set holds 0.0.0.0/0 only" ip t i 0.0.0.0/0
given set add ip t c --type 'ipv4_addr . inet_service' --flags interval
printf '%s\n' '10.0.0.1-10.0.0.5 . 80-90' '10.0.0.7 . 22' > "$TMP/c.txt"
expect_exit 3 "sync concatenated ranges" set sync ip t c --file "$TMP/c.txt"
holds "sync concatenated ranges: the set holds them" ip t c \
	'10.0.0.1-10.0.0.5 . 80-90' '10.0.0.7 . 22'
expect_exit 0 "sync concatenated ranges: equal" set sync ip t c --file "$TMP/c.txt"

# --- maps: a changed value is deleted and added in one transaction ---
given map add ip t m --type ipv4_addr --data mark
printf '%s\n' '10.0.0.1 : 0x1' '10.0.0.2 : 0x2' > "$TMP/m1.txt"
printf '%s\n' '10.0.0.1 : 0x1' '10.0.0.2 : 0x3' '10.0.0.5 : 0x5' > "$TMP/m2.txt"
expect_exit 3 "map sync: a map" map sync ip t m --file "$TMP/m1.txt"
out=$(nftlab_raw map sync ip t m --file "$TMP/m2.txt" --dry-run)
check "map sync --dry-run: a changed value is '-' old, '+' new" \
	[ "$out" = "$(printf '%s\n' '- 10.0.0.2 : 0x00000002' '+ 10.0.0.2 : 0x00000003' '+ 10.0.0.5 : 0x00000005')" ]
expect_exit 3 "map sync: changed and new values" map sync ip t m --file "$TMP/m2.txt"
holds "map sync: the map holds the new values" ip t m \
	'10.0.0.1 : 0x00000001' '10.0.0.2 : 0x00000003' '10.0.0.5 : 0x00000005'
given chain add ip t to_a
given chain add ip t to_b
given map add ip t v --type ipv4_addr --data verdict
printf '%s\n' '10.0.0.1 : jump to_a' '10.0.0.2 : drop' > "$TMP/v1.txt"
printf '%s\n' '10.0.0.1 : jump to_b' '10.0.0.2 : drop' > "$TMP/v2.txt"
expect_exit 3 "map sync: a verdict map" map sync ip t v --file "$TMP/v1.txt"
expect_exit 3 "map sync: another jump target" map sync ip t v --file "$TMP/v2.txt"
holds "map sync: the verdict map jumps to the new target" ip t v \
	'10.0.0.1 : jump to_b' '10.0.0.2 : drop'
expect_exit 0 "map sync: the verdict map is equal" map sync ip t v --file "$TMP/v2.txt"

# --- timeouts: elements that stay are renewed ---
given set add ip t tm --type ipv4_addr --timeout 1h
printf '%s\n' 10.0.0.1 '10.0.0.2 timeout 2h' > "$TMP/t.txt"
expect_exit 3 "sync timeout: a set with a timeout" set sync ip t tm --file "$TMP/t.txt"
nftns add element ip t tm '{ 10.0.0.1 expires 1m, 10.0.0.2 timeout 2h expires 1m }'
expect_exit 0 "sync timeout: equal elements" set sync ip t tm --file "$TMP/t.txt"
check "sync timeout: the elements that stay are renewed (expire in > 50 min)" \
	jq -e '[.nftables[] | select(.set) | .set.elem[].elem.expires] |
		length == 2 and min > 3000' <<< "$(nftns -j list set ip t tm)"
printf '%s\n' '10.0.0.1 timeout 30m' 10.0.0.2 > "$TMP/t2.txt"
expect_exit 3 "sync timeout: changed timeouts" set sync ip t tm --file "$TMP/t2.txt"
holds "sync timeout: the new timeouts" ip t tm '10.0.0.1 timeout 30m' 10.0.0.2
given set add ip t ti --type ipv4_addr --flags interval --timeout 1h
printf '%s\n' 10.0.0.0/24 10.0.1.0/24 > "$TMP/ti.txt"
expect_exit 3 "sync timeout: an interval set" set sync ip t ti --file "$TMP/ti.txt"
nftns add element ip t ti '{ 10.0.0.0/23 expires 1m }'
expect_exit 0 "sync timeout: an interval set, equal" set sync ip t ti --file "$TMP/ti.txt"
check "sync timeout: the interval is renewed" \
	jq -e '[.nftables[] | select(.set) | .set.elem[].elem.expires] | min > 3000' \
	<<< "$(nftns -j list set ip t ti)"

# --- refused input: nothing applied ---
printf '%s\n' 10.0.0.1 10.0.0.300 > "$TMP/bad.txt"
expect_refused "sync: a bad element refuses the whole file" \
	"set sync: ip/t/s: .*bad.txt:2: 10.0.0.300: .*not an IPv4 address" \
	set sync ip t s --file "$TMP/bad.txt"
printf '%s\n' '10.0.0.1 : 0x1' '10.0.0.1 : 0x2' > "$TMP/conflict.txt"
expect_refused "map sync: a key twice with other data" \
	"conflict.txt:2: .*given earlier in the file with other data" \
	map sync ip t m --file "$TMP/conflict.txt"
printf '%s\n' '10.0.0.1 timeout 1m' > "$TMP/tmo.txt"
expect_refused "sync: a timeout in a set without timeouts" \
	"without the timeout flag" set sync ip t s --file "$TMP/tmo.txt"
printf '%s\n' 10.0.0.1-10.0.0.3 > "$TMP/range.txt"
expect_refused "sync: a range in a hash set" "ranges need a set with flags interval" \
	set sync ip t s --file "$TMP/range.txt"
given map add ip t im --type inet_service --data mark --flags interval
printf '%s\n' '10-20 : 0x1' '15-30 : 0x2' > "$TMP/imo.txt"
expect_refused "map sync: overlapping intervals of a map" \
	"10-20 and 15-30 overlap" map sync ip t im --file "$TMP/imo.txt"
given map add ip t v2 --type ipv4_addr --data verdict
printf '%s\n' '10.0.0.1 : jump nochain' > "$TMP/nochain.txt"
expect_refused "map sync into an empty map: a jump to no chain" \
	"nochain.txt:1: .*no such chain" map sync ip t v2 --file "$TMP/nochain.txt"
expect_refused "map sync of a set" "ip/t/s is a set \(set sync\)" \
	map sync ip t s --file "$TMP/a.txt"
expect_refused "set sync of a map" "ip/t/m is a map \(map sync\)" \
	set sync ip t m --file "$TMP/m1.txt"
expect_refused "sync: --file is required" "--file is required" set sync ip t s
expect_refused "sync: not in a script" "not allowed in a script" \
	-f <(echo "set sync ip t s --file $TMP/a.txt")
printf '%s\n' '10.0.0.1-10.0.0.5 . 80' '10.0.0.3-10.0.0.9 . 80' > "$TMP/cov.txt"
expect_fail "sync: the kernel refuses overlapping concatenated ranges" \
	"set sync: ip/t/c: .*(overlaps|File exists)" set sync ip t c --file "$TMP/cov.txt"
expect_fail "sync: no such set" "no such table or set" \
	set sync ip t nosuch --file "$TMP/a.txt"

# --- another process commits between the dump and the commit ---
# The file is read after the generation ID (a FIFO holds the sync there
# until the other commit is done), so the batch is always refused once.
mkfifo "$TMP/fifo"
# race_sync ELEMENT FILE [ARGS]: a sync of set s from FILE (through the
# FIFO, with ARGS) while element ELEMENT is committed to set other; its
# exit status in $rc, its stderr in $TMP/race.err.
race_sync() {
	local elem=$1 file=$2 pid

	shift 2
	nftlab_raw set sync ip t s --file "$TMP/fifo" "$@" 2> "$TMP/race.err" &
	pid=$!
	exec 3> "$TMP/fifo"
	nftns add element ip t other "{ $elem }"
	cat "$file" >&3
	exec 3>&-
	rc=0
	wait "$pid" || rc=$?
	diag < "$TMP/race.err"
}
printf '%s\n' 10.0.1.1 10.0.1.2 > "$TMP/f1.txt"
race_sync 1.1.1.1 "$TMP/f1.txt"
check "sync: a commit in between: retried, exit status 3 ($rc)" [ "$rc" = 3 ]
check "sync: a commit in between: the kernel refused the first batch" \
	grep -q 'ruleset changed after generation .* trying again' "$TMP/race.err"
holds "sync: a commit in between: the set holds the file" ip t s 10.0.1.1 10.0.1.2
holds "sync: a commit in between: the other commit stays" ip t other 1.1.1.1
race_sync 1.1.1.2 "$TMP/a.txt" --retries 0
check "sync --retries 0: a commit in between: exit status 1 ($rc)" [ "$rc" = 1 ]
check "sync --retries 0: says nothing was applied" \
	grep -q 'nothing applied, no retries left' "$TMP/race.err"
holds "sync --retries 0: the set is unchanged" ip t s 10.0.1.1 10.0.1.2

# A writer loop commits to another set while syncs of 2000 elements run:
# each sync either leaves the set equal to its file (exit 3, or 0 if it
# was equal already) or fails with nothing applied.
"$NFTLAB" gen addr4 --count 2000 --start 1 > "$TMP/w1.txt"
"$NFTLAB" gen addr4 --count 2000 --start 1001 > "$TMP/w2.txt"
(
	i=0
	while [ -e "$TMP/fifo" ]; do
		i=$((i + 1))
		ip netns exec "$NS" nft add element ip t other "{ 2.0.$((i / 250 % 250)).$((i % 250 + 1)) }" 2> /dev/null
	done
) &
writer=$!
clean=0 applied=0 refused=0 prev=""
for k in 1 2 3 4; do
	f=$TMP/w$((k % 2 + 1)).txt
	before=$(elems ip t s)
	rc=0
	nftlab_raw set sync ip t s --file "$f" --retries 0 2> "$TMP/loop.err" || rc=$?
	after=$(elems ip t s)
	if [ "$after" = "$(sort "$f")" ] &&
	   { [ "$rc" = 3 ] || { [ "$rc" = 0 ] && [ "$before" = "$after" ]; }; }; then
		clean=$((clean + 1)) applied=$((applied + 1))
	elif [ "$rc" = 1 ] && grep -q 'nothing applied' "$TMP/loop.err" &&
	     [ "$after" = "$before" ]; then
		clean=$((clean + 1)) refused=$((refused + 1))
	else
		diag < "$TMP/loop.err"
		prev="$prev run $k: exit $rc;"
	fi
done
rm -f "$TMP/fifo"
wait "$writer"
check "sync under a writer loop: 4 of 4 runs applied or refused whole ($applied applied, $refused refused;$prev)" \
	[ "$clean" = 4 ]
finish
