#!/bin/bash
# make check's short run of tests/reliability/ on the patched retpoline UML
# kernel (not the debug kernel: make check-debug builds and boots that): the
# differential test of every set backend against the reference model with a
# fixed seed, and the churn soak for a few seconds per backend.
# NFTLAB_RELIABILITY_SEED overrides the seed (1).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tap.sh
. "$top/tests/lab/tap.sh"

seed=${NFTLAB_RELIABILITY_SEED:-1}
kernel=$("$top/kernel/builder/build" um patched retpoline) || tap_bail "cannot build um patched retpoline"
run="$top/build/check/reliability"
rm -rf "$run"
mkdir -p "$run"
tap_diag "um patched retpoline, seed $seed (tests/reliability/differential.py --seed $seed reproduces)"
"$top/kernel/runner/lab-run" --kernel "$kernel" --results "$run" --timeout 900 -- \
	"$top/tests/reliability/guest-debug.sh" --plain "$seed" 3 - - differential soak \
	> "$run/console.log" 2>&1
tap_result "the guest exited 0" $?
tap_report "" "$run/differential.tap" "$run/console.log"
tap_report "" "$run/soak.tap" "$run/console.log"
python3 "$top/tests/reliability/summary.py" "$run" | sed 's/^/# /'
tap_end
