#!/bin/bash
# Runs inside an x86_64 lab guest built --with kprobes, booted with
# spectre_v2=retpoline: a kprobe on nft_do_chain_ipv4() must fire once for
# every packet an ip filter chain counts.  With series v5 on 7.3, base
# chains are entered through the netfilter core's static call and
# nft_do_chain_hook(), which calls the family's chain function directly;
# tracing tools (kprobes, fentry, BPF) attach to that function, so it must
# stay a real call.  TAP on stdout and in $NFTLAB_RESULTS/kprobe.tap.
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
tap_check "kprobe event on nft_do_chain_ipv4 is accepted" \
	sh -c "echo 'p:nftlab_chain nft_do_chain_ipv4' >> $tracing/kprobe_events"
tap_check "the kprobe event is enabled" sh -c "echo 1 > $tracing/events/kprobes/nftlab_chain/enable"

ip netns add kp-peer
trap 'echo 0 > $tracing/events/kprobes/nftlab_chain/enable 2>/dev/null;
	echo "-:nftlab_chain" >> $tracing/kprobe_events 2>/dev/null;
	ip netns del kp-peer 2>/dev/null; ip link del kp0 2>/dev/null' EXIT
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
# that anything else the probe saw at setup is not counted.
hits() { awk '$1 == "nftlab_chain" { print $2 }' "$tracing/kprobe_profile"; }
before=$(hits)
tap_check "$packets pings cross the veth pair" quiet ping -c "$packets" -i 0.05 -W 2 192.0.2.2
after=$(hits)
counted=$(ip netns exec kp-peer nft list counter ip kp seen | sed -n 's/.*packets \([0-9]*\).*/\1/p')
probed=$(( ${after:-0} - ${before:-0} ))
tap_diag "chain counter: ${counted:-none} packets; kprobe on nft_do_chain_ipv4: $probed hits"
tap_check "the chain counted at least the $packets echo requests" test "${counted:-0}" -ge "$packets"
tap_check "the kprobe fired once per packet the chain counted" test "$probed" -eq "${counted:--1}"
tap_end
