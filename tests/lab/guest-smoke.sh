#!/bin/bash
# Runs inside a lab guest (UML or x86_64 QEMU): nft loads a hash, an rbtree
# and a pipapo set and a netdev ingress chain on a veth peer; one ping
# through the chain must hit each lookup rule.  TAP on stdout and in
# $NFTLAB_RESULTS/smoke.tap.
set -uo pipefail
# The guest's / is the host's: the checkout is there, read-only.
# shellcheck source=../../lib/tap.sh
. "$(dirname "$0")/../../lib/tap.sh"
tap_tee "$NFTLAB_RESULTS/smoke.tap"
# quiet CMD...: CMD's output stays off the console.
quiet() { "$@" >/dev/null 2>&1; }

ip netns add smoke-peer
trap 'ip netns del smoke-peer 2>/dev/null; ip link del smk0 2>/dev/null' EXIT
ip link add smk0 type veth peer name smk1 netns smoke-peer
ip addr add 192.0.2.1/24 dev smk0
ip link set smk0 up
ip -n smoke-peer addr add 192.0.2.2/24 dev smk1
ip -n smoke-peer link set smk1 up
ip -n smoke-peer link set lo up

tap_check "nft loads hash, rbtree and pipapo sets and a netdev ingress chain" quiet \
	ip netns exec smoke-peer nft -f - <<'NFT'
table netdev smoke {
	set h { type ipv4_addr; elements = { 192.0.2.1, 198.51.100.7 } }
	set r { type ipv4_addr; flags interval; elements = { 192.0.2.0/28, 203.0.113.0/24 } }
	set p { type ipv4_addr . ipv4_addr; flags interval;
		elements = { 192.0.2.0-192.0.2.9 . 192.0.2.2, 10.0.0.0/8 . 10.0.0.1 } }
	chain in {
		type filter hook ingress device smk1 priority 0;
		ip saddr @h counter name hash_hits
		ip saddr @r counter name rbtree_hits
		ip saddr . ip daddr @p counter name pipapo_hits
	}
	counter hash_hits { }
	counter rbtree_hits { }
	counter pipapo_hits { }
}
NFT
ip netns exec smoke-peer nft list ruleset > "$NFTLAB_RESULTS/smoke-ruleset.txt" 2>&1
tap_check "ping crosses the veth pair" quiet ping -c 3 -i 0.2 -W 2 192.0.2.2
for c in hash rbtree pipapo; do
	pkts=$(ip netns exec smoke-peer nft list counter netdev smoke "${c}_hits" |
		sed -n 's/.*packets \([0-9]*\).*/\1/p')
	echo "# ${c}_hits: ${pkts:-none} packets"
	tap_check "a packet matched the $c set lookup" quiet test "${pkts:-0}" -ge 1
done

# pipapo's AVX2 variant is chosen by nft_pipapo_avx2_estimate() when the CPU
# has AVX and AVX2, and exists only in x86_64 builds (not UML); the kernel
# exposes no per-set backend name, so report the inputs of that choice.
if grep -q ' nft_pipapo_avx2_lookup$' /proc/kallsyms 2>/dev/null; then
	avx2_built=yes
elif grep -q ' nft_pipapo_lookup$' /proc/kallsyms 2>/dev/null; then
	avx2_built=no
else
	avx2_built=unknown
fi
if [ "$avx2_built" = no ]; then
	tap_diag "pipapo: this kernel has no AVX2 variant -> generic nft_set_pipapo"
elif grep -qw avx2 /proc/cpuinfo && grep -qw avx /proc/cpuinfo; then
	tap_diag "pipapo: CPU has AVX2 -> nft_set_pipapo_avx2 selected for concatenated interval sets (AVX2 variant built: $avx2_built)"
else
	tap_diag "pipapo: CPU without AVX2 -> generic nft_set_pipapo"
fi
tap_end
