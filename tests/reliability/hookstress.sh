#!/bin/bash
# Usage: tests/reliability/hookstress.sh [--cycles N] [--packets N] [--ops N] [--parts "PART ..."] RUNDIR [KERNEL ...]
#
# make check-debug's part hookstress (issue #52): patch 5 of series v6
# calls nf_tables base chains through static calls on CPUs that need
# retpolines (nf_hook_nft_set() at nf_tables init, nf_hook_nft_reset() at
# rmmod).  UML has no static calls, so only x86_64 kernels under QEMU TCG
# booted with spectre_v2=retpoline run that code.  Each KERNEL is built
# with nf_tables and br_netfilter as modules and booted once with 2 vCPUs
# to run tests/reliability/guest-hookstress.sh: nf_tables loaded and
# removed CYCLES times under traffic, nfnetlink_queue reinjection
# (tests/reliability/nfq-verdict.c), a bridge with br_netfilter, base
# chain and device churn on one CPU while packets cross a persistent chain
# on the other, and kprobes on nf_hook_slow, nf_hook_slow_nft and
# nft_do_chain_ipv4, every packet count exact.  Then the console is
# scanned for the kernel's reports (splats.py) and kmemleak's scan must be
# empty (debug kernel).  KERNEL is x86_64-BASE-KIND, BASE the base whose
# series the guest knows (kernel/builder/bases/: "hookstress: yes", today
# 7.3); the default is the first two:
#   x86_64-BASE-debug   patched: KASAN, lockdep, PROVE_RCU, kmemleak,
#                       failslab (--with debug), kprobes, smp, modules, brnf
#   x86_64-BASE-kcsan   patched: KCSAN (--with kcsan; it excludes KASAN),
#                       kprobes, smp, modules, brnf
#   x86_64-BASE-modules patched, modules only (check-series' modules item,
#                       which runs the parts unload and nfqueue on it): no
#                       checker but the console's, one CPU
#   NAME=DIR            boot the kernel directory DIR (e.g. an earlier
#                       build) as NAME, one of the three, instead of building
# --cycles  unload cycles (default 50)
# --packets pings each counted step sends (default 20)
# --ops     churn operations (default 300)
# On the KASAN kernel under TCG on a 2-core host an unload cycle took
# about 40 s on a quiet host, 75 s beside a kernel build and 110 s beside
# three other jobs, and a churn operation about 7.5 s
# (docs/results/hookstress-7.3-debug-20261206T180223Z; a run of
# 2026-12-06 12:37 UTC, since removed): the defaults take 1.5 to 3
# hours there, and check-debug passes them unless told
# (NFTLAB_HOOKSTRESS_CYCLES, NFTLAB_HOOKSTRESS_OPS); check-series' modules
# item passes 5 cycles and 1 operation.  The guest's time limit grows
# with the counts (lab-run's default, an hour, stopped the defaults in
# their 49th unload cycle).
# TAP on stdout; each guest's files in RUNDIR/hookstress-NAME/ (its
# counts in hookstress.json, its console in console.log).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../../lib/tap.sh
. "$top/lib/tap.sh"
# shellcheck source=guest-tap.sh
. "$top/tests/reliability/guest-tap.sh"
# shellcheck source=../../kernel/lib.sh
. "$top/kernel/lib.sh"

# The guest's parts (tests/reliability/guest-hookstress.sh), all by default.
all_parts="unload nfqueue bridge churn tracing"
cycles=50 packets=20 ops=300 parts=$all_parts
while [ $# -gt 0 ]; do
	case "$1" in
	--cycles) cycles=$2; shift 2 ;;
	--packets) packets=$2; shift 2 ;;
	--ops) ops=$2; shift 2 ;;
	--parts) parts=$2; shift 2 ;;
	-*) tap_bail "unknown option $1 (usage: hookstress.sh [--cycles N] [--packets N] [--ops N] [--parts \"PART ...\"] RUNDIR [KERNEL ...])" ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || tap_bail "usage: hookstress.sh [--cycles N] [--packets N] [--ops N] [--parts \"PART ...\"] RUNDIR [KERNEL ...]"
for n in "$cycles" "$packets" "$ops"; do
	case "$n" in '' | *[!0-9]* | 0) tap_bail "--cycles, --packets and --ops take a number, 1 or more (got '$n')" ;; esac
