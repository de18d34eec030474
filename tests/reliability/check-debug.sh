#!/bin/bash
# make check-debug: the patched UML lab kernel with KASAN, lockdep,
# PROVE_RCU, DEBUG_ATOMIC_SLEEP, kmemleak and failslab (kernel/builder/build --with
# debug; every option of kernel/config/extra-debug.config is checked to
# stick), booted once to run tests/reliability/guest-debug.sh: the
# differential test of the set backends, failslab during nftlab bulk loads
# and during commits of an rbtree set with an expired interval
# (commit-alloc.py), the churn soak, the concurrent stress (stress.py) and
# nft_concat_range.sh's concurrency and timeout groups.
# Part smp runs the soak where UML cannot: in the x86_64 baseline and
# patched kernels under QEMU with 2 vCPUs (tests/reliability/soak-smp.sh).
# Part smpdebug boots the debug kernels with 2 CPUs (x86_64 6.12 with
# KASAN and with KCSAN under QEMU, 7.3 baseline and patched UML SMP) for
# the differential test, the soak and the stress
# (tests/reliability/smp-debug.sh).
# Part hookstress boots the x86_64 7.3 patched kernels with KASAN and with
# KCSAN (nf_tables and br_netfilter as modules, 2 vCPUs,
# spectre_v2=retpoline) to stress the static calls of patch 5: nf_tables
# loaded and removed under traffic, nfnetlink_queue reinjection, a bridge
# with br_netfilter, base chain churn on one CPU while packets cross a
# persistent chain on the other, kprobes on nf_hook_slow,
# nf_hook_slow_nft and nft_do_chain_ipv4; every packet count exact
# (tests/reliability/hookstress.sh).
# Then each console is scanned for the kernel's reports (any report fails
# the run and is kept as splat-N.txt) and kmemleak's scan must be empty.
#
# Results: build/results/debug-<base>-<UTC>/ (TAP of each part, JSON
# reports, console.log, summary.md).  Environment:
#   NFTLAB_DEBUG_SEED     seed of the differential test and the soak
#                         (default: the clock; printed, reproducible)
#   NFTLAB_SOAK_SECONDS   soak and stress time per backend (default 20)
#   NFTLAB_DEBUG_GROUPS   nft_concat_range.sh groups (default
#                         "concurrency timeout")
#   NFTLAB_DEBUG_PARTS    subset of "differential faults commitalloc soak stress
#                         selftests smp smpdebug hookstress"
#   NFTLAB_HOOKSTRESS_CYCLES, NFTLAB_HOOKSTRESS_OPS
#                         hookstress's nf_tables unload cycles (default 50)
#                         and churn operations (default 300) per kernel
#   NFTLAB_DEBUG_KERNEL   a debug UML kernel directory to boot instead of
#                         building the patched one (e.g. an earlier
#                         revision: kernel/builder/build --rev REV --tag NAME
#                         --with debug um patched retpoline)
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../../lib/tap.sh
. "$top/lib/tap.sh"
# shellcheck source=../../kernel/lib.sh
. "$top/kernel/lib.sh"
# shellcheck source=guest-tap.sh
. "$top/tests/reliability/guest-tap.sh"

seed=${NFTLAB_DEBUG_SEED:-$(date +%s)}
soak_s=${NFTLAB_SOAK_SECONDS:-20}
groups=${NFTLAB_DEBUG_GROUPS:-concurrency timeout}
parts=${NFTLAB_DEBUG_PARTS:-differential faults commitalloc soak stress selftests smp smpdebug hookstress}
guest_parts=$(tr ' ' '\n' <<<"$parts" | grep -vxE 'smp|smpdebug|hookstress' | paste -sd ' ' -)
case "$seed$soak_s" in *[!0-9.]*) tap_bail "NFTLAB_DEBUG_SEED and NFTLAB_SOAK_SECONDS are numbers" ;; esac

