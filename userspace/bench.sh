#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# nftlab vs "nft -f" loading the same elements into the same set, side by
# side in one run: wall, user CPU, system CPU and peak RSS (GNU time -v),
# median of REPS runs, and for every row the gap between wall time and the
# kernel's own commit time, judged against the goal of issue #14: nftlab's
# wall time within GOAL_S (0.1) seconds of kernel_s.
#
# kernel_s is the time of the sendmsg() that runs and commits the
# transaction (nftlab --stats, per run; for nft, strace -T of one extra
# run): the floor for both tools.  gap_s = wall_s - kernel_s, median of the
# per-run gaps for nftlab rows.  For nftlab, --stats also splits the gap:
# build_s (reading, parsing, serialising; cpu_s of it on the CPU) and
# replies_s (draining the ACKs); other_s = wall - kernel - build - replies
# per run is the rest: process start (exec, libraries, netlink socket, the
# set's description asked from the kernel) and exit.
# wall_s is taken inside the namespace with bash's EPOCHREALTIME around
# "time -v TOOL ...": the tool's start, run and exit plus the fork
# and exec of GNU time (about a millisecond); "ip netns exec" (tens of
# milliseconds under load: a mount namespace and a sysfs remount) is
# outside, as it is no part of either tool.
#
# Tools: nft (nft -f FILE, one "add element" statement), nftlab-file
# (element add --file), nftlab-gen (element add --gen; not for maps),
# nftlab-script (nftlab -f SCRIPT whose one line is the --file load: the
# cost of the script path).  With NFTLAB_REF=BINARY the same three rows
# are measured for a second nftlab (ref-file, ref-gen, ref-script),
# interleaved with the others in every repetition: before/after figures
# under the same conditions.  The order of the tools rotates each
# repetition.
#
# Environment: NFTLAB (binary), NFTLAB_REF (optional), REPS (5),
#              N_HASH (1000000), N_INTERVAL (100000), N_MAP (100000),
#              GOAL_S (0.1), RESULTS (output directory)
#
# bench.sh --report DIR renders DIR/results.txt again from DIR/runs.tsv.
set -u
REPORT=
if [ "${1:-}" = --report ]; then
	REPORT=${2:?usage: bench.sh --report RESULTS_DIR}
	NFTLAB=-
fi
: "${NFTLAB:?set NFTLAB to the nftlab binary}"
: "${NFTLAB_REF:=}"
: "${REPS:=5}"
: "${N_HASH:=1000000}"
: "${N_INTERVAL:=100000}"
: "${N_MAP:=100000}"
: "${GOAL_S:=0.1}"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
: "${RESULTS:=$ROOT/build/results/$(python3 "$ROOT/lib/rundir.py" userspace-bench host)}"

NS="nftlab-bench-$$"
TIME=/usr/bin/time
CASES="hash interval map"

die() {
	echo "bench: $*" >&2
	exit 1
}

cleanup() {
	ip netns del "$NS" 2>/dev/null
}

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

# field FILE LABEL: a value from time -v output
field() {
	case "$2" in
	user) awk -F': ' '/User time/ { print $2 }' "$1" ;;
	sys) awk -F': ' '/System time/ { print $2 }' "$1" ;;
	rss) awk -F': ' '/Maximum resident/ { print $2 }' "$1" ;;
	esac
}

# stats_field LOG NAME: a figure from nftlab --stats ("-" if absent)
stats_field() {
	local v
	case $2 in
	kernel) v=$(sed -n 's/.*stats: .* kernel \([0-9.]*\) s.*/\1/p' "$1") ;;
	build) v=$(sed -n 's/.*stats: .* build \([0-9.]*\) s.*/\1/p' "$1") ;;
	cpu) v=$(sed -n 's/.*stats: .*(cpu \([0-9.]*\) s).*/\1/p' "$1") ;;
	replies) v=$(sed -n 's/.*stats: .* replies \([0-9.]*\) s.*/\1/p' "$1") ;;
	esac
	echo "${v:--}"
}

# measure CASE TOOL REP CMD...: one timed run; appends a line to runs.tsv
# (case tool rep status wall user sys rss kernel build cpu replies)
measure() {
	local c=$1 tool=$2 rep=$3 out="$RESULTS/raw/$1-$2-$3.time" status=ok
	shift 3
	# shellcheck disable=SC2016  # expanded by the inner bash
	timeout 900 ip netns exec "$NS" bash -c 'w=$1; shift; t0=$EPOCHREALTIME; "$@"
		s=$?; echo "$t0 $EPOCHREALTIME" > "$w"; exit $s' bench "$out.wall" \
		"$TIME" -v -o "$out" "$@" > "$out.log" 2>&1 || status=failed
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$c" "$tool" "$rep" \
		"$status" "$(awk '{ printf "%.3f", $2 - $1 }' "$out.wall" 2>/dev/null || echo -)" \
		"$(field "$out" user)" "$(field "$out" sys)" "$(field "$out" rss)" \
		"$(stats_field "$out.log" kernel)" "$(stats_field "$out.log" build)" \
		"$(stats_field "$out.log" cpu)" "$(stats_field "$out.log" replies)" >> "$RESULTS/runs.tsv"
	[ "$status" = ok ] || echo "bench: $c $tool run $rep failed (see $out.log)" >&2
}

