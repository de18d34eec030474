#!/bin/bash
# Usage: guest-corpus.sh CORPUS_DIR OUT_DIR [NAME...]
#
# Runs inside a lab guest (the host side is tests/lab/corpus.sh).  For every
# ruleset of the corpus (NAME.nft, or NAME.gen: an executable printing the
# ruleset, loaded through /dev/stdin), in namespaces created for it alone:
#   1. builds the topology with every link down (no packet may move before
#      the listing is taken, so that counters and dynamic sets list as
#      loaded), loads the file with `nft -f` where its "#@ load" line says,
#      writes `nft list ruleset` to OUT_DIR/NAME.list;
#   2. brings the links up and runs the file's traffic expectations.
# TAP on stdout; OUT_DIR/NAME.results holds one "ok|not ok DESCRIPTION" line
# per check, which the host compares between the baseline and the patched
# kernels.  The listing itself is compared with the expected dump on the host.
#
# Directives, in comments of the ruleset file ("#@ " at column 0):
#   #@ topology routed|bridged   routed (default): client -- fw -- server,
#       client 10.0.1.2 fd00:1::2 (eth0) / fw lan0 10.0.1.1 fd00:1::1,
#       fw wan0 10.0.2.1 fd00:2::1 / server 10.0.2.2 fd00:2::2 (eth0),
#       fw forwards; bridged: fw has br0 (10.0.1.1, fd00:1::1) over lan0 and
#       wan0, client 10.0.1.2 fd00:1::2 and server 10.0.1.3 fd00:1::3.
#   #@ load NS                   netns the ruleset is loaded in (default server)
#   #@ setup NS CMD...           before the ruleset is loaded (links down)
#   #@ listen NS tcp|tcp-hold|tcp-tproxy|udp PORT  a server answering
#                                with the peer's address (tcp-hold: then
#                                keeps it open 5 s; tcp-tproxy: IPv4 only,
#                                IP_TRANSPARENT, for connections a tproxy
#                                rule diverts to it); started before the
#                                ruleset is loaded
#   #@ run NS CMD...             CMD (bash) in NS, traffic only, not a check
#   #@ ok NS CMD...              CMD in NS must succeed
#   #@ fail NS CMD...            CMD in NS must fail
#   #@ counter NAME ==|>= N      packets of the named counter in the loaded
#                                netns after all the commands above
# Helpers for CMD: tcp HOST PORT (connect, print the server's answer),
# udp HOST PORT (one datagram, print the answer: waits 1 s), ping4/ping6 HOST.
#
# Every process costs 15-60 ms in a UML guest (a simple file took 3 s with
# one process per step): topology and teardown go through `ip -batch`,
# directives and counters are parsed by bash itself, namespaces inherit
# their sysctls from the guest's initial one.
set -uo pipefail

corpus=$1 out=$2
shift 2
mkdir -p "$out"

# The guest's / is the host's: the checkout is there, read-only.
# shellcheck source=../../lib/tap.sh
. "$(dirname "$0")/../../lib/tap.sh"
tap() {	# tap STATUS NAME DESCRIPTION
	local word=ok

	tap_result "$2: $3" "$1"
	[ "$1" -eq 0 ] || word="not ok"
	echo "$word $3" >> "$out/$2.results"
}

# Traffic helpers, exported to the commands run in the namespaces.  Short
# timeouts: a check that must fail against a drop rule waits for them.
# socat wants IPv6 literals in brackets and answers with the peer's address
# written out in full ("[fd00:0001:...:0002]"): addr_out shortens it so
# that a file compares with "fd00:1::2".
# shellcheck disable=SC2317 # run through export -f in the namespaces
addr_out() {
	case "$1" in
	"["*"]") awk '{
		n = split(substr($0, 2, length($0) - 2), g, ":")
		best = 0; bl = 0
		for (i = 1; i <= n; i++) {
			sub(/^0+/, "", g[i]); if (g[i] == "") g[i] = "0"
			if (g[i] == "0") { run = (i > 1 && g[i - 1] == "0") ? run + 1 : 1
				if (run > bl) { bl = run; best = i - run + 1 } }
		}
		s = ""
		for (i = 1; i <= n; i++) {
			if (bl > 1 && i == best) { s = s "::"; i += bl - 1; continue }
			s = s ((s == "" || s ~ /:$/) ? "" : ":") g[i]
		}
		print s
	}' <<< "$1" ;;
	"") ;;
	*) printf '%s\n' "$1" ;;
	esac
}
# shellcheck disable=SC2317
tcp() {
	local host=$1 answer

	[[ $host == *:* ]] && host="[$host]"
	answer=$(socat -t 2 -T 2 - "TCP:$host:$2,connect-timeout=1" </dev/null) || return
	addr_out "$answer"
}
# shellcheck disable=SC2317
udp() {
	local host=$1 answer

	[[ $host == *:* ]] && host="[$host]"
	answer=$(echo probe | socat -t 1 -T 2 - "UDP:$host:$2") || return
	addr_out "$answer"
}
# shellcheck disable=SC2317
ping4() { ping -q -n -c 1 -W 1 "$@" >/dev/null; }
# shellcheck disable=SC2317
ping6() { ping -6 -q -n -c 1 -W 1 "$@" >/dev/null; }
export -f addr_out tcp udp ping4 ping6

