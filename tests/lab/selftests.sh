#!/bin/bash
# The base tree's nft_concat_range.sh (plus the fixes in selftest-fixes/)
# in the patched retpoline UML kernel, once with the lab knob off (direct
# calls) and once with it on (every nf_tables direct call forced back to an
# indirect call).
#
# Groups: reported_issues, correctness, concurrency and timeout are all
# that 6.12.117's script has besides performance (the suite covers that).
# make check (warm budget 15 min): reported_issues and correctness with the
# knob off, correctness with it on (the ICMP cases alone take about 2 min a
# group in UML); timeout, concurrency (about 1 min per set type, 7 min a
# run) and the rest only with NFTLAB_CHECK_FULL=1 (make check-full), which
# runs all four both ways.
# NFTLAB_SELFTEST_GROUPS overrides the groups of both runs.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tap.sh
. "$top/tests/lab/tap.sh"
# shellcheck source=../../kernel/lib.sh
. "$top/kernel/lib.sh"

all_groups="reported_issues correctness concurrency timeout"
groups_off=${NFTLAB_SELFTEST_GROUPS:-reported_issues correctness}
groups_on=${NFTLAB_SELFTEST_GROUPS:-correctness}
if [ "${NFTLAB_CHECK_FULL:-0}" = 1 ] && [ -z "${NFTLAB_SELFTEST_GROUPS:-}" ]; then
	groups_off=$all_groups groups_on=$all_groups
fi
: "${NFTLAB_KNOB_SYSCTL:=$(force_indirect_sysctl)}"

kernel=$("$top/kernel/builder/build" um patched retpoline) || tap_bail "cannot build um patched retpoline"
tap_diag "kernel: $(sed -n 's/^base: //p' "$kernel/BUILD-INFO"), um patched retpoline"
run="$top/build/check/selftests"
rm -rf "$run"
mkdir -p "$run"

# UML is uniprocessor and the host has two cores: the two guests run side
# by side, their reports in a fixed order after.  Not with the timeout
# group: its 3-second elements expired before the check on a loaded host
# (docs/results/selftests-ct-20261201T181000Z/), so those runs go one at
# a time.
parallel=1
case " $groups_off $groups_on " in *" timeout "*) parallel=0 ;; esac

# guest KNOB GROUPS VALUE: one guest; its exit status and time in DIR/exit.
guest() {
	local dir="$run/knob-$1" start=$SECONDS rc

	"$top/kernel/runner/lab-run" --kernel "$kernel" --results "$dir" --timeout 1500 -- \
		"$top/tests/lab/guest-selftests.sh" "knob-$1" "$2" \
		"$NFTLAB_KNOB_SYSCTL=$3" >"$dir/console.log" 2>&1
	rc=$?
	echo "$rc $((SECONDS - start))" >"$dir/exit"
}

for knob in off on; do
	dir="$run/knob-$knob"
	mkdir -p "$dir"
	"$top/tests/lab/extract-selftests" "$dir" > "$dir/extract.tap"
	tap_forward "knob $knob: " "$dir/extract.tap"
	val=0 groups=$groups_off
	if [ "$knob" = on ]; then val=1 groups=$groups_on; fi
	tap_diag "knob $knob: booting the guest: groups $groups"
	if [ "$parallel" = 1 ]; then
		guest "$knob" "$groups" "$val" &
	else
		guest "$knob" "$groups" "$val"
	fi
done
wait
for knob in off on; do
	dir="$run/knob-$knob"
	read -r rc secs <"$dir/exit" || rc=1 secs='?'
	tap_diag "knob $knob: guest exited $rc after ${secs}s (console: $dir/console.log)"
	tap_report "" "$dir/knob-$knob.tap" "$dir/console.log"
done
tap_end
