#!/bin/bash
# The patched kernel on real x86_64: built with CONFIG_MITIGATION_RETPOLINE=y
# (objtool clean, checked by kernel/builder/build), booted under QEMU TCG with the
# host's / over read-only virtio-9p, smoke-tested with guest-smoke.sh, then
# (make check-full) the benchmark's guest side runs the T2 and T4 scenarios
# once in it.
# TCG is for function only: nothing here is timed.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../../lib/tap.sh
. "$top/lib/tap.sh"

kernel=$("$top/kernel/builder/build" x86_64 patched retpoline)
tap_check "x86_64 patched retpoline kernel builds, objtool clean" test -s "${kernel:-/nonexistent}/bzImage"
[ -s "${kernel:-/nonexistent}/bzImage" ] || tap_bail "no x86_64 kernel"
tap_check "x86_64 kernel has CONFIG_MITIGATION_RETPOLINE=y" grep -qx 'CONFIG_MITIGATION_RETPOLINE=y' "$kernel/config"

run="$top/build/check/x86_64"
rm -rf "$run"
mkdir -p "$run"
start=$SECONDS
"$top/kernel/runner/lab-run" --arch x86_64 --kernel "$kernel" --results "$run" --timeout 300 -- \
	"$top/tests/lab/guest-smoke.sh" > "$run/console.log" 2>&1
rc=$?
tap_diag "QEMU TCG guest exited $rc after $((SECONDS - start))s (console: $run/console.log)"
tap_report "x86_64: " "$run/smoke.tap" "$run/console.log"
tap_result "x86_64: guest smoke test exit status" "$rc"

# The benchmark's guest side, unchanged, in the same kernel, validity only
# (TCG rates mean nothing): the T2 and T4 scenarios, i.e. the three set
# backends with the knob both ways, the drop cell and the egress hook.  All
# tables take about 7.5 minutes under TCG (every process start is slow
# there); the UML step bench-quick runs all of them.  make check leaves this
# to check-full: its step t0 runs the same guest side (run-plan) in this
# kernel, counted, and the warm make check must stay under 15 minutes.
if [ "${NFTLAB_CHECK_FULL:-0}" = 1 ]; then
	bres="$run/bench"
	start=$SECONDS
	"$top/nft_concat_range/bench" --quick --arch x86_64 --no-build --tables T2,T4 --results "$bres" \
		> "$run/bench.log" 2>&1
	rc=$?
	tap_diag "bench --quick --arch x86_64 --tables T2,T4 exited $rc after $((SECONDS - start))s (log: $run/bench.log)"
	tap_result "x86_64: bench --quick (T2, T4) ran in the QEMU guest" "$rc"
	tap_sub "x86_64 bench: nft_concat_range/bench validate" "$top/nft_concat_range/bench" validate "$bres"
else
	tap_skip "x86_64: bench --quick (T2, T4) in the QEMU guest" "make check-full only (step t0 runs run-plan in this kernel)"
fi
tap_end