nsx() {	# nsx NS CMD...: run CMD in the file's netns NS
	local ns=$1

	shift
	ip netns exec "corpus-$ns" "$@"
}

# A sleep without a process: a read that times out on a pipe nobody writes.
exec {snooze_fd}<> <(:)
snooze() { read -r -t "$1" -u "$snooze_fd" _ || :; }

# Namespaces created from now on copy the initial namespace's settings: no
# duplicate address detection (a tentative link-local address makes the
# first forwarded IPv6 packet wait for neighbour discovery).
sysctl -qw net.core.devconf_inherit_init_net=1 net.ipv6.conf.all.accept_dad=0 \
	net.ipv6.conf.default.accept_dad=0 || echo "# cannot set the guest's sysctls"

# Fixed MAC addresses and permanent IPv6 neighbour entries: neighbour
# discovery right after the links come up made the first forwarded IPv6
# packet miss a 1 s timeout now and then; ARP stays dynamic (arp tables see
# it).
mac_client=02:00:00:00:01:02 mac_lan=02:00:00:00:01:01
mac_wan=02:00:00:00:02:01 mac_server=02:00:00:00:02:02

topology() {
	ip -batch - <<-EOF || return 1
		netns add corpus-client
		netns add corpus-fw
		netns add corpus-server
	EOF
	if [ "$1" = bridged ]; then
		ip -n corpus-client -batch - <<-EOF || return 1
			link add eth0 address $mac_client type veth peer name lan0 address $mac_lan netns corpus-fw
			addr add 10.0.1.2/24 dev eth0
			addr add fd00:1::2/64 dev eth0 nodad
			neigh add fd00:1::1 lladdr $mac_lan dev eth0 nud permanent
			neigh add fd00:1::3 lladdr $mac_server dev eth0 nud permanent
		EOF
		ip -n corpus-server -batch - <<-EOF || return 1
			link add eth0 address $mac_server type veth peer name wan0 address $mac_wan netns corpus-fw
			addr add 10.0.1.3/24 dev eth0
			addr add fd00:1::3/64 dev eth0 nodad
			neigh add fd00:1::1 lladdr $mac_lan dev eth0 nud permanent
			neigh add fd00:1::2 lladdr $mac_client dev eth0 nud permanent
		EOF
		ip -n corpus-fw -batch - <<-EOF || return 1
			link add br0 address $mac_lan type bridge
			link set lan0 master br0
			link set wan0 master br0
			addr add 10.0.1.1/24 dev br0
			addr add fd00:1::1/64 dev br0 nodad
			neigh add fd00:1::2 lladdr $mac_client dev br0 nud permanent
			neigh add fd00:1::3 lladdr $mac_server dev br0 nud permanent
		EOF
	else
		ip -n corpus-client -batch - <<-EOF || return 1
			link add eth0 address $mac_client type veth peer name lan0 address $mac_lan netns corpus-fw
			addr add 10.0.1.2/24 dev eth0
			addr add fd00:1::2/64 dev eth0 nodad
			neigh add fd00:1::1 lladdr $mac_lan dev eth0 nud permanent
		EOF
		ip -n corpus-server -batch - <<-EOF || return 1
			link add eth0 address $mac_server type veth peer name wan0 address $mac_wan netns corpus-fw
			addr add 10.0.2.2/24 dev eth0
			addr add fd00:2::2/64 dev eth0 nodad
			neigh add fd00:2::1 lladdr $mac_wan dev eth0 nud permanent
		EOF
		ip -n corpus-fw -batch - <<-EOF || return 1
			addr add 10.0.1.1/24 dev lan0
			addr add fd00:1::1/64 dev lan0 nodad
			addr add 10.0.2.1/24 dev wan0
			addr add fd00:2::1/64 dev wan0 nodad
			neigh add fd00:1::2 lladdr $mac_client dev lan0 nud permanent
			neigh add fd00:2::2 lladdr $mac_server dev wan0 nud permanent
		EOF
		nsx fw sysctl -qw net.ipv4.ip_forward=1 net.ipv6.conf.all.forwarding=1
	fi
}

