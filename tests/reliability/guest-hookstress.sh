#!/bin/bash
# Runs inside an x86_64 lab guest booted with spectre_v2=retpoline and 2
# CPUs, whose kernel has nf_tables and the netfilter tristates as modules
# and br_netfilter (kernel/builder/build --with modules --with brnf):
# make check-debug's part hookstress (tests/reliability/hookstress.sh).
#
# Patch 5 of series v6 makes the netfilter core call nf_tables base chains
# through static calls while nf_tables is loaded on a CPU that needs
# retpolines: nf_tables_core_module_init() calls nf_hook_nft_set(), which
# points the nf_hook_slow static call at nf_hook_slow_nft() and gives the
# entries of nf_tables hooks registered from then on the function
# nf_hook_nft_entry(); rmmod nf_tables calls nf_hook_nft_reset().  Entries
# called through their pointer (nfnetlink_queue's reinjection, the
# bridge's prerouting loop, br_netfilter's br_nf_hook_thresh()) reach
# nf_hook_nft_entry().  Each part stresses one of those transitions or
# paths and checks, with exact packet counts, that no packet was lost or
# counted twice on the way:
#   unload    CYCLES x: modprobe nf_tables, an ip, an inet and a netdev
#             chain count PACKETS pings exactly; then, with a ping flood
#             running through them, the ruleset is deleted and nf_tables
#             removed: the flood must lose nothing
#   nfqueue   a chain queues to nfq-verdict (every 4th packet dropped), a
#             later chain of the same hook counts exactly the reinjected
#             ones, and exactly those are answered
#   bridge    a bridge with br_netfilter: ip prerouting and forward chains
#             and bridge prerouting chains before and after br_netfilter's
#             hook count exactly the pings across it
#   churn     OPS operations on one CPU (base chains of three families
#             added and deleted, devices of a netdev chain added and
#             removed by chain updates and by deleting the devices) while
#             pings cross a persistent chain on the other (with --cpus 1,
#             on the same CPU): not one counter update lost
#   tracing   kprobes on nf_hook_slow, nf_hook_slow_nft and
#             nft_do_chain_ipv4: the shape the series ships, exactly
# Each part writes $NFTLAB_RESULTS/PART.tap (and features.tap: what the
# parts need, a missing feature fails) and its counts go to
# $NFTLAB_RESULTS/hookstress.json; kmemleak's scan (debug kernel) to
# kmemleak.txt.  The host scans the console for the kernel's reports.
#
# Usage: guest-hookstress.sh [--kcsan|--plain] MODROOT NFQ_VERDICT CYCLES PACKETS OPS [PART ...]
#   MODROOT      the kernel directory's modules/ (modprobe -d)
#   NFQ_VERDICT  tests/reliability/nfq-verdict.c, built by the host
#   --kcsan      the KCSAN kernel: /sys/kernel/debug/kcsan is the checker
#                that must be there (else kmemleak and lockdep)
#   --plain      a kernel without debug checkers (check-series' modules
#                item, which runs the unload and nfqueue parts): none
#                must be there
#   --cpus N     the CPUs the guest has, 2 (default) or 1 (check-series'
#                modules kernel has no ACPI, so TCG boots one CPU of it)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# The guest's / is the host's: the checkout is there, read-only.
# shellcheck source=../../lib/tap.sh
. "$here/../../lib/tap.sh"
checkers=(/sys/kernel/debug/kmemleak /proc/lockdep)
cpus=2
while [ $# -gt 0 ]; do
	case "$1" in
	--kcsan) checkers=(/sys/kernel/debug/kcsan); shift ;;
	--plain) checkers=(); shift ;;
	--cpus) cpus=$2; shift 2 ;;
	*) break ;;
	esac
