#!/bin/bash
# Usage: tests/reliability/nft-reset-counter.sh [NFT]
#
# Reproducer for an nft userspace bug (issue #52 item 4, the 7.3 churn
# soak's counters; report: docs/upstream/nft-reset-counter.md): two
# "reset counter" commands in one nft input reset only the last counter.
# In a namespace of its own, two named counters of a netdev table are set
# to 5 packets, then one "nft -f" runs
#
#   reset counter netdev r d
#   reset counter netdev r c
#
# and both counters must read 0 packets afterwards.  NFT is the nft binary
# to test (default: nft from PATH); the lab's guest nft is
# "$(kernel/builder/build-nft)/sbin/nft".
# Exit: 0 both counters reset, 1 a counter kept its packets (the bug),
# 2 the reproducer could not run (not root, no namespace, nft failed).
set -uo pipefail
nft=${1:-nft}
ns=nft-reset-$$

fail() { echo "nft-reset-counter: $*" >&2; exit 2; }

[ "$(id -u)" -eq 0 ] || fail "needs root (a network namespace)"
"$nft" --version >/dev/null 2>&1 || fail "$nft: not an nft binary"
ip netns add "$ns" || fail "cannot add namespace $ns"
trap 'ip netns del "$ns"' EXIT

ip netns exec "$ns" "$nft" -f - <<-EOF || fail "cannot load the table"
table netdev r {
	counter c { packets 5 bytes 500 }
	counter d { packets 5 bytes 500 }
}
EOF
ip netns exec "$ns" "$nft" -f - >/dev/null <<-EOF || fail "nft -f of the two resets failed"
reset counter netdev r d
reset counter netdev r c
EOF

# The packets of each counter, read back by name.
out=$(ip netns exec "$ns" "$nft" list counters) || fail "nft list counters failed"
rc=0
for name in c d; do
	if [[ $out =~ counter\ $name\ \{[[:space:]]*packets\ ([0-9]+) ]]; then
		packets=${BASH_REMATCH[1]}
	else
		fail "counter $name is not in the listing"
	fi
	echo "counter $name: $packets packets after the reset (5 before)"
	[ "$packets" -eq 0 ] || rc=1
done
echo "$("$nft" --version): $([ "$rc" -eq 0 ] && echo "both counters reset" || echo "a counter was not reset")"
exit "$rc"