links_up() {
	ip -n corpus-fw -batch - <<-EOF || return 1
		link set lo up
		link set lan0 up
		link set wan0 up
		$([ "$1" = bridged ] && echo "link set br0 up")
	EOF
	if [ "$1" = bridged ]; then
		ip -n corpus-client -batch - <<-EOF || return 1
			link set lo up
			link set eth0 up
		EOF
		ip -n corpus-server -batch - <<-EOF || return 1
			link set lo up
			link set eth0 up
		EOF
	else
		ip -n corpus-client -batch - <<-EOF || return 1
			link set lo up
			link set eth0 up
			route add default via 10.0.1.1
			route add default via fd00:1::1
		EOF
		ip -n corpus-server -batch - <<-EOF || return 1
			link set lo up
			link set eth0 up
			route add default via 10.0.2.1
			route add default via fd00:2::1
		EOF
	fi
}

listeners=()
teardown() {
	if [ ${#listeners[@]} -gt 0 ]; then
		kill "${listeners[@]}" 2>/dev/null
		wait "${listeners[@]}" 2>/dev/null
	fi
	listeners=()
	listener_of=() sockets_of=()
	# Processes a "run" line left behind end on their own within seconds.
	ip -batch - 2>/dev/null <<-EOF
		netns del corpus-client
		netns del corpus-fw
		netns del corpus-server
	EOF
}

listen() {	# listen NS tcp|tcp-hold|tcp-tproxy|udp PORT: answer every peer with its address
	local ns=$1 proto=$2 port=$3 fams="4 6" opts="" v v6only
	# The reply reads its input to the end: a reply that exits first makes
	# socat's write of the request fail (EPIPE) and drop the answer.
	# shellcheck disable=SC2016 # SOCAT_PEERADDR is set by socat
	local reply='echo $SOCAT_PEERADDR; exec cat >/dev/null'

	# shellcheck disable=SC2016
	case "$proto" in
	tcp | udp) ;;
	tcp-hold) reply='echo $SOCAT_PEERADDR; sleep 5' ;;
	# The corpus's tproxy rules are IPv4's (table ip).
	tcp-tproxy) fams=4 opts=,ip-transparent ;;
	*) return 1 ;;
	esac
	for v in $fams; do
		v6only=
		[ "$v" = 6 ] && v6only=,ipv6only=1
		if [ "$proto" = udp ]; then
			ip netns exec "corpus-$ns" socat -T 2 "UDP$v-RECVFROM:$port,fork,reuseaddr$v6only" \
				"SYSTEM:$reply" &
		else
			ip netns exec "corpus-$ns" socat "TCP$v-LISTEN:$port$opts,fork,reuseaddr$v6only" \
				"SYSTEM:$reply" &
		fi
		listeners+=("$!")
	done
	listener_of["$*"]=$!
	sockets_of["$*"]=$(wc -w <<< "$fams")
}

# listening PID PROTO PORT N: N sockets of the listen line are bound, read
# from the listener's /proc/PID/net (its netns) by bash itself.
listening() {
	local proto=${2%%-*} want=$4 hex found=0 _l local_addr _r f
	printf -v hex '%04X' "$3"

	for f in "/proc/$1/net/$proto" "/proc/$1/net/${proto}6"; do
		[ -r "$f" ] || return 1
		while read -r _l local_addr _r; do
			[[ $local_addr == *":$hex" ]] && found=$((found + 1))
		done < "$f"
	done
	[ "$found" -ge "$want" ]
}

declare -A counters listener_of sockets_of
# read_counters NS: add what every named counter of the netns counted since
# the last read to counters[NAME].  `nft reset counters` prints them and
# starts them again from zero: `nft list counters` fetches every set
# element as well, 7 s in the guest with the 100k-prefix blocklist.
read_counters() {
	local line name="" value

	while read -r line; do
		case "$line" in
		"counter "*" {") name=${line#counter }; name=${name% \{} ;;
		"packets "*)
			line=${line#packets }
			value=${line%% *}
			[ -z "$name" ] || counters[$name]=$((${counters[$name]:-0} + value))
			name=""
			;;
		esac
	done < <(nsx "$1" nft reset counters 2>/dev/null)
}