if [ -n "${NFTLAB_DEBUG_KERNEL:-}" ]; then
	kernel=$NFTLAB_DEBUG_KERNEL
	if [ ! -x "$kernel/linux" ] || [ ! -r "$kernel/BUILD-INFO" ]; then
		tap_bail "NFTLAB_DEBUG_KERNEL=$kernel: no UML kernel (linux and BUILD-INFO) there"
	fi
else
	kernel=$("$top/kernel/builder/build" --with debug um patched retpoline) ||
		tap_bail "cannot build the debug kernel (um patched retpoline --with debug)"
fi
make -s -C "$top/userspace" >/dev/null || tap_bail "cannot build nftlab"
run="$top/build/results/$(python3 "$top/lib/rundir.py" debug "$NFTLAB_BASE")" || tap_bail "no run directory name"
mkdir -p "$run"
{
	echo "kernel: $(sed -n 's/^name: //p' "$kernel/BUILD-INFO") ($(sed -n 's/^base: //p' "$kernel/BUILD-INFO"))"
	echo "series: $(sed -n 's/^series: //p' "$kernel/BUILD-INFO")"
	echo "build: $(sed -n 's/^stamp: //p' "$kernel/BUILD-INFO")"
	echo "cpu: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
	echo "seed: $seed, soak: ${soak_s}s per backend, selftest groups: $groups"
	echo "parts: $parts (the debug kernel is UML, one CPU: it has every checker of the debug fragment; smp: x86_64 under QEMU, 2 vCPUs, no debug options; smpdebug: the debug kernels with 2 CPUs, see tests/reliability/smp-debug.sh; hookstress: x86_64 7.3 KASAN and KCSAN kernels, 2 vCPUs, retpolines, see tests/reliability/hookstress.sh)"
	echo "date: $(date -u +%FT%TZ)"
} > "$run/run-info.txt"
sed 's/^/# /' "$run/run-info.txt"

if [[ " $parts " == *" selftests "* ]]; then
	"$top/tests/lab/extract-selftests" "$run" > "$run/extract.tap"
	tap_forward "" "$run/extract.tap"
fi

# The one-CPU guest runs only when a part of it was asked for.
if [ -n "$guest_parts" ]; then
	# KASAN and lockdep make the guest several times slower than the plain
	# lab kernel; the timeout leaves room for the slowest part (selftests).
	# Every kernel message goes to the console: lockdep and WARN() print at
	# KERN_WARNING, which the lab's "quiet" would hide.
	start=$SECONDS
	# shellcheck disable=SC2086 # parts is a word list
	"$top/kernel/runner/lab-run" --kernel "$kernel" --results "$run" --mem 2G --timeout 5400 \
		--append "ignore_loglevel log_buf_len=16M" -- \
		"$top/tests/reliability/guest-debug.sh" "$seed" "$soak_s" "$top/userspace/build/nftlab" \
		"$groups" $guest_parts > "$run/console.log" 2>&1
	rc=$?
	# This kernel always has kmemleak: its scan must be empty.
	# shellcheck disable=SC2086 # guest_parts is a word list
	guest_tap "" "$run" "$rc" "$((SECONDS - start))" "$kernel/config" "$run/kmemleak.txt" $guest_parts
fi
if [[ " $parts " == *" smp "* ]]; then
	"$top/tests/reliability/soak-smp.sh" "$run" "$seed" "$soak_s" > "$run/smp.tap"
	tap_forward "" "$run/smp.tap"
fi
if [[ " $parts " == *" smpdebug "* ]]; then
	"$top/tests/reliability/smp-debug.sh" "$run" "$seed" "$soak_s" > "$run/smpdebug.tap"
	tap_forward "" "$run/smpdebug.tap"
fi
if [[ " $parts " == *" hookstress "* ]]; then
	"$top/tests/reliability/hookstress.sh" --cycles "${NFTLAB_HOOKSTRESS_CYCLES:-50}" \
		--ops "${NFTLAB_HOOKSTRESS_OPS:-300}" "$run" > "$run/hookstress.tap"
	tap_forward "" "$run/hookstress.tap"
fi
python3 "$top/tests/reliability/summary.py" "$run" | sed 's/^/# /'
tap_end
