#!/bin/bash
# The userspace integration suite (tests/integration/run.sh), run inside the
# patched retpoline UML kernel instead of the host kernel.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../../lib/tap.sh
. "$top/lib/tap.sh"

make -s -C "$top/userspace" >/dev/null || tap_bail "cannot build userspace/nftlab"
kernel=$("$top/kernel/builder/build" um patched retpoline) || tap_bail "cannot build um patched retpoline"
run="$top/build/check/userspace-guest"
rm -rf "$run"
mkdir -p "$run"
# shellcheck disable=SC2016 # expanded in the guest
"$top/kernel/runner/lab-run" --kernel "$kernel" --results "$run" --timeout 600 -- \
	bash -c 'NFTLAB="$1" "$2" > "$NFTLAB_RESULTS/integration.tap" 2>&1' _ \
	"$top/userspace/build/nftlab" "$top/tests/integration/run.sh" > "$run/console.log" 2>&1
rc=$?
tap_report "in the lab kernel: " "$run/integration.tap" "$run/console.log"
tap_result "in the lab kernel: integration suite exit status" "$rc"
tap_end
