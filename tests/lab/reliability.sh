#!/bin/bash
# make check's short run of tests/reliability/ on the patched retpoline UML
# kernel (not the debug kernel: make check-debug builds and boots that): the
# differential test of every set backend against the reference model with a
# fixed seed and the churn soak for a few seconds per backend.  On 7.3 the
# guest has 2 CPUs (UML SMP) and also runs the concurrent stress
# (stress.py), whose commits, aborts and GC run beside pktgen's lookups;
# 6.12's one-CPU stress is check-debug's (the budget of a warm make check).
# NFTLAB_RELIABILITY_SEED overrides the seed (1).  The base: NFTLAB_BASE
# (the default base unless set; on 7.3 it checks series v5's rbtree lookup, and 7.3's
# own array, against the model, with the guest's current nft).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../../lib/tap.sh
. "$top/lib/tap.sh"
# shellcheck source=../../kernel/lib.sh
. "$top/kernel/lib.sh"

seed=${NFTLAB_RELIABILITY_SEED:-1}
kernel=$("$top/kernel/builder/build" um patched retpoline) || tap_bail "cannot build um patched retpoline"
run="$top/build/check/reliability-$NFTLAB_BASE"
rm -rf "$run"
mkdir -p "$run"
# The stress phase races two CPUs: on a kernel that runs on two
# (kernel/lib.sh lab_cpus) only.
phases="differential soak" cpus=$(lab_cpus "$kernel")
[ "$cpus" = 1 ] || phases+=" stress"
tap_diag "$(sed -n 's/^base: //p' "$kernel/BUILD-INFO"), um patched retpoline, $cpus CPU(s), seed $seed (tests/reliability/differential.py --seed $seed reproduces), $phases"
# shellcheck disable=SC2086 # phases is a word list
"$top/kernel/runner/lab-run" --cpus "$cpus" --kernel "$kernel" --results "$run" --timeout 900 -- \
	"$top/tests/reliability/guest-debug.sh" --plain "$seed" 3 - - $phases \
	> "$run/console.log" 2>&1
tap_result "the guest exited 0" $?
for p in $phases; do
	tap_report "" "$run/$p.tap" "$run/console.log"
done
python3 "$top/tests/reliability/summary.py" "$run" | sed 's/^/# /'
tap_end