done
# The kernels are the hookstress base's, whatever base the caller's
# environment holds (check-debug.sh exports the long-term base's).
base=$(hookstress_base)
unset NFTLAB_BASE NFTLAB_PATCHES NFTLAB_SERIES_PREFIX
run=$1
shift
kernels=${*:-x86_64-$base-debug x86_64-$base-kcsan}
for p in $parts; do
	[[ " $all_parts " == *" $p "* ]] || tap_bail "--parts: unknown part '$p' ($all_parts)"
done
# The guest's time limit: half an hour for boot and the fixed parts, and
# about twice the slowest rates measured on a busy host (110 s a cycle,
# 7.5 s an operation) for the counted ones.
max_time=$((1800 + cycles * 200 + ops * 15))

# The guest's / is the host's: a host binary runs there.
nfqv=$top/build/reliability/nfq-verdict
mkdir -p "${nfqv%/*}" "$run"
cc -std=c11 -Wall -Wextra -Werror -O2 -o "$nfqv" "$top/tests/reliability/nfq-verdict.c" -lmnl ||
	tap_bail "cannot build tests/reliability/nfq-verdict.c (libmnl-dev: make deps)"

for k in $kernels; do
	name=${k%%=*} kernel=""
	[ "$name" = "$k" ] || kernel=${k#*=}
	guest_opt=() cpus=2
	case "$name" in
	"x86_64-$base-debug")
		build=(--base "$base" --with debug --with kprobes --with smp --with modules --with brnf
			x86_64 patched retpoline) ;;
	"x86_64-$base-kcsan")
		build=(--base "$base" --with kcsan --with kprobes --with smp --with modules --with brnf
			x86_64 patched retpoline)
		guest_opt=(--kcsan) ;;
	"x86_64-$base-modules")
		# check-series' modules item: no debug checker, no kprobes, no
		# ACPI (TCG boots one CPU of it), no br_netfilter
		build=(--base "$base" --with modules x86_64 patched retpoline)
		guest_opt=(--plain --cpus 1) cpus=1 ;;
	*) tap_bail "unknown kernel $name (x86_64-$base-debug x86_64-$base-kcsan x86_64-$base-modules, or NAME=DIR)" ;;
	esac
	if [ -z "$kernel" ]; then
		kernel=$("$top/kernel/builder/build" "${build[@]}") || tap_bail "cannot build $name (${build[*]})"
	fi
	if [ ! -r "$kernel/bzImage" ] || [ ! -d "$kernel/modules" ]; then
		tap_bail "$name: $kernel has no bzImage and modules/ (kernel/builder/build ${build[*]})"
	fi
	dir="$run/hookstress-$name"
	mkdir -p "$dir"
	cp "$kernel/BUILD-INFO" "$dir/BUILD-INFO"
	tap_diag "$name: $(sed -n 's/^name: //p' "$kernel/BUILD-INFO"), series: $(sed -n 's/^series: //p' "$kernel/BUILD-INFO")"
	start=$SECONDS
	# pci=noacpi: PCI interrupts routed by the BIOS's table, not ACPI's
	# _PRT.  With KASAN and lockdep under TCG on a busy 2-core host the
	# AML interpreter ran _PRT's loop past ACPICA's 30 s limit
	# (AE_AML_LOOP_TIMEOUT), the virtio devices got no IRQ ("PCI INT A: no
	# GSI") and the guest hung mounting its 9p root, twice in a row.
	# shellcheck disable=SC2086 # parts is a word list
	"$top/kernel/runner/lab-run" --arch x86_64 --base "$base" --cpus "$cpus" --mem 2G --kernel "$kernel" \
		--results "$dir" --max-time "$max_time" --append "spectre_v2=retpoline ignore_loglevel log_buf_len=16M pci=noacpi" -- \
		"$top/tests/reliability/guest-hookstress.sh" "${guest_opt[@]}" "$kernel/modules" "$nfqv" \
		"$cycles" "$packets" "$ops" $parts > "$dir/console.log" 2>&1
	rc=$?
	# The KCSAN kernel has no kmemleak.
	kmemleak=
	grep -qx 'CONFIG_DEBUG_KMEMLEAK=y' "$kernel/config" && kmemleak=$dir/kmemleak.txt
	# shellcheck disable=SC2086 # parts is a word list
	guest_tap "$name, $cpus CPU(s): " "$dir" "$rc" "$((SECONDS - start))" "$kernel/config" "$kmemleak" $parts
	# The counts sit beside the kernel's other results for summary.py.
	tap_check "$name: the guest wrote its counts (hookstress.json)" test -s "$dir/hookstress.json"
done
tap_end
