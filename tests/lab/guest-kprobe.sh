#!/bin/bash
# Runs inside an x86_64 lab guest built --with kprobes, booted with
# spectre_v2=retpoline: a kprobe on nft_do_chain_ipv4() must fire once for
# every packet an ip filter chain counts.  With series v6's patch 5 on 7.3,
# base chains are entered through the netfilter core's static call and
# nft_do_chain_hook(), which calls the family's chain function directly;
# tracing tools (kprobes, fentry, BPF) attach to that function, so it must
# stay a real call.  The hook loop is what the patch moves: while
# nf_tables is installed, packets run nf_hook_slow_nft(), and a probe on
# nf_hook_slow() sees none of them, as the patch's message says.  Both
# are pinned down here, so that a change of that shape shows.
# TAP on stdout and in $NFTLAB_RESULTS/kprobe.tap.
set -uo pipefail
# shellcheck source=../../lib/tap.sh
. "$(dirname "$0")/../../lib/tap.sh"
tap_tee "$NFTLAB_RESULTS/kprobe.tap"
quiet() { "$@" >/dev/null 2>&1; }
packets=20
tracing=/sys/kernel/tracing

mode=$(cat /sys/devices/system/cpu/vulnerabilities/spectre_v2 2>/dev/null)
tap_diag "spectre_v2: ${mode:-unknown}"
# Without retpolines nf_tables never installs the static call: the probe
# would fire through the old indirect call and prove nothing.
tap_check "the guest runs retpolines (spectre_v2=retpoline)" grep -q Retpolines \
	/sys/devices/system/cpu/vulnerabilities/spectre_v2

[ -d "$tracing/events" ] || mount -t tracefs nodev "$tracing"
# event name -> probed function
declare -A probes=([nftlab_chain]=nft_do_chain_ipv4 [nftlab_slow]=nf_hook_slow
	[nftlab_slow_nft]=nf_hook_slow_nft)
for ev in "${!probes[@]}"; do
	tap_check "kprobe event on ${probes[$ev]} is accepted" \
		sh -c "echo 'p:$ev ${probes[$ev]}' >> $tracing/kprobe_events"
	tap_check "the kprobe event on ${probes[$ev]} is enabled" \
		sh -c "echo 1 > $tracing/events/kprobes/$ev/enable"
done

ip netns add kp-peer
# shellcheck disable=SC2317 # called through trap
cleanup() {
	for ev in "${!probes[@]}"; do
		echo 0 > "$tracing/events/kprobes/$ev/enable"
		echo "-:$ev" >> "$tracing/kprobe_events"
	done 2>/dev/null
	ip netns del kp-peer 2>/dev/null
	ip link del kp0 2>/dev/null
}
trap cleanup EXIT
ip link add kp0 type veth peer name kp1 netns kp-peer
ip addr add 192.0.2.1/24 dev kp0
ip link set kp0 up
ip -n kp-peer addr add 192.0.2.2/24 dev kp1
ip -n kp-peer link set kp1 up

tap_check "nft loads an ip filter chain at prerouting in the peer namespace" quiet \
	ip netns exec kp-peer nft -f - <<'NFT'
table ip kp {
	counter seen { }
	chain pre {
		type filter hook prerouting priority 0;
		counter name seen
	}
}
NFT
# kprobe_profile: "EVENT HITS MISSES"; hits before and after the pings, so
# that anything else the probes saw at setup is not counted.
hits() { awk -v ev="$1" '$1 == ev { print $2 }' "$tracing/kprobe_profile"; }
declare -A before
for ev in "${!probes[@]}"; do before[$ev]=$(hits "$ev"); done
tap_check "$packets pings cross the veth pair" quiet ping -c "$packets" -i 0.05 -W 2 192.0.2.2
declare -A probed
for ev in "${!probes[@]}"; do
	after=$(hits "$ev")
	probed[$ev]=$(( ${after:-0} - ${before[$ev]:-0} ))
done
counted=$(ip netns exec kp-peer nft list counter ip kp seen | sed -n 's/.*packets \([0-9]*\).*/\1/p')
tap_diag "chain counter: ${counted:-none} packets; kprobe hits: nft_do_chain_ipv4 ${probed[nftlab_chain]}," \
	"nf_hook_slow_nft ${probed[nftlab_slow_nft]}, nf_hook_slow ${probed[nftlab_slow]}"
tap_check "the chain counted at least the $packets echo requests" test "${counted:-0}" -ge "$packets"
tap_check "the kprobe on nft_do_chain_ipv4 fired once per packet the chain counted" \
	test "${probed[nftlab_chain]}" -eq "${counted:--1}"
# The peer's prerouting chain is the only hook entry of the guest: every
# packet that runs a hook loop is one the chain counted.
tap_check "the kprobe on nf_hook_slow_nft fired once per packet the chain counted" \
	test "${probed[nftlab_slow_nft]}" -eq "${counted:--1}"
tap_check "the kprobe on nf_hook_slow saw no packet while nf_tables is installed" \
	test "${probed[nftlab_slow]}" -eq 0
tap_end