# tools CASE: the tools measured for CASE (maps have no generator)
tools() {
	local t=nft
	for b in nftlab ${NFTLAB_REF:+ref}; do
		t="$t $b-file"
		[ "$1" = map ] || t="$t $b-gen"
		t="$t $b-script"
	done
	echo "$t"
}

# rotate N WORDS...: the words rotated left by N
rotate() {
	local n=$1
	shift
	local -a w=("$@")
	n=$((n % ${#w[@]}))
	echo "${w[@]:n}" "${w[@]:0:n}"
}

# run_case CASE SETDEF FIELDS RANGE COUNT [DATA]
run_case() {
	local c=$1 def=$2 fields=$3 range=$4 count=$5 data=${6:-} rep tool bin
	make_input "$c" "$fields" "$range" "$count" "$data"
	for rep in $(seq 1 "$REPS"); do
		# shellcheck disable=SC2046  # word lists
		for tool in $(rotate "$rep" $(tools "$c")); do
			fresh_set "$c" "$def" || die "creating set $c"
			bin=$NFTLAB
			case $tool in ref-*) bin=$NFTLAB_REF ;; esac
			case $tool in
			nft) measure "$c" "$tool" "$rep" nft -f "$RESULTS/raw/$c.nft" ;;
			*-file) measure "$c" "$tool" "$rep" "$bin" --stats element add \
				netdev perf "s_$c" --file "$RESULTS/raw/$c.txt" ;;
			*-gen) measure "$c" "$tool" "$rep" "$bin" --stats element add \
				netdev perf "s_$c" --gen "$fields" --count "$count" \
				--range-size "$range" ;;
			*-script) measure "$c" "$tool" "$rep" "$bin" --stats \
				-f "$RESULTS/raw/$c.cmds" ;;
			esac
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

# nft_kernel CASE: seconds nft spent in sendmsg() (strace run), or "-"
nft_kernel() {
	local f="$RESULTS/raw/$1-nft.strace"
	[ -f "$f" ] || { echo "-"; return; }
	sed -n 's/.*<\([0-9.]*\)>$/\1/p' "$f" | awk '{ s += $1 } END { printf "%.3f\n", s }'
}

# med CASE TOOL COLUMN: median of a runs.tsv column over the ok runs;
# column "gap" is wall - kernel per run
med() {
	awk -F'\t' -v c="$1" -v t="$2" -v col="$3" '
		BEGIN { split("case tool rep status wall user sys rss kernel build cpu replies", h, " ")
			for (i in h) idx[h[i]] = i }
		$1 == c && $2 == t && $4 == "ok" {
			if (col == "gap") { if ($9 == "-") next; v = $5 - $9 }
			else if (col == "other") {
				if ($9 == "-" || $10 == "-" || $12 == "-") next
				v = $5 - $9 - $10 - $12
			}
			else { v = $idx[col]; if (v == "-") next }
			a[n++] = v
		}
		END {
			if (!n) { print "-"; exit }
			for (i = 0; i < n; i++) for (j = i + 1; j < n; j++)
				if (a[j] < a[i]) { x = a[i]; a[i] = a[j]; a[j] = x }
			m = n % 2 ? a[(n - 1) / 2] : (a[n / 2 - 1] + a[n / 2]) / 2
			print (col == "rss" ? sprintf("%d", m) : sprintf("%.3f", m))
		}' "$RESULTS/runs.tsv"
}

