#!/bin/bash
# Usage: tests/reliability/smp-debug.sh RUNDIR SEED SECONDS [KERNEL ...]
#
# make check-debug's SMP part: the debug kernels with 2 CPUs, each booted
# once to run the differential test, the churn soak and the concurrent
# stress (tests/reliability/guest-debug.sh differential soak stress), so
# that lookups and commits, GC and aborts run on different CPUs with the
# checkers on.  KERNEL (default: all four):
#   x86_64-6.12-debug   6.12 patched (our array), QEMU TCG: KASAN, lockdep,
#                       PROVE_RCU, kmemleak, failslab, kprobe events, ACPI
#                       (--with smp: QEMU's vCPUs are found through it)
#   x86_64-6.12-kcsan   6.12 patched, QEMU TCG: KCSAN, kprobe events
#   um-7.3-baseline     7.3 as released (upstream's array), UML SMP: the
#                       debug fragment (UML has no KCSAN)
#   um-7.3-patched      7.3 with series v5, UML SMP, the debug fragment
# TAP on stdout; each guest's files in RUNDIR/smp-KERNEL/.  SECONDS is the
# soak and stress time per backend.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../../lib/tap.sh
. "$top/lib/tap.sh"
# shellcheck source=guest-tap.sh
. "$top/tests/reliability/guest-tap.sh"

[ $# -ge 3 ] || tap_bail "usage: smp-debug.sh RUNDIR SEED SECONDS [KERNEL ...]"
# The kernels come from two bases: each is built from its own series and
# booted with its own base's guest (nft), whatever base the caller's
# environment holds (check-debug.sh exports 6.12's).
unset NFTLAB_BASE NFTLAB_PATCHES NFTLAB_SERIES_PREFIX
run=$1 seed=$2 secs=$3
shift 3
kernels=${*:-um-7.3-baseline um-7.3-patched x86_64-6.12-debug x86_64-6.12-kcsan}
parts="differential soak stress"

for k in $kernels; do
	guest_opt=() lab_opt=(--cpus 2)
	case "$k" in
	x86_64-6.12-debug)
		build=(--base 6.12 --with debug --with kprobes --with smp x86_64 patched retpoline)
		lab_opt+=(--base 6.12 --arch x86_64) ;;
	x86_64-6.12-kcsan)
		build=(--base 6.12 --with kcsan --with kprobes --with smp x86_64 patched retpoline)
		lab_opt+=(--base 6.12 --arch x86_64)
		guest_opt=(--kcsan) ;;
	um-7.3-baseline)
		build=(--base 7.3 --with debug um baseline retpoline)
		lab_opt+=(--base 7.3) ;;
	um-7.3-patched)
		build=(--base 7.3 --with debug um patched retpoline)
		lab_opt+=(--base 7.3) ;;
	*) tap_bail "unknown kernel $k (x86_64-6.12-debug x86_64-6.12-kcsan um-7.3-baseline um-7.3-patched)" ;;
	esac
	dir="$run/smp-$k"
	mkdir -p "$dir"
	kernel=$("$top/kernel/builder/build" "${build[@]}") || tap_bail "cannot build $k (${build[*]})"
	cp "$kernel/BUILD-INFO" "$dir/BUILD-INFO"
	start=$SECONDS
	# Under TCG with KASAN the guest runs some 20 times slower than UML.
	# shellcheck disable=SC2086 # parts is a word list
	"$top/kernel/runner/lab-run" "${lab_opt[@]}" --kernel "$kernel" --results "$dir" --mem 2G \
		--timeout $((2400 + 40 * ${secs%.*})) --append "ignore_loglevel log_buf_len=16M" -- \
		"$top/tests/reliability/guest-debug.sh" "${guest_opt[@]}" "$seed" "$secs" - - $parts \
		> "$dir/console.log" 2>&1
	rc=$?
	# The KCSAN kernel has no kmemleak.
	kmemleak=
	grep -qx 'CONFIG_DEBUG_KMEMLEAK=y' "$kernel/config" && kmemleak=$dir/kmemleak.txt
	# shellcheck disable=SC2086 # parts is a word list
	guest_tap "$k, 2 CPUs: " "$dir" "$rc" "$((SECONDS - start))" "$kernel/config" "$kmemleak" $parts
done
tap_end
