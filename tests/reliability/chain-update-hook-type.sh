#!/bin/bash
# Reproducer of a netdev chain's hook that nfnetlink_hook cannot name: a
# device added to an existing netdev chain by a chain update gets hook ops
# without NF_HOOK_OP_NF_TABLES (nf_tables_updchain() sets pf, hooknum,
# priority, priv and hook, not the type).  "nft list hooks" then shows the
# chain for the devices the chain was created with, and only the function
# (nft_do_chain_netdev) for the added one; anything else that keys on the
# type, such as the netfilter core's direct call of series v5 patch 5,
# treats that hook as foreign.
#
# Run as root in a network namespace of its own, with an nft that has
# "list hooks" (1.0.1 or later: the host's on 6.12, the lab's current nft
# on 7.3).  Adds table netdev cuht and the dummy devices cuht0 and cuht1,
# removes them.
# Exit 0: every device of the chain names it; 1: reproduced (the listing is
# printed); 2: setup failed.
set -u
table=cuht
devs=(cuht0 cuht1)

cleanup() {
	nft delete table netdev "$table" 2>/dev/null
	for d in "${devs[@]}"; do
		ip link del "$d" 2>/dev/null
	done
}
trap cleanup EXIT
cleanup

for d in "${devs[@]}"; do
	{ ip link add "$d" type dummy && ip link set "$d" up; } || exit 2
done
nft add table netdev "$table" || exit 2
nft add chain netdev "$table" c "{ type filter hook ingress devices = { ${devs[0]} } priority 0; }" || exit 2
# the update: the same chain, one device more
nft add chain netdev "$table" c "{ type filter hook ingress devices = { ${devs[0]}, ${devs[1]} } priority 0; }" || exit 2
nft list chain netdev "$table" c | grep -qw "${devs[1]}" ||
	{ echo "setup failed: the update did not add ${devs[1]}"; exit 2; }

status=0
for d in "${devs[@]}"; do
	hooks=$(nft list hooks netdev device "$d") || { echo "setup failed: nft list hooks"; exit 2; }
	if grep -q "chain netdev $table c" <<<"$hooks"; then
		echo "ok: $d: the hook names chain netdev $table c"
	else
		echo "reproduced: $d: the hook does not name its chain:"
		while IFS= read -r line; do
			echo "    $line"
		done <<<"$hooks"
		status=1
	fi
done
exit "$status"
