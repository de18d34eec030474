#!/bin/bash
# Runs inside a lab guest booted with the debug kernel (kernel/builder/build --with
# debug): the differential test, fault injection during nftlab bulk loads and
# during commits of an rbtree set with an expired interval (commitalloc),
# the churn soak, the concurrent stress (stress.py) and the
# nft_concat_range.sh groups given, each in a network namespace of its own,
# then a kmemleak scan.  Each part writes
# $NFTLAB_RESULTS/PART.tap and PART.json; kmemleak's report goes to
# kmemleak.txt.  The host (tests/reliability/check-debug.sh) scans the
# console for the kernel's reports.
#
# Usage: guest-debug.sh [--plain|--kcsan] SEED SOAK_SECONDS NFTLAB "GROUP ..." [PART ...]
#   PART: differential faults commitalloc soak stress selftests (default:
#         all six); SOAK_SECONDS is also the stress time per backend
#   --plain: a kernel without the debug options (make check's short run):
#            no checker checks, no kmemleak scan
#   --kcsan: the KCSAN kernel (--with kcsan, no KASAN or kmemleak): KCSAN's
#            debugfs file is the checker that must be there
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# The guest's / is the host's: the checkout is there, read-only.
# shellcheck source=../../lib/tap.sh
. "$here/../../lib/tap.sh"
plain=0 checkers=(/sys/kernel/debug/kmemleak /proc/lockdep /sys/kernel/debug/failslab)
case "${1:-}" in
--plain) plain=1; shift ;;
--kcsan) checkers=(/sys/kernel/debug/kcsan); shift ;;
esac
seed=$1 soak_s=$2 nftlab=$3 groups=$4
shift 4
parts=${*:-differential faults commitalloc soak stress selftests}
out=$NFTLAB_RESULTS
kml=/sys/kernel/debug/kmemleak

# What the host asked for must be there: a missing checker is a failure,
# never a silent pass.
# A report of its own, numbered from 1: a subshell.
[ "$plain" = 1 ] || (
	for f in "${checkers[@]}"; do
		tap_check "debug kernel: $f exists" test -e "$f"
	done
	tap_end
) > "$out/features.tap"

# Objects the boot left unreferenced are not the tests' leaks.
[ "$plain" = 0 ] && [ -e "$kml" ] && echo clear > "$kml"

in_netns() {
	local ns=$1

	shift
	ip netns add "$ns" || return 1
	ip netns exec "$ns" "$@"
	local rc=$?
	ip netns del "$ns"
	return "$rc"
}

run_part() {
	case "$1" in
	differential)
		in_netns relab-diff python3 "$here/differential.py" --seed "$seed" \
			--report "$out/differential.json" > "$out/differential.tap" 2>&1 ;;
	faults)
		in_netns relab-faults python3 "$here/faults.py" --nftlab "$nftlab" \
			--report "$out/faults.json" > "$out/faults.tap" 2>&1 ;;
	commitalloc)
		in_netns relab-ca python3 "$here/commit-alloc.py" --nftlab "$nftlab" \
			--report "$out/commitalloc.json" > "$out/commitalloc.tap" 2>&1 ;;
	soak)
		in_netns relab-soak python3 "$here/soak.py" --seed "$seed" --seconds "$soak_s" \
			--report "$out/soak.json" > "$out/soak.tap" 2>&1 ;;
	stress)
		in_netns relab-stress python3 "$here/stress.py" --seed "$seed" --seconds "$soak_s" \
			--report "$out/stress.json" > "$out/stress.tap" 2>&1 ;;
	selftests)
		# guest-selftests.sh writes $NFTLAB_RESULTS/debug.tap.  KASAN and
		# lockdep make this a slow machine in kselftest's sense: the
		# timeout group's elements live 8 s instead of 3 s (3 s expire
		# before the group has sent its packets).
		KSFT_MACHINE_SLOW=yes "$NFTLAB_TOP/tests/lab/guest-selftests.sh" debug "$groups" \
			> "$out/selftests.log" 2>&1
		mv "$out/debug.tap" "$out/selftests.tap" ;;
	*) tap_check "unknown part $1" false > "$out/$1.tap"; return 1 ;;
	esac
}

for part in $parts; do
	echo "[guest-debug] $part: start $(date +%T)" >&2
	start=$SECONDS
	run_part "$part"
	echo "[guest-debug] $part: exit $? after $((SECONDS - start))s" >&2
done

if [ "$plain" = 0 ] && [ -e "$kml" ]; then
	# kmemleak reports objects unreferenced for 5 s or more; two scans,
	# as Documentation/dev-tools/kmemleak.rst advises, after the tests'
	# deferred frees (RCU, the nf_tables destroy work) have run.
	sleep 6
	echo scan > "$kml"
	sleep 1
	echo scan > "$kml"
	cat "$kml" > "$out/kmemleak.txt"
fi
echo "[guest-debug] done" >&2
