#!/bin/bash
# Usage: tests/reliability/smp-debug.sh RUNDIR SEED SECONDS [KERNEL ...]
#
# make check-debug's SMP part: the debug kernels with 2 CPUs, each booted
# once to run the differential test, the churn soak and the concurrent
# stress (tests/reliability/guest-debug.sh differential soak stress), so
# that lookups and commits, GC and aborts run on different CPUs with the
# checkers on.  KERNEL is ARCH-BASE-KIND, BASE a file of
# kernel/builder/bases/; the default is all four of:
#   x86_64-LTS-debug    the long-term base ("lts: yes", today 6.12)
#                       patched, QEMU TCG: KASAN, lockdep, PROVE_RCU,
#                       kmemleak, failslab, kprobe events, ACPI (--with
#                       smp: QEMU's vCPUs are found through it)
#   x86_64-LTS-kcsan    the same base patched, QEMU TCG: KCSAN, kprobe
#                       events
#   um-DEF-baseline     the default base ("default: yes", today 7.3) as
#                       released, UML SMP (7.3's UML has SMP): the debug
#                       fragment (UML has no KCSAN)
#   um-DEF-patched      the same with its series, UML SMP, the debug
#                       fragment
# TAP on stdout; each guest's files in RUNDIR/smp-KERNEL/.  SECONDS is the
# soak and stress time per backend.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../../lib/tap.sh
. "$top/lib/tap.sh"
# shellcheck source=guest-tap.sh
. "$top/tests/reliability/guest-tap.sh"
# shellcheck source=../../kernel/lib.sh
. "$top/kernel/lib.sh"

[ $# -ge 3 ] || tap_bail "usage: smp-debug.sh RUNDIR SEED SECONDS [KERNEL ...]"
# The kernels come from two bases: each is built from its own series and
# booted with its own base's guest (nft), whatever base the caller's
# environment holds (check-debug.sh exports the long-term base's).
unset NFTLAB_BASE NFTLAB_PATCHES NFTLAB_SERIES_PREFIX
run=$1 seed=$2 secs=$3
shift 3
# The default kernels: the upstream base's UML kernels and the long-term
# base's x86_64 debug kernels (kernel/builder/bases/: "default: yes" and
# "lts: yes").  A name is ARCH-BASE-KIND.
def=$(default_base) lts=$(lts_base)
kernels=${*:-um-$def-baseline um-$def-patched x86_64-$lts-debug x86_64-$lts-kcsan}
parts="differential soak stress"

for k in $kernels; do
	guest_opt=() lab_opt=(--cpus 2)
	arch=${k%%-*} base=${k#*-} kind=${k##*-}
	base=${base%-*}
	[ -f "$top/kernel/builder/bases/$base" ] || tap_bail "kernel $k: unknown base '$base' ($(known_bases | paste -sd ' ' -))"
	case "$arch-$kind" in
	x86_64-debug)
		build=(--base "$base" --with debug --with kprobes --with smp x86_64 patched retpoline)
		lab_opt+=(--base "$base" --arch x86_64) ;;
	x86_64-kcsan)
		build=(--base "$base" --with kcsan --with kprobes --with smp x86_64 patched retpoline)
		lab_opt+=(--base "$base" --arch x86_64)
		guest_opt=(--kcsan) ;;
	um-baseline | um-patched)
		build=(--base "$base" --with debug um "$kind" retpoline)
		lab_opt+=(--base "$base") ;;
	*) tap_bail "unknown kernel $k (ARCH-BASE-KIND: x86_64-BASE-debug, x86_64-BASE-kcsan, um-BASE-baseline, um-BASE-patched)" ;;
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
