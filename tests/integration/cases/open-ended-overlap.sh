#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Issue #27: intervals open to the top of their type (0.0.0.0/0,
# 9.0.0.0-255.255.255.255, ::/0, 0-65535) are a start element alone.
# Kernels without upstream's open-interval check take one that overlaps
# the set (tests/reliability/open-interval.c), so nftlab refuses the
# overlap before sending and names the interval it overlaps; also a value
# or a closed interval that reaches an open interval in the set.  Starts
# from an empty netns.
set -u
. "$(dirname "$0")/../lib.sh"
# shellcheck source=../expect.sh
. "$(dirname "$0")/../expect.sh"

require
setup_netns

nftns -f - <<-'EOT'
table inet oi {
	set v4 { type ipv4_addr; flags interval; elements = { 10.1.0.0/16 } }
	set v6 { type ipv6_addr; flags interval; elements = { 2001:db8::/32 } }
	set p { type inet_service; flags interval; elements = { 80-90 } }
	set top { type ipv4_addr; flags interval; }
}
EOT
expect_refused "open interval: 0.0.0.0/0 over 10.1.0.0/16" \
	'element add: inet/oi/v4: 0.0.0.0/0: overlaps 10.1.0.0/16 in the set$' \
	element add inet oi v4 0.0.0.0/0
expect_refused "open interval: 9.0.0.0-255.255.255.255 over 10.1.0.0/16" \
	'9.0.0.0-255.255.255.255: overlaps 10.1.0.0/16 in the set$' \
	element add inet oi v4 9.0.0.0-255.255.255.255
expect_refused "open interval: ::/0 over 2001:db8::/32" \
	'::/0: overlaps 2001:db8::/32 in the set$' \
	element add inet oi v6 ::/0
expect_refused "open interval: 0-65535 over 80-90" \
	'0-65535: overlaps 80-90 in the set$' element add inet oi p 0-65535
expect_refused "open interval: element create, same message" \
	'0-65535: overlaps 80-90 in the set$' element create inet oi p 0-65535
printf '10-20\n50-65535\n' > "$TMP/oi.txt"
expect_refused "open interval: from --file, its line named" \
	'oi.txt:2: 50-65535: overlaps 80-90 in the set$' \
	element add inet oi p --file "$TMP/oi.txt"
expect_refused "open interval: overlaps one given earlier in the command" \
	'3000-65535: overlaps 1000-4000 given earlier$' \
	element add inet oi p 1000-4000 3000-65535
expect_refused "open interval: one given earlier overlaps a later closed one" \
	'1000-4000: overlaps 3000-65535 given earlier$' \
	element add inet oi p 3000-65535 1000-4000
expect_refused "open interval: two open intervals in one command" \
	'1000-65535: overlaps 5000-65535 given earlier$' \
	element add inet oi p 5000-65535 1000-65535
expect_ok "open interval: above the set's intervals" \
	element add inet oi v4 10.2.0.0-255.255.255.255
check "open interval: the set holds both, as nft lists them" \
	grep -q 'elements = { 10.1.0.0/16, 10.2.0.0-255.255.255.255 }' \
	<(nftns list set inet oi v4)
expect_ok "open interval: element add of the same one again" \
	element add inet oi v4 10.2.0.0-255.255.255.255
expect_fail "open interval: element create of the same one: the kernel refuses" \
	'element already in the set' \
	element create inet oi v4 10.2.0.0-255.255.255.255
expect_ok "open interval: 0.0.0.0/0 into an empty set" \
	element add inet oi top 0.0.0.0/0
check "open interval: nft lists 0.0.0.0/0" \
	grep -q 'elements = { 0.0.0.0/0 }' <(nftns list set inet oi top)
expect_refused "open interval: in a script, after a change of the same set" \
	'a set this transaction changed before' \
	-f <(printf '%s\n' 'element del inet oi p 80-90' \
		'element add inet oi p 0-65535')
expect_ok "open interval: in a script, into a set not changed before" \
	-f <(printf '%s\n' 'element add inet oi v6 2001:db9::/32' \
		'element add inet oi p 91-65535')
expect_ok "open interval: cleanup" table del inet oi