run_file() {
	local file=$1 name topo=routed load=server kind line ns cmd rest op want got rc have=0
	local proto port pid n
	local -a directives=()

	counters=()

	name=${file##*/}
	name=${name%.*}
	rm -f "$out/$name.results" "$out/$name.list" "$out/$name.err"
	while IFS= read -r line; do
		case "$line" in
		"#@ topology "*) topo=${line#\#@ topology } ;;
		"#@ load "*) load=${line#\#@ load } ;;
		"#@ "*) directives+=("${line#\#@ }") ;;
		esac
	done < "$file"

	topology "$topo"
	tap $? "$name" "$topo topology set up with the links down"
	for line in "${directives[@]}"; do
		read -r kind rest <<< "$line"
		case "$kind" in
		setup)
			ns=${rest%% *}
			nsx "$ns" bash -o pipefail -c "${rest#* }" < /dev/null >> "$out/$name.err" 2>&1
			tap $? "$name" "setup $rest"
			;;
		listen)
			# shellcheck disable=SC2086 # NS PROTO PORT
			listen $rest < /dev/null >> "$out/$name.err" 2>&1
			tap $? "$name" "listen $rest"
			;;
		esac
	done

	if [ "${file##*.}" = gen ]; then
		"$file" | nsx "$load" nft -f /dev/stdin 2>> "$out/$name.err"
	else
		nsx "$load" nft -f "$file" 2>> "$out/$name.err"
	fi
	rc=$?
	tap "$rc" "$name" "nft -f loads it in the $load netns"
	if [ "$rc" -ne 0 ]; then
		sed 's/^/# /' "$out/$name.err"
		teardown
		return
	fi
	nsx "$load" nft list ruleset > "$out/$name.list" 2>> "$out/$name.err"
	tap $? "$name" "nft list ruleset"

	links_up "$topo"
	tap $? "$name" "links up"
	for line in "${directives[@]}"; do
		read -r kind rest <<< "$line"
		case "$kind" in
		listen)
			read -r _ proto port _ <<< "$rest"
			pid=${listener_of["$rest"]:-0} n=${sockets_of["$rest"]:-1}
			for _ in {1..100}; do
				listening "$pid" "$proto" "$port" "$n" && break
				snooze 0.05
			done
			listening "$pid" "$proto" "$port" "$n"
			tap $? "$name" "listening: $rest"
			;;
		run)	# traffic only: what it achieved is checked by later lines
			ns=${rest%% *} cmd=${rest#* }
			nsx "$ns" bash -o pipefail -c "$cmd" < /dev/null >> "$out/$name.err" 2>&1
			have=0
			;;
		ok|fail)
			ns=${rest%% *} cmd=${rest#* }
			nsx "$ns" bash -o pipefail -c "$cmd" < /dev/null >> "$out/$name.err" 2>&1
			rc=$?
			if [ "$kind" = ok ]; then
				tap "$rc" "$name" "in $ns: $cmd"
			else
				tap "$((rc == 0))" "$name" "in $ns, must fail: $cmd"
			fi
			have=0
			;;
		counter)
			read -r cmd op want <<< "$rest"
			[ "$have" = 1 ] || { read_counters "$load"; have=1; }
			got=${counters[$cmd]:-}
			case "$op" in
			"==") [ "${got:-x}" = "$want" ] ;;
			">=") [ -n "$got" ] && [ "$got" -ge "$want" ] ;;
			*) false ;;
			esac
			rc=$?
			[ "$rc" -eq 0 ] || echo "# counter $cmd: ${got:-missing} packets, expected $op $want"
			tap "$rc" "$name" "counter $cmd $op $want"
			;;
		esac
	done
	teardown
}

files=()
if [ $# -gt 0 ]; then
	for name in "$@"; do
		if [ -f "$corpus/$name.gen" ]; then
			files+=("$corpus/$name.gen")
		else
			files+=("$corpus/$name.nft")
		fi
	done
else
	files=("$corpus"/*.nft "$corpus"/*.gen)
fi
ms() { local t=${EPOCHREALTIME/./}; echo $((t / 1000)); }
start=$(ms)
for f in "${files[@]}"; do
	[ -f "$f" ] || continue
	t0=$(ms)
	run_file "$f"
	echo "# ${f##*/}: $(($(ms) - t0)) ms"
done
echo "# ${#files[@]} files in $((($(ms) - start) / 1000)) s"
tap_end
