#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Issue #53, nft's answers to input (N09-N16, N19; N18 is in script.sh,
# what nft reads alike in tests/nft/names.nft): one message for a refused
# rule, set flush of a map and map flush of a set, timeouts beyond the
# kernel's limit and of 0s, ',' as a word of its own, NAME-NAME, priority
# numbers, and the counters of interval elements named by their range.
# Starts from table ip ans with set s, map m and base chain c.
set -u
. "$(dirname "$0")/../lib.sh"
# shellcheck source=../expect.sh
. "$(dirname "$0")/../expect.sh"

# one_line NAME: $TMP/err, the last command's stderr, is one line
one_line() {
	local n
	n=$(wc -l < "$TMP/err")
	if [ "$n" -eq 1 ] && ! LC_ALL=C grep -q '[^[:print:]]' "$TMP/err"; then
		ok "$1"
	else
		not_ok "$1: $n lines, or bytes that are no text"
	fi
}

# no_timeout NAME SET: nft lists SET of table ans without a timeout or flags
no_timeout() {
	if nftns list set ip ans "$2" > "$TMP/set" &&
	   ! grep -Eq 'timeout|flags' "$TMP/set"; then
		ok "$1"
	else
		not_ok "$1"
		diag < "$TMP/set"
	fi
}

require
setup_netns
given table add ip ans
given set add ip ans s --type ipv4_addr
given element add ip ans s 10.0.0.1
given map add ip ans m --type ipv4_addr --data verdict
given element add ip ans m '10.0.0.1 : accept'
given chain add ip ans c --hook input --priority 0

# N09: the refusal, and nothing after it (an uninitialised buffer was)
expect_refused "rule add --vmap of a set: refused" \
	'rule add: --vmap s: not a verdict map$' rule add ip ans c --vmap s
one_line "... in one message"
expect_refused "rule add --map of a verdict map: refused" \
	'rule add: --map m: not a map with --data mark$' rule add ip ans c --map m
one_line "... in one message"

# N10: nft answers ENOENT; refused here, saying what it is
expect_refused "map flush of a set" \
	'map flush: ip/ans/s: no such map: it is a set \(set flush\)' \
	map flush ip ans s
expect_refused "set flush of a map" \
	'set flush: ip/ans/m: no such set: it is a map \(map flush\)' \
	set flush ip ans m
printf 'map add ip ans m2 --type ipv4_addr --data mark\nset flush ip ans m2\n' > "$TMP/f.cmds"
expect_refused "set flush of a map declared earlier in the script" \
	'f.cmds:2: set flush: ip/ans/m2: no such set: it is a map' -f "$TMP/f.cmds"
printf 'map flush ip ans m\nset flush ip ans s\n' > "$TMP/g.cmds"
expect_ok "map flush of a map, set flush of a set" -f "$TMP/g.cmds"
check "... both flushed" [ "$(set_elems ip ans s)" = '[]' ]
given element add ip ans s 10.0.0.1

# N11: refused before sending, not the kernel's ERANGE as a long name
expect_refused "set add --timeout 99999999d" \
	"set add: timeout '99999999d': value too large \(at most 213503d23h34m33s708ms\)" \
	set add ip ans big --type ipv4_addr --timeout 99999999d
expect_refused "set add --timeout one ms beyond the kernel's" \
	'value too large' \
	set add ip ans big --type ipv4_addr --timeout 213503d23h34m33s709ms
expect_ok "set add --timeout of the kernel's largest" \
	set add ip ans big --type ipv4_addr --timeout 213503d23h34m33s708ms
expect_refused "an element timeout beyond the kernel's" \
	"ip/ans/big: 10.0.0.2 timeout 99999999d: timeout '99999999d': value too large" \
	element add ip ans big '10.0.0.2 timeout 99999999d'

# N19: timeout 0s is no timeout, for a set as for an element (as nft)
expect_ok "set add --timeout 0s" set add ip ans t0 --type ipv4_addr --timeout 0s
no_timeout "... a set without timeout or timeout flag, as nft's" t0
expect_ok "set add --timeout 0s --flags timeout" \
	set add ip ans t1 --type ipv4_addr --timeout 0s --flags timeout
check "... has the flag, no timeout" \
	grep -q 'flags timeout' <(nftns list set ip ans t1)
expect_ok "an element's timeout 0s" element add ip ans t1 '10.0.0.1 timeout 0s'

# N12: ',' as a word of its own
expect_ok "{ A , B } in separate words" \
	element add ip ans s '{' 10.0.0.2 , 10.0.0.3 '}'
