#!/bin/bash
# The base tree's nft_concat_range.sh (plus the fixes in selftest-fixes/)
# in the lab's UML retpoline kernel of the base (NFTLAB_BASE: the default
# base of kernel/builder/bases/ unless set; 7.3 is upstream).  Where the
# base's series has feature patches, the patched kernel runs it: on 6.12
# twice, once with the lab knob off (direct calls) and once with it on
# (every nf_tables direct call forced back to an indirect call); on 7.3
# (no lab knob) once, on 2 vCPUs (its UML has SMP).
# A base without feature patches runs its baseline kernel once.
#
# The groups: the base's "selftest-groups:" (kernel/builder/bases/), all but
# performance (the suite covers that).
# make check (warm budget 15 min): reported_issues with the knob off (or
# once, where there is no knob); the knob-on run and the other groups only
# with NFTLAB_CHECK_FULL=1 (make check-full), which runs them all both
# ways.
# NFTLAB_SELFTEST_GROUPS overrides the groups of every run.
#
# The guests run current nft on both bases (kernel/builder/build-nft): 7.3's
# script expects it, and Debian 12's nft 1.0.6 made 6.12's l4proto cases
# SKIP.  NFT=host runs them with the host's nft instead (guest-selftests.sh
# then allows only that known SKIP).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../../lib/tap.sh
. "$top/lib/tap.sh"
# shellcheck source=../../kernel/lib.sh
. "$top/kernel/lib.sh"

# The groups the base's nft_concat_range.sh has (its "selftest-groups:").
all_groups=$(base_field selftest-groups)
# make check: reported_issues only, on both bases.  The correctness group
# (13 concatenated pipapo set types) took 1080 s of a 28-minute warm run
# on an AMD EPYC host (6.12; 250 s on 7.3), the longest step of make check.
# Every backend's lookups, pipapo's included, are compared with a model in
# the same patched kernels by the reliability steps' differential test and
# loaded from real rulesets by the corpus step; the group itself runs in
# make check-full.
quick_groups=reported_issues
groups_off=${NFTLAB_SELFTEST_GROUPS:-$quick_groups}
groups_on=${NFTLAB_SELFTEST_GROUPS:-correctness}
# One reported issue leaves make check on both bases: net_port_proto_match
# (200 elements added one nft command at a time, with packets before and
# after each) took 213 s of the 6.12 run's 296 s, and 319 s of the 7.3
# run's 385 s (2 vCPUs, AMD EPYC, 2026-12-04), the longest step of a
# make check that missed its 15-minute warm budget.  make check-full runs it on
# both bases; make check's reliability steps compare pipapo's lookups of
# concatenated intervals with the model in the same patched kernels.
omit_bugs=net_port_proto_match
# make check also sets upstream's own knob for a slow machine, which
# UML is for a script that forks nft and a packet sender per check:
# flush_remove_add goes from 100 rounds to 10, which took 67 s of the 7.3
# run and 75 s of the 6.12 one with 100.  check-full runs the full rounds.
slow_machine=yes
[ "${NFTLAB_CHECK_FULL:-0}" = 1 ] && slow_machine=no
if [ "${NFTLAB_CHECK_FULL:-0}" = 1 ] && [ -z "${NFTLAB_SELFTEST_GROUPS:-}" ]; then
	groups_off=$all_groups groups_on=$all_groups omit_bugs=
fi

# omit_bug SCRIPT NAME: takes NAME out of the script's list of reported
# issues (its BUGS="..." line); fails if NAME was not in it, so that a
# renamed case is seen, not silently run or lost.
omit_bug() {
	local script=$1 name=$2

	grep -qE "^BUGS=\".*\b${name}\b" "$script" || return 1
	sed -i -E "/^BUGS=\"/ { s/\b${name}\b//; s/  +/ /g; s/\" /\"/; s/ \"/\"/ }" "$script"
	! grep -qE "^BUGS=\".*\b${name}\b" "$script"
}

# The runs: knob-off and knob-on of the patched kernel where it has the
# lab knob (6.12), the patched kernel once where it has none (7.3), or the
# baseline of a base without feature patches.
variant=baseline
[ -z "$(series_patches feature)" ] || variant=patched
kernel=$("$top/kernel/builder/build" um "$variant" retpoline) || tap_bail "cannot build um $variant retpoline"
if [ "$variant" = baseline ]; then
	runs=baseline
elif has_lab_knob "$kernel"; then
	# The knob-on run checks the lab's forced-indirect path, not the
	# series: make check-full.
	runs=knob-off
	[ "${NFTLAB_CHECK_FULL:-0}" = 1 ] && runs="knob-off knob-on"
	: "${NFTLAB_KNOB_SYSCTL:=$(force_indirect_sysctl)}"
else
	runs=patched
fi
cpus=$(lab_cpus "$kernel")
tap_diag "kernel: $(sed -n 's/^base: //p' "$kernel/BUILD-INFO"), um $variant retpoline, $cpus vCPU(s), nft ${NFT:-current}"
run="$top/build/check/selftests-$NFTLAB_BASE"
rm -rf "$run"
mkdir -p "$run"

# Each guest keeps one host core busy and the host has two: the two
# guests of the patched kernel run side by side, their reports in a fixed
# order after.  Not with the timeout group: its 3-second elements expired
# before the check on a loaded host
# (docs/results/selftests-6.12-ct-20261201T181000Z/), so those runs go one at
# a time.
parallel=1
case " $groups_off $groups_on " in *" timeout "*) parallel=0 ;; esac

# guest RUN GROUPS [SYSCTL=VALUE]: one guest; its exit status and time in
# DIR/exit.
guest() {
	local dir="$run/$1" label=$1 groups=$2 start=$SECONDS rc
	shift 2

	"$top/kernel/runner/lab-run" --kernel "$kernel" --cpus "$cpus" --nft "${NFT:-current}" \
		--results "$dir" --timeout 1500 -- \
		env KSFT_MACHINE_SLOW=$slow_machine \
		"$top/tests/lab/guest-selftests.sh" "$label" "$groups" "$@" >"$dir/console.log" 2>&1
	rc=$?
	echo "$rc $((SECONDS - start))" >"$dir/exit"
}

for r in $runs; do
	dir="$run/$r"
	mkdir -p "$dir"
	"$top/tests/lab/extract-selftests" "$dir" > "$dir/extract.tap"
	tap_forward "$r: " "$dir/extract.tap"
	for b in $omit_bugs; do
		tap_check "$r: reported issue $b left to make check-full" \
			omit_bug "$dir/selftests/tools/testing/selftests/net/netfilter/nft_concat_range.sh" "$b"
	done
	args=()
	case "$r" in
	knob-off) groups=$groups_off args=("$NFTLAB_KNOB_SYSCTL=0") ;;
	knob-on) groups=$groups_on args=("$NFTLAB_KNOB_SYSCTL=1") ;;
	*) groups=$groups_off ;;
	esac
	tap_diag "$r: booting the guest: groups $groups, KSFT_MACHINE_SLOW=$slow_machine"
	if [ "$parallel" = 1 ]; then
		guest "$r" "$groups" "${args[@]}" &
	else
		guest "$r" "$groups" "${args[@]}"
	fi
done
wait
for r in $runs; do
	dir="$run/$r"
	read -r rc secs <"$dir/exit" || rc=1 secs='?'
	tap_diag "$r: guest exited $rc after ${secs}s (console: $dir/console.log)"
	tap_report "" "$dir/$r.tap" "$dir/console.log"
done
tap_end
