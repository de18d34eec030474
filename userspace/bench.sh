#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# nftlab vs "nft -f" loading the same elements into the same set, side by
# side in one run: wall, user CPU, system CPU and peak RSS from GNU time -v,
# median of REPS runs; kernel_s is the time of the sendmsg() that runs and
# commits the transaction (nftlab --stats; for nft, strace -T of an extra
# run): the floor for both tools.
#
# Tools: nft (nft -f FILE, one "add element" statement), nftlab-file
# (element add --file), nftlab-gen (element add --gen; not for maps),
# nftlab-script (nftlab -f SCRIPT whose one line is the --file load: the
# cost of the script path).
#
# Environment: NFTLAB (binary), REPS (3), N_HASH (1000000),
#              N_INTERVAL (100000), N_MAP (100000), RESULTS (output directory)
set -u
: "${NFTLAB:?set NFTLAB to the nftlab binary}"
: "${REPS:=3}"
: "${N_HASH:=1000000}"
: "${N_INTERVAL:=100000}"
: "${N_MAP:=100000}"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
: "${RESULTS:=$ROOT/build/results/userspace-bench-$(date -u +%Y%m%dT%H%M%SZ)}"

NS="nftlab-bench-$$"
TIME=/usr/bin/time

die() {
	echo "bench: $*" >&2
	exit 1
}

cleanup() {
	ip netns del "$NS" 2>/dev/null
}

[ -x "$TIME" ] || die "GNU time (/usr/bin/time, package time) not installed"
command -v nft >/dev/null || die "nft not installed"
mkdir -p "$RESULTS/raw" || die "cannot create $RESULTS"
trap cleanup EXIT
ip netns add "$NS" || die "ip netns add failed"

# make_input CASE FIELDS RANGE COUNT [DATA]: element list (with " : DATA"
# for maps), the nft -f file and the nftlab -f script
make_input() {
	"$NFTLAB" gen "$2" --count "$4" --range-size "$3" |
		sed "${5:+s/\$/ : $5/}" > "$RESULTS/raw/$1.txt" ||
		die "generating $1"
	{
		echo "add element netdev perf s_$1 {"
		sed 's/$/,/' "$RESULTS/raw/$1.txt"
		echo "}"
	} > "$RESULTS/raw/$1.nft"
	echo "element add netdev perf s_$1 --file $RESULTS/raw/$1.txt" > "$RESULTS/raw/$1.cmds"
}

# fresh_set CASE SETDEF: empty table with the set (or map), created by nft
fresh_set() {
	local kind=set
	case $2 in *' : '*) kind=map ;; esac
	ip netns exec "$NS" nft flush ruleset &&
		ip netns exec "$NS" nft -f - <<< "table netdev perf { $kind s_$1 { $2; }; }"
}

# measure CASE TOOL REP CMD...: one timed run, ok/failed on stdout
measure() {
	local out="$RESULTS/raw/$1-$2-$3.time"
	shift 3
	if timeout 900 "$TIME" -v -o "$out" ip netns exec "$NS" "$@" \
		> "$out.log" 2>&1; then
		echo ok
	else
		echo failed
	fi
}

# field FILE LABEL: a value from time -v output, wall clock in seconds
field() {
	case "$2" in
	wall)
		awk -F': ' '/Elapsed \(wall clock\)/ {
			n = split($2, p, ":"); s = 0
			for (i = 1; i <= n; i++) s = s * 60 + p[i]
			printf "%.2f\n", s }' "$1" ;;
	user) awk -F': ' '/User time/ { print $2 }' "$1" ;;
	sys) awk -F': ' '/System time/ { print $2 }' "$1" ;;
	rss) awk -F': ' '/Maximum resident/ { print $2 }' "$1" ;;
	esac
}