# summarize: results.txt table, results.jsonl, the goal verdict
summarize() {
	local c tool wall user sys rss kern gap build cpu rep other goal bw bu br met=0 rows=0 missed=""
	printf '%-9s %-14s %7s %7s %7s %8s %6s %7s %7s %7s %7s %10s  %-19s %s\n' case tool \
		wall_s user_s sys_s kernel_s gap_s build_s cpu_s reply_s other_s \
		peak_rss_kB "vs nft: wall user rss" "goal gap<=${GOAL_S}s"
	for c in $CASES; do
		for tool in $(tools "$c"); do
			wall=$(med "$c" "$tool" wall)
			user=$(med "$c" "$tool" user)
			sys=$(med "$c" "$tool" sys)
			rss=$(med "$c" "$tool" rss)
			build=$(med "$c" "$tool" build)
			cpu=$(med "$c" "$tool" cpu)
			rep=$(med "$c" "$tool" replies)
			other=$(med "$c" "$tool" other)
			if [ "$tool" = nft ]; then
				kern=$(nft_kernel "$c")
				gap=$(awk -v w="$wall" -v k="$kern" 'BEGIN {
					if (k == "-" || w == "-") print "-"; else printf "%.3f", w - k }')
				bw=$wall bu=$user br=$rss
				goal="(not judged: nft)"
			else
				kern=$(med "$c" "$tool" kernel)
				gap=$(med "$c" "$tool" gap)
				if awk -v g="$gap" -v l="$GOAL_S" 'BEGIN { exit !(g != "-" && g <= l) }'; then
					goal=met
				else
					goal="NOT MET"
				fi
				case $tool in
				nftlab-*)
					rows=$((rows + 1))
					if [ "$goal" = met ]; then
						met=$((met + 1))
					else
						missed="$missed $c/$tool"
					fi ;;
				esac
			fi
			printf '%-9s %-14s %7s %7s %7s %8s %6s %7s %7s %7s %7s %10s  %-19s %s\n' "$c" "$tool" \
				"$wall" "$user" "$sys" "$kern" "$gap" "$build" "$cpu" "$rep" "$other" "$rss" \
				"$(awk -v w="$wall" -v u="$user" -v r="$rss" -v bw="$bw" -v bu="$bu" \
				-v br="$br" 'BEGIN { if (w == "-" || bw == "-") print "-"; else
				printf "%.2fx %.2fx %.3fx", w / bw, (bu > 0 ? u / bu : 0), r / br }')" \
				"$goal"
			echo "{\"case\": \"$c\", \"tool\": \"$tool\", \"wall_s\": \"$wall\", \"user_s\": \"$user\", \"sys_s\": \"$sys\", \"kernel_s\": \"$kern\", \"gap_s\": \"$gap\", \"build_s\": \"$build\", \"build_cpu_s\": \"$cpu\", \"replies_s\": \"$rep\", \"other_s\": \"$other\", \"peak_rss_kb\": \"$rss\", \"goal\": \"$goal\"}" >> "$RESULTS/results.jsonl"
		done
	done
	echo
	if [ "$met" -eq "$rows" ]; then
		echo "Goal (nftlab wall within ${GOAL_S} s of kernel_s): MET in all $rows nftlab rows (medians of $REPS runs)."
	else
		echo "Goal (nftlab wall within ${GOAL_S} s of kernel_s): met in $met of $rows nftlab rows; NOT MET:$missed (medians of $REPS runs)."
	fi
}

if [ -n "$REPORT" ]; then
	RESULTS=$REPORT
	REPS=$(sed -n 's/^repetitions: \([0-9]*\).*/\1/p' "$RESULTS/env.txt")
	[ -n "$REPS" ] || die "$RESULTS/env.txt: no repetitions line"
	awk -F'\t' '$2 ~ /^ref-/ { f = 1 } END { exit !f }' "$RESULTS/runs.tsv" &&
		NFTLAB_REF=ref
	rm -f "$RESULTS/results.jsonl"
	summarize > "$RESULTS/results.txt"
	cat "$RESULTS/env.txt" "$RESULTS/results.txt"
	exit 0
fi
[ -x "$TIME" ] || die "GNU time (/usr/bin/time, package time) not installed"
command -v nft >/dev/null || die "nft not installed"
[ -z "$NFTLAB_REF" ] || [ -x "$NFTLAB_REF" ] || die "NFTLAB_REF: $NFTLAB_REF is not executable"
mkdir -p "$RESULTS/raw" || die "cannot create $RESULTS"
trap cleanup EXIT
ip netns add "$NS" || die "ip netns add failed"

{
	echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "nft: $(nft --version)"
	echo "nftlab: $NFTLAB${NFTLAB_REF:+ (ref-*: $NFTLAB_REF)}"
	echo "kernel: $(uname -r)"
	echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cpus"
	echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "repetitions: $REPS (median shown; tool order rotates per repetition)"
	echo "hash: $N_HASH ipv4_addr elements, set size 2000000 (nft_hash)"
	echo "interval: $N_INTERVAL 'ipv4_addr . inet_service' ranges, flags interval (pipapo)"
	echo "map: $N_MAP 'ipv4_addr . inet_service : verdict' ranges, flags interval (pipapo verdict map)"
} > "$RESULTS/env.txt"

printf 'case\ttool\trep\tstatus\twall\tuser\tsys\trss\tkernel\tbuild\tcpu\treplies\n' > "$RESULTS/runs.tsv"
run_case hash "type ipv4_addr; size 2000000" addr4 0 "$N_HASH"
run_case interval "type ipv4_addr . inet_service; flags interval" "addr4 . port" 1 "$N_INTERVAL"
run_case map "type ipv4_addr . inet_service : verdict; flags interval" "addr4 . port" 1 "$N_MAP" accept
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$RESULTS/env.txt"
summarize > "$RESULTS/results.txt"
cat "$RESULTS/env.txt" "$RESULTS/results.txt"
echo "results: $RESULTS"
if awk -F'\t' '$4 == "failed" { bad = 1 } END { exit !bad }' "$RESULTS/runs.tsv"; then
	exit 1
fi
