#!/bin/bash
# Minimal reproducer of a false hit of the 6.12 rbtree set backend, found by
# tests/reliability/differential.py: a key inside an interval whose timeout
# has expired still matches, until garbage collection frees the interval.
#
# The lookup walks the tree towards the key and remembers the last active,
# unexpired element at or below it.  When the element right below the key is
# the expired interval's start, it is skipped, but the node before it is in
# a subtree the walk never enters, so the walk answers with an older start
# element: "inside an interval".  Which keys hit depends on the tree's shape;
# with these three intervals, 10.0.2.5 and 10.0.2.9 do on 6.12.117.
#
# Run as root in a network namespace of its own (a lab guest:
#   kernel/runner/lab-run --variant baseline -- ip netns add r \; ...
# or see tests/reliability/guest-debug.sh).  Adds table inet rbtexp and the
# dummy device rbtexp0, removes both.  Exit 0: no false hit; 1: reproduced
# (the keys that hit are printed); 2: setup failed.
set -u
dev=rbtexp0

cleanup() {
	nft delete table inet rbtexp 2>/dev/null
	ip link del "$dev" 2>/dev/null
}
trap cleanup EXIT
cleanup

nft -f - <<'EOF' || exit 2
table inet rbtexp {
	set s {
		type ipv4_addr
		flags interval,timeout
		elements = { 10.0.0.1-10.0.0.10, 10.0.1.0-10.0.1.5 }
	}
	set hits {
		type ipv4_addr
		flags dynamic
	}
	chain out {
		type filter hook output priority 0
		ip daddr @s add @hits { ip daddr }
	}
}
EOF
# The expiring interval comes in a transaction of its own, after the others
# (the tree's shape decides which keys hit).
nft add element inet rbtexp s '{ 10.0.2.1-10.0.2.9 timeout 1s }' || exit 2
sleep 2
{
	ip link add "$dev" type dummy &&
		ip link set "$dev" up &&
		ip addr add 192.0.2.1/32 dev "$dev" &&
		ip route add 10.0.0.0/16 dev "$dev"
} || exit 2
# Inside the expired interval (must miss), then inside a live one (must hit).
probes=(10.0.2.1 10.0.2.5 10.0.2.9 10.0.1.3)
python3 - "${probes[@]}" <<'EOF' || exit 2
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for a in sys.argv[1:]:
    s.sendto(b"", (a, 9))
EOF
hits=$(nft list set inet rbtexp hits) || exit 2
case "$hits" in
*10.0.1.3*) ;;
*) echo "setup failed: the live interval did not match"; exit 2 ;;
esac
status=0
for a in 10.0.2.1 10.0.2.5 10.0.2.9; do
	if grep -qw "${a//./\\.}" <<<"$hits"; then
		echo "false hit: $a matched, its interval 10.0.2.1-10.0.2.9 expired"
		status=1
	fi
done
[ "$status" = 0 ] && echo "no false hit"
exit "$status"