median() {
	sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# run_case CASE SETDEF FIELDS RANGE COUNT [DATA]
run_case() {
	local c=$1 def=$2 fields=$3 range=$4 count=$5 data=${6:-} rep tool status
	make_input "$c" "$fields" "$range" "$count" "$data"
	for rep in $(seq 1 "$REPS"); do
		for tool in $(tools "$c"); do
			fresh_set "$c" "$def" || die "creating set $c"
			case $tool in
			nft) status=$(measure "$c" "$tool" "$rep" nft -f "$RESULTS/raw/$c.nft") ;;
			nftlab-file) status=$(measure "$c" "$tool" "$rep" "$NFTLAB" \
				--stats element add netdev perf "s_$c" --file "$RESULTS/raw/$c.txt") ;;
			nftlab-gen) status=$(measure "$c" "$tool" "$rep" "$NFTLAB" \
				--stats element add netdev perf "s_$c" --gen "$fields" \
				--count "$count" --range-size "$range") ;;
			nftlab-script) status=$(measure "$c" "$tool" "$rep" "$NFTLAB" \
				--stats -f "$RESULTS/raw/$c.cmds") ;;
			esac
			echo "$c $tool $rep $status" >> "$RESULTS/runs.txt"
			[ "$status" = ok ] || echo "bench: $c $tool run $rep failed" >&2
		done
	done
	# nft's kernel time: its sendmsg() calls under strace, an extra run
	if command -v strace >/dev/null; then
		fresh_set "$c" "$def" || die "creating set $c"
		ip netns exec "$NS" strace -f -T -e trace=sendmsg -o "$RESULTS/raw/$c-nft.strace" \
			nft -f "$RESULTS/raw/$c.nft" || echo "bench: strace run of nft failed" >&2
	fi
	rm -f "$RESULTS/raw/$c.nft" "$RESULTS/raw/$c.txt" "$RESULTS/raw/$c.cmds"
}

# tools CASE: the tools measured for CASE (maps have no generator)
tools() {
	case $1 in
	map) echo nft nftlab-file nftlab-script ;;
	*) echo nft nftlab-file nftlab-gen nftlab-script ;;
	esac
}

# kernel_time CASE TOOL: median seconds spent in the transaction's sendmsg()
kernel_time() {
	local f
	if [ "$2" = nft ]; then
		f="$RESULTS/raw/$1-nft.strace"
		[ -f "$f" ] || { echo "-"; return; }
		sed -n 's/.*<\([0-9.]*\)>$/\1/p' "$f" | awk '{ s += $1 } END { printf "%.2f\n", s }'
		return
	fi
	for f in "$RESULTS/raw/$1-$2"-*.time.log; do
		sed -n 's/.*kernel \([0-9.]*\) s$/\1/p' "$f"
	done | median | awk '{ printf "%.2f\n", $1 }'
}

summarize() {
	local c tool m wall user sys rss kern
	printf '%-9s %-13s %8s %8s %8s %9s %10s  %s\n' case tool wall_s user_s sys_s \
		kernel_s peak_rss_kB "ratio vs nft (wall user rss)"
	for c in hash interval map; do
		declare -A base=()
		for tool in $(tools "$c"); do
			for m in wall user sys rss; do
				eval "$m=\$(for f in \"\$RESULTS\"/raw/$c-$tool-*.time; do field \"\$f\" $m; done | median)"
			done
			if [ "$tool" = nft ]; then
				base=([wall]=$wall [user]=$user [rss]=$rss)
			fi
			kern=$(kernel_time "$c" "$tool")
			printf '%-9s %-13s %8s %8s %8s %9s %10s  %s\n' "$c" "$tool" "$wall" \
				"$user" "$sys" "$kern" "$rss" "$(awk -v w="$wall" -v u="$user" \
				-v r="$rss" -v bw="${base[wall]}" -v bu="${base[user]}" \
				-v br="${base[rss]}" 'BEGIN { printf "%.2fx %.2fx %.3fx",
				w / bw, (bu > 0 ? u / bu : 0), r / br }')"
			echo "{\"case\": \"$c\", \"tool\": \"$tool\", \"wall_s\": $wall, \"user_s\": $user, \"sys_s\": $sys, \"kernel_s\": \"$kern\", \"peak_rss_kb\": $rss}" >> "$RESULTS/results.jsonl"
		done
	done
}

{
	echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "nft: $(nft --version)"
	echo "kernel: $(uname -r)"
	echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cpus"
	echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "repetitions: $REPS (median shown)"
	echo "hash: $N_HASH ipv4_addr elements, set size 2000000 (nft_hash)"
	echo "interval: $N_INTERVAL 'ipv4_addr . inet_service' ranges, flags interval (pipapo)"
	echo "map: $N_MAP 'ipv4_addr . inet_service : verdict' ranges, flags interval (pipapo verdict map)"
} > "$RESULTS/env.txt"

run_case hash "type ipv4_addr; size 2000000" addr4 0 "$N_HASH"
run_case interval "type ipv4_addr . inet_service; flags interval" "addr4 . port" 1 "$N_INTERVAL"
run_case map "type ipv4_addr . inet_service : verdict; flags interval" "addr4 . port" 1 "$N_MAP" accept
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$RESULTS/env.txt"
summarize > "$RESULTS/results.txt"
cat "$RESULTS/env.txt" "$RESULTS/results.txt"
echo "results: $RESULTS"
if grep -q failed "$RESULTS/runs.txt"; then
	exit 1
fi