expect_ok "A ,B and a trailing ," element add ip ans s 10.0.0.4 ,10.0.0.5 ,
check "... all added" [ "$(set_elems ip ans s)" = \
	'["10.0.0.1","10.0.0.2","10.0.0.3","10.0.0.4","10.0.0.5"]' ]
expect_refused "a ',' with no element before it" \
	"element add: empty element before ','" element add ip ans s '{' , 10.0.0.6 '}'
expect_refused "two ',' in a row, as words" \
	"element add: empty element before ','" element add ip ans s 10.0.0.6 , , 10.0.0.7

# N13, N14: NAME-NAME is one name to nft, refused with a hint
given set add ip ans p --type inet_service --flags interval
expect_refused "ftp-ssh is no range of names" \
	"'ftp-ssh' is no port number or service name of /etc/services \(a range of names needs ' - '\)" \
	element add ip ans p ftp-ssh
given set add ip ans pr --type inet_proto
expect_refused "Tcp is no protocol (names are case sensitive, as nft)" \
	"'Tcp' is no protocol number or name of /etc/protocols" element add ip ans pr Tcp

# N15: 08 is no number to nft (a leading 0 is octal)
expect_refused "priority 08" "bad priority '08'" \
	chain add ip ans c8 --hook input --priority 08
expect_refused "priority filter + 08" "bad priority 'filter \+ 08'" \
	chain add ip ans c8 --hook input --priority 'filter + 08'
expect_refused "priority +10 (nft: syntax error)" "bad priority '\+10'" \
	chain add ip ans c8 --hook input --priority +10

# N16: interval elements named by their range, as nft lists them
given set add ip ans ci --type ipv4_addr --flags interval --counter
given element add ip ans ci 10.0.0.0/24 10.0.1.5 10.0.2.1-10.0.2.9 255.255.255.0/24
given set add ip ans cp --type inet_service --flags interval --counter
given element add ip ans cp 1000-2000 3000 65000-65535
json=$(nftlab counters ip ans) || json=""
check "counters: interval elements by their range" json_true "$json" \
	'[.elements[] | select(.set == "ci") | .elem] | sort ==
	 ["10.0.0.0/24","10.0.1.5","10.0.2.1-10.0.2.9","255.255.255.0/24"]'
check "counters: port ranges, open to the top too" json_true "$json" \
	'[.elements[] | select(.set == "cp") | .elem] | sort ==
	 ["1000-2000","3000","65000-65535"]'
# Item 3: input without end is refused at --max-batch, memory bounded by
# it (peak RSS about the batch plus 5 MB; measured where no wrapper or
# sanitizer adds its own); for an auto-merge set too, whose intervals
# were kept without bound (it never ended).
# stream_refused NAME SET REGEX: yes 10.0.0.1 into SET, refused in 60 s
stream_refused() {
	local mb=8 rc=0 rss=""
	[ -n "$NFTLAB_WRAPPER" ] && mb=1
	yes 10.0.0.1 | timeout 60 /usr/bin/time -f %M -o "$TMP/rss" \
		ip netns exec "$NS" "${WRAP[@]}" "$NFTLAB" --max-batch "${mb}M" \
		element add ip ans "$2" --file - 2> "$TMP/err" || rc=$?
	diag < "$TMP/err"
	[ -z "$NFTLAB_WRAPPER" ] && [ "${NFTLAB_BIG:-1}" != 0 ] &&
		rss=$(tail -1 "$TMP/rss")
	if [ "$rc" -ne 2 ] || ! grep -Eq -- "$3" "$TMP/err"; then
		not_ok "$1: exit status $rc, want 2 and /$3/"
	elif [ -n "$rss" ] && [ "$rss" -ge $(((mb + 8) * 1024)) ]; then
		not_ok "$1: peak RSS $rss kB, want < $((mb + 8)) MiB"
	else
		ok "$1${rss:+ (peak RSS $rss kB)}"
	fi
}
if [ -x /usr/bin/time ]; then
	stream_refused "an endless --file - is refused at --max-batch" s \
		'ip/ans/s: transaction exceeds --max-batch [0-9]+ bytes at element [0-9]+, nothing sent'
	given set add ip ans am --type ipv4_addr --flags interval --auto-merge
	stream_refused "... also into an auto-merge set" am \
		'ip/ans/am: transaction exceeds --max-batch [0-9]+ bytes at element [0-9]+ \(with the intervals kept for auto-merge\)'
	check "... which is unchanged" [ "$(set_elems ip ans am)" = '[]' ]
else
	ok "endless input refused at --max-batch # SKIP no /usr/bin/time"
fi
finish
