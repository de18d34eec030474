#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Issue #27: intervals open to the top of their type (0.0.0.0/0,
# 9.0.0.0-255.255.255.255, ::/0, 0-65535) are a start element alone.
# Kernels without upstream's open-interval check take one that overlaps
# the set (tests/reliability/open-interval.c), so nftlab refuses the
# overlap before sending and names the interval it overlaps.  Starts
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
finish
