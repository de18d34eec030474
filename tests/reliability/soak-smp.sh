#!/bin/bash
# Usage: tests/reliability/soak-smp.sh RUNDIR SEED SECONDS [VARIANT ...]
#
# The churn soak (soak.py) where UML cannot run it: in the x86_64 retpoline
# kernels under QEMU TCG with 2 vCPUs, so that pktgen's lookups and the
# transactions run on different CPUs at the same time (function, never
# timing).  The kernels are built --with smp (ACPI): without it the guest
# found one CPU, and every run of this script before 2026-12-04 ran on one.  VARIANT: patched and baseline (default both).  TAP on stdout,
# each guest's files in RUNDIR/smp-VARIANT/.
#
# The patched kernel must pass.  In the baseline kernel a failure is
# reported as TODO: a miss there is 6.12.117's own, which is what issue 16's
# false-miss test looks for, not a failure of this series.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../../lib/tap.sh
. "$top/lib/tap.sh"

[ $# -ge 3 ] || tap_bail "usage: soak-smp.sh RUNDIR SEED SECONDS [VARIANT ...]"
run=$1 seed=$2 secs=$3
shift 3
variants=${*:-patched baseline}

# todo_for VARIANT TAPFILE: the TAP file to forward; for the baseline a
# copy whose failures are TODO (6.12.117's own).  A missing file stays
# missing (empty), so tap_report still fails on it.
todo_for() {
	if [ "$1" = baseline ]; then
		sed -e 's/^\(not ok .*\)$/\1 # TODO 6.12.117 itself: reported for issue 16/' \
			"$2" > "$2.todo" 2>/dev/null
		echo "$2.todo"
	else
		echo "$2"
	fi
}

for v in $variants; do
	dir="$run/smp-$v"
	mkdir -p "$dir"
	kernel=$("$top/kernel/builder/build" --with smp x86_64 "$v" retpoline) ||
		tap_bail "cannot build x86_64 $v retpoline --with smp"
	cp "$kernel/BUILD-INFO" "$dir/BUILD-INFO"
	start=$SECONDS
	# shellcheck disable=SC2016 # expanded by the guest's bash
	"$top/kernel/runner/lab-run" --arch x86_64 --cpus 2 --kernel "$kernel" --results "$dir" --mem 2G \
		--append ignore_loglevel \
		--timeout $((600 + 12 * ${secs%.*})) -- \
		bash -c 'ip netns add relab-soak && ip netns exec relab-soak python3 "$1" --seed "$2" \
			--seconds "$3" --report "$NFTLAB_RESULTS/soak.json" > "$NFTLAB_RESULTS/soak.tap" 2>&1' \
		- "$top/tests/reliability/soak.py" "$seed" "$secs" > "$dir/console.log" 2>&1
	rc=$?
	tap_diag "x86_64 $v, 2 vCPUs: guest exited $rc after $((SECONDS - start))s (console: $dir/console.log)"
	tap_report "x86_64 $v, 2 vCPUs: " "$(todo_for "$v" "$dir/soak.tap")" "$dir/console.log"
	python3 "$top/tests/reliability/splats.py" --config "$kernel/config" "$dir/console.log" "$dir/splats" \
		> "$dir/splats.tap"
	tap_forward "x86_64 $v, 2 vCPUs: " "$(todo_for "$v" "$dir/splats.tap")"
done
tap_end