done
[ $# -ge 5 ] || { echo "usage: guest-hookstress.sh [--kcsan|--plain] [--cpus 1|2] MODROOT NFQ_VERDICT CYCLES PACKETS OPS [PART ...]" >&2; exit 2; }
# The senders run on the last CPU, the hooks' other work on CPU 0: on
# one CPU (a kernel without ACPI boots only its first under TCG) both
# share it.
sender=$((cpus - 1))
modroot=$1 nfqv=$2 cycles=$3 packets=$4 ops=$5
shift 5
parts=${*:-unload nfqueue bridge churn tracing}
out=$NFTLAB_RESULTS
tracing=/sys/kernel/tracing
kml=/sys/kernel/debug/kmemleak
work=$(mktemp -d /run/hookstress.XXXXXX)
# Packets each nft chain sees per ping: only echo requests are counted,
# so replies, and anything else a namespace might send, are not.
icmp_req="icmp type echo-request"

# log MESSAGE: a progress line with the time, printed by bash itself: under
# KASAN on TCG every process the loops start costs seconds.
log() { printf '[hookstress] %(%T)T %s\n' -1 "$*" >&2; }
quiet() { "$@" >/dev/null 2>&1; }

# --- modules --------------------------------------------------------------

# loaded MODULE: MODULE is a loaded module.  A test, not a process: under
# KASAN on TCG each process the loops start costs seconds.
loaded() { [ -e "/sys/module/$1/initstate" ]; }

# remove_module MODULE: MODULE and, first, every module that holds it
# (nft_queue, nft_chain_nat, ... hold nf_tables): modprobe -r alone
# refuses a module in use.  Its unused dependencies go with it.
remove_module() {
	local m=$1 h

	loaded "$m" || return 0
	for h in "/sys/module/$m/holders/"*; do
		[ -e "$h" ] || continue
		remove_module "${h##*/}" || return 1
	done
	modprobe -d "$modroot" -r "$m"
}

# --- namespaces -----------------------------------------------------------

# ns_new NAME: a namespace without IPv6 (no router solicitations, no
# MLD): only the tests' pings cross its hooks.  Its lo stays down.  A
# process that sleeps in it, anchor[NAME], lets bash read the namespace's
# /proc/net/snmp without starting a process (echo_replies).
declare -A anchor
ns_new() {
	local i

	ip netns add "$1" &&
		ip netns exec "$1" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
			net.ipv6.conf.default.disable_ipv6=1 || return 1
	ip netns exec "$1" sleep infinity &
	anchor[$1]=$!
	# Until ip netns exec has entered the namespace.
	for ((i = 0; i < 300; i++)); do
		[[ /proc/${anchor[$1]}/ns/net -ef /run/netns/$1 ]] && return 0
		sleep 0.1
	done
	return 1
}

ns_cleanup() {
	local ns

	for ns in $(ip netns list | awk '$1 ~ /^hs-/ { print $1 }'); do
		ip netns pids "$ns" | xargs -r kill
		ip netns del "$ns"
	done
}

mac_of() { ip -n "$1" -o link show dev "$2" | sed -n 's/.*link\/ether \([0-9a-f:]*\).*/\1/p'; }

# veth NS1 DEV1 ADDR1 NS2 DEV2 ADDR2: a veth pair between two namespaces,
# /24 addresses, up, each end with a permanent neighbour entry for the
# other: no ARP crosses the measured hooks.
veth() {
	local n1=$1 d1=$2 a1=$3 n2=$4 d2=$5 a2=$6

	ip -n "$n1" link add "$d1" type veth peer name "$d2" netns "$n2" &&
		ip -n "$n1" addr add "$a1/24" dev "$d1" &&
		ip -n "$n2" addr add "$a2/24" dev "$d2" &&
		ip -n "$n1" link set "$d1" up &&
		ip -n "$n2" link set "$d2" up &&
		neigh "$n1" "$d1" "$a2" "$(mac_of "$n2" "$d2")" &&
		neigh "$n2" "$d2" "$a1" "$(mac_of "$n1" "$d1")"
}

neigh() { ip -n "$1" neigh replace "$3" lladdr "$4" dev "$2" nud permanent; }

# rps NS DEV MASK: packets received on DEV are processed on the CPUs of
# MASK (the backlog of another CPU than the sender's): the hooks run on
# one CPU while the sender runs on the other.
rps() { ip netns exec "$1" sh -c "echo $3 > /sys/class/net/$2/queues/rx-0/rps_cpus"; }

# rps2 NS DEV MASK NS DEV MASK: both ends of a pair.
rps2() { rps "$1" "$2" "$3" && rps "$4" "$5" "$6"; }

nft_in() {
	local ns=$1

	shift
	ip netns exec "$ns" nft "$@"
}

# counters NS: ctr["FAMILY TABLE NAME"] = the packets of each named
# counter of NS, read by one nft and parsed by bash.
declare -A ctr
counters() {
	local line tbl="" name=""

	ctr=()
	while IFS= read -r line; do
		if [[ $line =~ ^table\ ([a-z]+)\ ([^ ]+)\ \{ ]]; then
			tbl="${BASH_REMATCH[1]} ${BASH_REMATCH[2]}"
		elif [[ $line =~ ^[[:space:]]*counter\ ([^ ]+)\ \{ ]]; then
			name=${BASH_REMATCH[1]}
		elif [[ $line =~ ^[[:space:]]*packets\ ([0-9]+) ]] && [ -n "$name" ]; then
			ctr["$tbl $name"]=${BASH_REMATCH[1]}
			name=""
		fi
	done < <(nft_in "$1" list counters 2>/dev/null)
}

# counter NS FAMILY TABLE NAME: the packets of a named counter, or -1.
counter() {
	counters "$1"
	echo "${ctr["$2 $3 $4"]:--1}"
}

# --- traffic --------------------------------------------------------------

# echo_replies NS: replies= the echo replies NS's ICMP has received (the
# InEchoReps column of /proc/net/snmp's Icmp lines), -1 if none is
# there.  A variable, not output: a $(...) is a fork, seconds under KASAN.
echo_replies() {
	local line i
	local -a names=() values=()

	while IFS= read -r line; do
		[[ $line == Icmp:* ]] || continue
		if [ ${#names[@]} -eq 0 ]; then
			read -ra names <<<"$line"
		else
			read -ra values <<<"$line"
		fi
	done < "/proc/${anchor[$1]}/net/snmp"
	replies=-1
	for i in "${!names[@]}"; do
		[ "${names[$i]}" = InEchoReps ] && replies=${values[$i]:--1}
	done
}

# pings NS CPU DEST COUNT INTERVAL [REPLIES]: "SENT ANSWERED LATE" of a
# ping that runs on CPU.  SENT is ping's count of requests; ANSWERED the
# replies that reached NS, by its ICMP counters, waiting up to 10 s after
# ping for REPLIES of them (default COUNT); LATE those of them ping did
# not see.  After its last request, a ping that has had replies waits
# only twice the longest round trip so far (iputils' schedule_exit()),
# not -W: under KASAN on TCG on a loaded host a last reply can come later
# than that (hookstress-7.3-debug-20261206T192251Z, cycle 24).  "0 0 0"
# if ping printed no statistics.
pings() {
	local r before sent seen want=${6:-$4} i replies

	echo_replies "$1"
	before=$replies
	r=$(taskset -c "$2" ip netns exec "$1" ping -q -n -c "$4" -i "$5" -W 2 "$3" 2>&1)
	if [[ ! $r =~ (^|$'\n')([0-9]+)\ packets\ transmitted,\ ([0-9]+)\ received ]]; then
		echo "0 0 0"
		return
	fi
	sent=${BASH_REMATCH[2]} seen=${BASH_REMATCH[3]}
	for ((i = 0; i < 100; i++)); do
		echo_replies "$1"
		[ $((replies - before)) -ge "$want" ] && break
		sleep 0.1
	done
	echo "$sent $((replies - before)) $((replies - before - seen))"
}

# flood_start NS CPU DEST FILE: batches of pings until FILE.stop exists,
# each batch's "SENT ANSWERED LATE" appended to FILE.  A stream of exact
# batches instead of one long ping: the totals stay exact whenever it is
# stopped.  flood_wait FILE N: until N batches are done.
flood_start() {
	local ns=$1 cpu=$2 dest=$3 file=$4

	rm -f "$file" "$file.stop"
	: > "$file"
	(
		while [ ! -e "$file.stop" ]; do
			pings "$ns" "$cpu" "$dest" 50 0.005 >> "$file"
		done
	) &
	flood_pid=$!
}

flood_wait() {
	local i lines

	for ((i = 0; i < 600; i++)); do
		mapfile -t lines < "$1"
		[ "${#lines[@]}" -ge "$2" ] && return 0
		sleep 0.1
	done
	return 1
}

# flood_stop FILE: flood_res="SENT ANSWERED BATCHES LATE" of the whole flood,
# once its last batch is over.  In this shell, not in a $(...): only the
# shell that started the flood can wait for it.
flood_stop() {
	local s=0 r=0 n=0 l=0 bs br bl

	: > "$1.stop"
	wait "$flood_pid"
	while read -r bs br bl; do
		s=$((s + bs)) r=$((r + br)) n=$((n + 1)) l=$((l + bl))
	done < "$1"
	flood_res="$s $r $n $l"
}

# --- failures that a part counts over many rounds -------------------------

# A part that repeats a check many times reports it once, with the
# number of rounds that failed it and the first failure's details.
declare -A bad first
note() {
	bad[$1]=$((${bad[$1]:-0} + 1))
	[ -n "${first[$1]:-}" ] || first[$1]=$2
}

# verdict KEY DESCRIPTION: the TAP line of a repeated check.
verdict() {
	[ -z "${first[$1]:-}" ] || tap_diag "$1: ${bad[$1]} failures, the first: ${first[$1]}"
	tap_check "$2" test "${bad[$1]:-0}" -eq 0
}

# json PART TEXT: the counts of PART, an object's members.
json() { printf '"%s":{%s}\n' "$1" "$2" > "$work/$1.json"; }

# late_diag N: a diagnostic when N replies came after ping stopped
# waiting (pings): answered, so not a failure, but worth seeing.
late_diag() {
	[ "$1" -eq 0 ] || tap_diag "$1 replies reached the sender after ping stopped waiting for them (counted by its namespace's ICMP)"
}

# --- features -------------------------------------------------------------

# shellcheck disable=SC2317 # called through tap_check
nft_is_module() {
	! loaded nf_tables && grep -q '/nf_tables\.ko' "$modroot/lib/modules/$(uname -r)/modules.dep"
}

part_features() {
	local f online

	tap_diag "spectre_v2: $(cat /sys/devices/system/cpu/vulnerabilities/spectre_v2 2>/dev/null)"
	# Without retpolines nf_tables never installs its static call, and
	# every check below would pass against the old indirect calls.
	tap_check "the guest runs retpolines (spectre_v2 says Retpolines)" grep -q Retpolines \
		/sys/devices/system/cpu/vulnerabilities/spectre_v2
	online=$(getconf _NPROCESSORS_ONLN)
	tap_check "$cpus CPU(s) online, as asked (on 2, the parts run the sender and the hooks on different ones): $online" \
		test "$online" -eq "$cpus"
	[ -d "$tracing/events" ] || mount -t tracefs nodev "$tracing"
	# only the tracing part places kprobes (a kernel without them runs
	# the others: check-series' modules item)
	[[ " $parts " != *" tracing "* ]] ||
		tap_check "kprobe events are available ($tracing/kprobe_events)" test -w "$tracing/kprobe_events"
	tap_check "the modules of this kernel are in $modroot" \
		test -s "$modroot/lib/modules/$(uname -r)/modules.dep"
	tap_check "nf_tables is a module of the build, not loaded yet" nft_is_module
	tap_check "nfq-verdict is built ($nfqv)" test -x "$nfqv"
	for f in "${checkers[@]}"; do
		tap_check "debug kernel: $f exists" test -e "$f"
	done
}

# --- unload ---------------------------------------------------------------

unload_ruleset() {
	nft_in hs-ub -f - <<-EOF
	table ip hs {
		counter pre { }
		chain pre {
			type filter hook prerouting priority 0;
			ip saddr 10.71.0.1 $icmp_req counter name pre
		}
	}
	table inet hs {
		counter input { }
		chain input {
			type filter hook input priority 0;
			ip saddr 10.71.0.1 $icmp_req counter name input
		}
	}
	table netdev hs {
		counter ingress { }
		chain ingress {
			type filter hook ingress device "ub0" priority 0;
			ip saddr 10.71.0.1 $icmp_req counter name ingress
		}
	}
	EOF
}

part_unload() {
	local i c sent rcvd late f fsent=0 frcvd=0 fbatches=0 counted=0 rc late_all=0

	ns_new hs-ua && ns_new hs-ub && veth hs-ua ua0 10.71.0.1 hs-ub ub0 10.71.0.2
	tap_check "namespaces hs-ua and hs-ub, a veth pair between them" test $? -eq 0
	# On 2 CPUs the sender pings from CPU 1; hs-ub's side of the pair is
	# processed on CPU 0, and hs-ua's (the replies) on CPU 1.
	if [ "$cpus" -eq 2 ]; then
		tap_check "RPS: hs-ub receives on CPU 0, hs-ua on CPU 1" rps2 hs-ub ub0 1 hs-ua ua0 2
	else
		tap_diag "one CPU: the hooks run on the sender's CPU (no RPS)"
	fi
	for ((i = 1; i <= cycles; i++)); do
		# Progress on the console: lab-run kills a guest silent for 15 min.
		log "unload: cycle $i of $cycles"
		if ! modprobe -d "$modroot" nf_tables; then
			note modprobe "cycle $i: modprobe nf_tables failed"
			continue
		fi
		log "unload: cycle $i: nf_tables loaded"
		rc=$(unload_ruleset 2>&1) || note ruleset "cycle $i: nft: $rc"
		read -r sent rcvd late < <(pings hs-ua "$sender" 10.71.0.2 "$packets" 0.01)
		if [ "$sent" -ne "$packets" ] || [ "$rcvd" -ne "$packets" ]; then
			note pings "cycle $i: $rcvd of $sent pings answered, $packets asked for"
		fi
		late_all=$((late_all + late))
		counters hs-ub
		for c in "ip hs pre" "inet hs input" "netdev hs ingress"; do
			f=${ctr[$c]:--1}
			[ "$f" -eq "$sent" ] || note counters "cycle $i: counter $c: $f packets, $sent sent"
		done
		counted=$((counted + sent))
		# The removal under traffic: the flood starts first and ends after.
		flood_start hs-ua "$sender" 10.71.0.2 "$work/flood"
		log "unload: cycle $i: counted, flood started"
		flood_wait "$work/flood" 1 || note flood "cycle $i: the flood sent no batch in 60 s"
		nft_in hs-ub flush ruleset || note ruleset "cycle $i: nft flush ruleset failed"
		rc=$(remove_module nf_tables 2>&1) || note rmmod "cycle $i: modprobe -r: $rc"
		loaded nf_tables && note rmmod "cycle $i: nf_tables still loaded after modprobe -r"
		log "unload: cycle $i: removed, stopping the flood"
		flood_stop "$work/flood"
		read -r sent rcvd f late <<<"$flood_res"
		if [ "$sent" -eq 0 ] || [ "$sent" -ne "$rcvd" ]; then
			note flood "cycle $i: the flood across the removal: $rcvd of $sent answered"
		fi
		late_all=$((late_all + late))
		fsent=$((fsent + sent)) frcvd=$((frcvd + rcvd)) fbatches=$((fbatches + f))
	done
	tap_diag "$cycles cycles: $counted counted pings, flood across the removals: $frcvd of $fsent answered ($fbatches batches)"
	late_diag "$late_all"
	verdict modprobe "unload: modprobe nf_tables succeeded in each of $cycles cycles"
	verdict ruleset "unload: the ruleset loaded and was deleted in every cycle"
	verdict pings "unload: every counted ping answered ($packets per cycle)"
	verdict counters "unload: the ip, inet and netdev counters equal the pings sent, every cycle"
	verdict rmmod "unload: modprobe -r removed nf_tables and its holders every cycle"
	verdict flood "unload: the ping flood running across each removal lost nothing"
	json unload "\"cycles\":$cycles,\"packets\":$counted,\"flood_packets\":$fsent,\"flood_answered\":$frcvd,\"late\":$late_all"
}

# --- nfqueue --------------------------------------------------------------

part_nfqueue() {
	local q=7 every=4 i sent rcvd late res queued accepted dropped pid want_acc want_drop qc ac

	ns_new hs-qa && ns_new hs-qb && veth hs-qa qa0 10.72.0.1 hs-qb qb0 10.72.0.2
	tap_check "namespaces hs-qa and hs-qb, a veth pair between them" test $? -eq 0
	tap_check "modprobe nf_tables nft_queue nfnetlink_queue" \
		modprobe -d "$modroot" -a nf_tables nft_queue nfnetlink_queue
	# The chain at priority 10 is reached after the verdict by
	# nf_reinject(), which calls its entry through the pointer, i.e.
	# nf_hook_nft_entry() and the static call.
	tap_check "a queueing chain at prerouting 0 and a counting one at 10" nft_in hs-qb -f - <<-EOF
	table ip hsq {
		counter queued { }
		counter after { }
		chain pre0 {
			type filter hook prerouting priority 0;
			ip saddr 10.72.0.1 $icmp_req counter name queued queue num $q
		}
		chain pre10 {
			type filter hook prerouting priority 10;
			ip saddr 10.72.0.1 $icmp_req counter name after
		}
	}
	EOF
	# The verdicts are given on CPU 0, the pings sent on CPU 1.
	taskset -c 0 ip netns exec hs-qb "$nfqv" --queue "$q" --count "$packets" --drop-every "$every" \
		--timeout 120 > "$work/nfq.json" 2> "$work/nfq.err" &
	pid=$!
	for ((i = 0; i < 300; i++)); do
		grep -q bound "$work/nfq.err" && break
		sleep 0.1
	done
	tap_check "nfq-verdict bound queue $q" grep -q bound "$work/nfq.err"
	want_drop=$((packets / every)) want_acc=$((packets - packets / every))
	read -r sent rcvd late < <(pings hs-qa "$sender" 10.72.0.2 "$packets" 0.02 "$want_acc")
	wait "$pid"
	tap_check "nfq-verdict got $packets packets and exited 0" test $? -eq 0
	res=$(cat "$work/nfq.json")
	tap_diag "nfq-verdict: $res $(grep -v bound "$work/nfq.err")"
	queued=$(sed -n 's/.*"queued":\([0-9]*\).*/\1/p' <<<"$res")
	accepted=$(sed -n 's/.*"accepted":\([0-9]*\).*/\1/p' <<<"$res")
	dropped=$(sed -n 's/.*"dropped":\([0-9]*\).*/\1/p' <<<"$res")
	qc=$(counter hs-qb ip hsq queued) ac=$(counter hs-qb ip hsq after)
	tap_diag "pings: $sent sent, $rcvd answered; chain counters: queued $qc, after reinjection $ac"
	late_diag "$late"
	tap_check "nfq-verdict: $packets queued, $want_acc accepted, $want_drop dropped" \
		test "${queued:--1}" -eq "$packets" -a "${accepted:--1}" -eq "$want_acc" -a "${dropped:--1}" -eq "$want_drop"
	tap_check "the queueing chain counted the $packets pings" test "$qc" -eq "$packets" -a "$sent" -eq "$packets"
	tap_check "the chain after the queue counted exactly the $want_acc reinjected packets" \
		test "$ac" -eq "$want_acc"
	tap_check "exactly the $want_acc accepted pings were answered (the dropped ones never arrived)" \
		test "$rcvd" -eq "$want_acc"
	json nfqueue "\"packets\":$sent,\"queued\":${queued:-0},\"reinjected\":$ac,\"dropped\":${dropped:-0},\"answered\":$rcvd,\"late\":$late"
}

# --- bridge ---------------------------------------------------------------

part_bridge() {
	local sent rcvd late c n all=0

	tap_check "modprobe nf_tables br_netfilter" modprobe -d "$modroot" -a nf_tables br_netfilter
	# br_netfilter registers its hooks in a namespace when a bridge is
	# created there: it is loaded first.
	ns_new hs-bl && ns_new hs-br && ns_new hs-bx &&
		ip -n hs-br link add br0 type bridge &&
		ip -n hs-bl link add bl0 type veth peer name blp netns hs-br &&
		ip -n hs-bx link add bx0 type veth peer name bxp netns hs-br &&
		ip -n hs-br link set blp master br0 && ip -n hs-br link set bxp master br0 &&
		ip -n hs-bl addr add 10.73.0.1/24 dev bl0 && ip -n hs-bx addr add 10.73.0.2/24 dev bx0 &&
		ip -n hs-br link set br0 up && ip -n hs-br link set blp up && ip -n hs-br link set bxp up &&
		ip -n hs-bl link set bl0 up && ip -n hs-bx link set bx0 up &&
		neigh hs-bl bl0 10.73.0.2 "$(mac_of hs-bx bx0)" && neigh hs-bx bx0 10.73.0.1 "$(mac_of hs-bl bl0)"
	tap_check "a bridge in hs-br with veth ports to hs-bl and hs-bx" test $? -eq 0
	tap_check "bridged IPv4 runs the ip hooks in hs-br (net.bridge.bridge-nf-call-iptables=1)" \
		ip netns exec hs-br sysctl -qw net.bridge.bridge-nf-call-iptables=1
	# The bridge chain at -100 runs in nf_hook_bridge_pre()'s loop (the
	# entry's pointer: nf_hook_nft_entry()), the one at 100 after
	# br_netfilter's hook, from br_nf_hook_thresh() (nf_hook_run()); the
	# ip chains from br_netfilter's NF_HOOK()s.
	# (No chain or counter named "fwd": nft parses it as its statement.)
	tap_check "ip prerouting and forward chains, bridge prerouting chains at -100 and 100" \
		nft_in hs-br -f - <<-EOF
	table ip hsb {
		counter pre { }
		counter forwarded { }
		chain pre {
			type filter hook prerouting priority 0;
			ip saddr 10.73.0.1 $icmp_req counter name pre
		}
		chain forwarded {
			type filter hook forward priority 0;
			ip saddr 10.73.0.1 $icmp_req counter name forwarded
		}
	}
	table bridge hsb {
		counter early { }
		counter late { }
		chain early {
			type filter hook prerouting priority -100;
			ip saddr 10.73.0.1 $icmp_req counter name early
		}
		chain late {
			type filter hook prerouting priority 100;
			ip saddr 10.73.0.1 $icmp_req counter name late
		}
	}
	EOF
	read -r sent rcvd late < <(pings hs-bl "$sender" 10.73.0.2 "$packets" 0.02)
	late_diag "$late"
	tap_check "$packets pings across the bridge, all answered ($rcvd of $sent)" \
		test "$sent" -eq "$packets" -a "$rcvd" -eq "$packets"
	counters hs-br
	for c in "ip hsb pre" "ip hsb forwarded" "bridge hsb early" "bridge hsb late"; do
		n=${ctr[$c]:--1}
		tap_check "counter $c: $n packets, $sent sent" test "$n" -eq "$sent"
		all=$((all + n))
	done
	json bridge "\"packets\":$sent,\"answered\":$rcvd,\"late\":$late,\"chain_packets\":$all"
}

# --- churn ----------------------------------------------------------------

# churn_op CMD...: one operation of the churn; a failure is noted.
churn_op() {
	local err

	done_ops=$((done_ops + 1))
	err=$("$@" 2>&1) || echo "op $done_ops: $*: $err" >> "$work/churn.err"
}

# churn_loop OPS: on the CPU it is pinned to, base chains of the ip, inet
# and netdev families on the path's hooks added and deleted, and devices of
# a netdev chain on the path's device added and removed, by chain updates
# and by deleting the devices, until OPS operations ran.
churn_loop() {
	local n=$1 r=0 a b

	done_ops=0
	while [ "$done_ops" -lt "$n" ]; do
		a=hsd$((2 * r)) b=hsd$((2 * r + 1))
		churn_op ip -n hs-cb link add "$a" type dummy
		churn_op ip -n hs-cb link add "$b" type dummy
		churn_op nft_in hs-cb add chain ip churn pre "{ type filter hook prerouting priority $((r % 5 - 2)); }"
		churn_op nft_in hs-cb add chain inet churn pre "{ type filter hook prerouting priority $((r % 3 + 1)); }"
		churn_op nft_in hs-cb add chain netdev churn ing \
			"{ type filter hook ingress devices = { cb0, $a, $b } priority 5; }"
		churn_op nft_in hs-cb delete chain netdev churn ing \
			"{ type filter hook ingress devices = { $a } priority 5; }"
		# b leaves the chain with the device: the notifier's path.
		churn_op ip -n hs-cb link del "$b"
		churn_op nft_in hs-cb delete chain ip churn pre
		churn_op nft_in hs-cb delete chain inet churn pre
		churn_op ip -n hs-cb link del "$a"
		# Every other round the netdev chain goes, the next one creates it.
		[ $((r % 2)) -eq 1 ] && churn_op nft_in hs-cb delete chain netdev churn ing
		r=$((r + 1))
		# Every round (10 or 11 operations, about 80 s on the KASAN kernel
		# under TCG): lab-run kills a guest silent for 15 minutes, and
		# every 5 rounds was more than that beside a kernel build.
		log "churn: $done_ops of $n operations"
	done
	echo "$done_ops" > "$work/churn.ops"
}

part_churn() {
	local pid sent rcvd batches late ip_n nd_n nops

	tap_check "modprobe nf_tables" modprobe -d "$modroot" nf_tables
	ns_new hs-ca && ns_new hs-cb && veth hs-ca ca0 10.74.0.1 hs-cb cb0 10.74.0.2
	tap_check "namespaces hs-ca and hs-cb, a veth pair between them" test $? -eq 0
	# Pings sent and received on CPU 1, the churn on CPU 0; on one CPU
	# they interleave there.
	if [ "$cpus" -eq 2 ]; then
		tap_check "RPS: both ends receive on CPU 1" rps2 hs-cb cb0 2 hs-ca ca0 2
	else
		tap_diag "one CPU: the churn and the pings share it (no RPS)"
	fi
	tap_check "persistent ip prerouting and netdev ingress chains, empty churn tables" \
		nft_in hs-cb -f - <<-EOF
	table ip keep {
		counter pre { }
		chain pre {
			type filter hook prerouting priority 0;
			ip saddr 10.74.0.1 $icmp_req counter name pre
		}
	}
	table netdev keep {
		counter ingress { }
		chain ingress {
			type filter hook ingress device "cb0" priority 0;
			ip saddr 10.74.0.1 $icmp_req counter name ingress
		}
	}
	table ip churn { }
	table inet churn { }
	table netdev churn { }
	EOF
	: > "$work/churn.err"
	flood_start hs-ca "$sender" 10.74.0.2 "$work/churnflood"
	flood_wait "$work/churnflood" 1
	(taskset -cp 0 "$BASHPID" >/dev/null && churn_loop "$ops") &
	pid=$!
	wait "$pid"
	flood_stop "$work/churnflood"
	read -r sent rcvd batches late <<<"$flood_res"
	nops=$(cat "$work/churn.ops" 2>/dev/null || echo 0)
	ip_n=$(counter hs-cb ip keep pre) nd_n=$(counter hs-cb netdev keep ingress)
	tap_diag "churn: $nops operations on CPU 0; pings on CPU $sender: $rcvd of $sent answered ($batches batches);" \
		"persistent counters: ip $ip_n, netdev $nd_n"
	late_diag "$late"
	head -n 5 "$work/churn.err" | tap_diag_lines "failed: "
	tap_check "churn: $nops operations ran (at least $ops asked), none failed" \
		test "$nops" -ge "$ops" -a ! -s "$work/churn.err"
	tap_check "churn: every ping answered" test "$sent" -gt 0 -a "$rcvd" -eq "$sent"
	tap_check "churn: the persistent ip chain counted every ping ($ip_n of $sent)" test "$ip_n" -eq "$sent"
	tap_check "churn: the persistent netdev chain counted every ping ($nd_n of $sent)" test "$nd_n" -eq "$sent"
	json churn "\"operations\":$nops,\"packets\":$sent,\"answered\":$rcvd,\"late\":$late"
}

# --- tracing --------------------------------------------------------------

probe_add() { echo "p:$1 $2" >> "$tracing/kprobe_events" && echo 1 > "$tracing/events/kprobes/$1/enable"; }

probe_del() {
	[ -e "$tracing/events/kprobes/$1" ] || return 0
	echo 0 > "$tracing/events/kprobes/$1/enable"
	echo "-:$1" >> "$tracing/kprobe_events"
}

# hits EVENT: its hits so far (kprobe_profile: EVENT HITS MISSES), or -1.
hits() {
	local n

	n=$(awk -v e="$1" '$1 == e { print $2 }' "$tracing/kprobe_profile")
	echo "${n:--1}"
}

# snap: the hits of the three probes, "SLOW NFT CHAIN".
snap() { echo "$(hits hs_slow) $(hits hs_nft) $(hits hs_chain)"; }

part_tracing() {
	local s0 n0 c0 s1 n1 c1 sent rcvd late cnt slow nft chain slow2 nft2 sent2 rcvd2 late2

	[ -d "$tracing/events" ] || mount -t tracefs nodev "$tracing"
	# A fresh load: the static call is installed by this very init.
	remove_module nf_tables
	tap_check "modprobe nf_tables" modprobe -d "$modroot" nf_tables
	tap_check "kprobe on nf_hook_slow placed and enabled" probe_add hs_slow nf_hook_slow
	tap_check "kprobe on nf_hook_slow_nft placed and enabled" probe_add hs_nft nf_hook_slow_nft
	tap_check "kprobe on nft_do_chain_ipv4 placed and enabled" probe_add hs_chain nft_do_chain_ipv4
	ns_new hs-ta && ns_new hs-tb && veth hs-ta ta0 10.75.0.1 hs-tb tb0 10.75.0.2
	tap_check "namespaces hs-ta and hs-tb, a veth pair between them" test $? -eq 0
	# The only hook with an entry in the guest: hs-tb's ip prerouting, a
	# chain that counts every packet.  Replies leave hs-tb through output
	# and postrouting, which have none, and hs-ta has no hook at all.
	tap_check "one ip prerouting chain counting every packet in hs-tb" nft_in hs-tb -f - <<-EOF
	table ip hst {
		counter seen { }
		chain pre {
			type filter hook prerouting priority 0;
			counter name seen
		}
	}
	EOF
	read -r s0 n0 c0 < <(snap)
	read -r sent rcvd late < <(pings hs-ta "$sender" 10.75.0.2 "$packets" 0.02)
	late_diag "$late"
	read -r s1 n1 c1 < <(snap)
	cnt=$(counter hs-tb ip hst seen)
	slow=$((s1 - s0)) nft=$((n1 - n0)) chain=$((c1 - c0))
	tap_diag "nf_tables loaded: $sent pings ($rcvd answered), chain counter $cnt;" \
		"kprobe hits: nf_hook_slow $slow, nf_hook_slow_nft $nft, nft_do_chain_ipv4 $chain"
	tap_check "the chain counted the $packets pings, all answered" \
		test "$cnt" -eq "$packets" -a "$sent" -eq "$packets" -a "$rcvd" -eq "$packets"
	tap_check "nft_do_chain_ipv4 hits ($chain) == the chain's counter ($cnt)" test "$chain" -eq "$cnt"
	tap_check "nf_hook_slow_nft hits ($nft) == the packets through the hook ($cnt)" test "$nft" -eq "$cnt"
	# A probe that is not there reads -1 before and after: 0 hits.
	tap_check "nf_hook_slow hits == 0 while nf_tables is loaded ($slow)" test "$s0" -ge 0 -a "$slow" -eq 0

	# Without nf_tables: the static call is back on nf_hook_slow().  A
	# bridge device in hs-tb makes br_netfilter register its hooks there,
	# among them one at IPv4 prerouting (ip_sabotage_in()): each ping
	# crosses that hook once, through nf_hook_slow(), and no other hook
	# with an entry.
	probe_del hs_chain
	nft_in hs-tb flush ruleset
	tap_check "modprobe -r nf_tables" remove_module nf_tables
	tap_check "modprobe br_netfilter, a bridge device in hs-tb" sh -c \
		"modprobe -d '$modroot' br_netfilter && ip -n hs-tb link add hs-tbr type bridge"
	read -r s0 n0 c0 < <(snap)
	read -r sent2 rcvd2 late2 < <(pings hs-ta "$sender" 10.75.0.2 "$packets" 0.02)
	late_diag "$late2"
	read -r s1 n1 c1 < <(snap)
	slow2=$((s1 - s0)) nft2=$((n1 - n0))
	tap_diag "nf_tables removed, br_netfilter's hook: $sent2 pings ($rcvd2 answered);" \
		"kprobe hits: nf_hook_slow $slow2, nf_hook_slow_nft $nft2"
	tap_check "the $packets pings answered" test "$sent2" -eq "$packets" -a "$rcvd2" -eq "$packets"
	tap_check "nf_hook_slow hits ($slow2) == the pings through br_netfilter's hook ($sent2)" \
		test "$slow2" -eq "$sent2"
	tap_check "nf_hook_slow_nft hits == 0 after modprobe -r nf_tables ($nft2)" test "$n0" -ge 0 -a "$nft2" -eq 0
	probe_del hs_slow
	probe_del hs_nft
	json tracing "\"packets\":$sent,\"nft_do_chain_ipv4\":$chain,\"nf_hook_slow_nft\":$nft,\"nf_hook_slow\":$slow,\"after_rmmod\":{\"packets\":$sent2,\"nf_hook_slow\":$slow2,\"nf_hook_slow_nft\":$nft2},\"late\":$((late + late2))"
}

# --- main -----------------------------------------------------------------

# The kernel's own module requests (nft-chain-*, nft-expr-*, the
# nfnetlink subsystems) go to this build's modules, as in guest-modules.sh.
helper=/run/nftlab-modprobe
printf '#!/bin/sh\nexec %q -d %q "$@"\n' "$(command -v modprobe)" "$modroot" > "$helper"
chmod +x "$helper"
echo "$helper" > /proc/sys/kernel/modprobe
# Objects the boot left unreferenced are not the test's leaks.
[ -e "$kml" ] && echo clear > "$kml"
trap 'ns_cleanup; rm -rf "$work"' EXIT

# Each part a report of its own, numbered from 1: a subshell.
for part in features $parts; do
	log "$part: start"
	start=$SECONDS
	(
		tap_tee "$out/$part.tap"
		case "$part" in
		features | unload | nfqueue | bridge | churn | tracing) "part_$part" ;;
		*) tap_check "unknown part $part" false ;;
		esac
		ns_cleanup
		tap_end
	)
	log "$part: exit $? after $((SECONDS - start))s"
done
json_parts=()
for part in $parts; do
	[ -s "$work/$part.json" ] && json_parts+=("$(cat "$work/$part.json")")
done
members=""
[ ${#json_parts[@]} -eq 0 ] || members=$(printf ',%s' "${json_parts[@]}")
printf '{"cycles_asked":%d,"packets_asked":%d,"ops_asked":%d%s}\n' "$cycles" "$packets" "$ops" \
	"$members" > "$out/hookstress.json"

if [ -e "$kml" ]; then
	# kmemleak reports objects unreferenced for 5 s or more; two scans,
	# as Documentation/dev-tools/kmemleak.rst advises, after the deferred
	# frees (RCU, the nf_tables destroy work) have run.
	sleep 6
	echo scan > "$kml"
	sleep 1
	echo scan > "$kml"
	cat "$kml" > "$out/kmemleak.txt"
fi
log "done"