# Issue #53 (N01-N05): the other way round, a value or a closed interval
# reaching an open interval the set holds.  The kernel skips a start
# element equal to the open one's and inserts the new end element: the
# open interval would be cut short (0.0.0.0/0 plus 0.0.0.0 becomes
# 0.0.0.0).  nft refuses each of them; so does nftlab.
nftns -f - <<-'EOT'
table ip cut {
	set any { type ipv4_addr; flags interval; elements = { 0.0.0.0/0 } }
	set p { type inet_service; flags interval; elements = { 1000-65535 } }
	set e { type inet_service; flags interval; }
	map vm { type ipv4_addr : verdict; flags interval; elements = { 255.255.255.0/24 : drop } }
	chain out { type filter hook output priority 0; ip daddr @any counter; }
}
table ip6 cut {
	set s { type ipv6_addr; flags interval; elements = { ::/0 } }
}
EOT
# counted: a ping to 127.0.0.1 is counted by ip daddr @any counter
# shellcheck disable=SC2317  # called through check
counted() {
	local before after
	before=$(nftns -j list chain ip cut out | jq '[.. | .packets? // empty] | add')
	ip netns exec "$NS" ping -c 1 -W 1 127.0.0.1 >/dev/null 2>&1
	after=$(nftns -j list chain ip cut out | jq '[.. | .packets? // empty] | add')
	[ "$after" -gt "$before" ]
}
# nft_refuses ARGS...: nft ARGS fails
# shellcheck disable=SC2317  # called through check
nft_refuses() { ! nftns "$@" 2>/dev/null; }
check "open interval in the set: nft refuses a value at its start" \
	nft_refuses add element ip cut any '{ 0.0.0.0 }'
expect_refused "open interval in the set: a value at its start (N01)" \
	'element add: ip/cut/any: 0.0.0.0: overlaps 0.0.0.0/0 in the set$' \
	element add ip cut any 0.0.0.0
check "open interval in the set: a ping to 127.0.0.1 is still counted" counted
expect_refused "open interval in the set: a closed interval at its start (N02)" \
	'ip/cut/p: 1000-2000: overlaps 1000-65535 in the set$' \
	element add ip cut p 1000-2000
expect_refused "open interval in the set: a closed interval across its start" \
	'ip/cut/p: 999-2000: overlaps 1000-65535 in the set$' \
	element add ip cut p 999-2000
expect_refused "open interval in the set: element create of a value at its start" \
	'ip/cut/p: 1000: overlaps 1000-65535 in the set$' \
	element create ip cut p 1000
expect_refused "open interval in the set: ::/1 into ::/0 (N03)" \
	'ip6/cut/s: ::/1: overlaps ::/0 in the set$' element add ip6 cut s ::/1
expect_refused "open interval in the set: a verdict map (N04)" \
	'ip/cut/vm: 255.255.255.0/25 : drop: overlaps 255.255.255.0/24 in the set$' \
	element add ip cut vm '255.255.255.0/25 : drop'
echo 'element add ip cut p 1000-2000' > "$TMP/ol.cmds"
expect_refused "open interval in the set: in a script (N05)" \
	'ol.cmds:1: element add: ip/cut/p: 1000-2000: overlaps 1000-65535 in the set$' \
	-f "$TMP/ol.cmds"
printf '%s\n' 'element add ip cut e 1000-65535' 'element add ip cut e 1000' > "$TMP/ol.cmds"
expect_refused "open interval in the set: added earlier in the same script" \
	'ol.cmds:2: element add: ip/cut/e: 1000: overlaps 1000-65535 given earlier in this transaction$' \
	-f "$TMP/ol.cmds"
printf '%s\n' 'set add ip cut f --type inet_service --flags interval' \
	'element add ip cut f 0-65535' 'element add ip cut f 0-10' > "$TMP/ol.cmds"
expect_refused "open interval in the set: set, open and closed one in one script" \
	'ol.cmds:3: element add: ip/cut/f: 0-10: overlaps 0-65535 given earlier in this transaction$' \
	-f "$TMP/ol.cmds"
expect_ok "open interval in the set: a closed interval just below it" \
	element add ip cut p 500-999
check "open interval in the set: ... next to it, as nft lists them" \
	grep -q 'elements = { 500-999, 1000-65535 }' <(nftns list set ip cut p)
expect_ok "open interval in the set: deleted earlier in the script, then a closed one" \
	-f <(printf '%s\n' 'element del ip cut p 1000-65535' 'element add ip cut p 1000-2000')
check "open interval in the set: ... the set holds it" \
	grep -q 'elements = { 500-999, 1000-2000 }' <(nftns list set ip cut p)
expect_ok "open interval in the set: flushed earlier in the script" \
	-f <(printf '%s\n' 'set flush ip cut any' 'element add ip cut any 0.0.0.0')
check "open interval in the set: ... the set holds the value" \
	grep -q 'elements = { 0.0.0.0 }' <(nftns list set ip cut any)
nftns delete table ip cut
nftns delete table ip6 cut
finish
