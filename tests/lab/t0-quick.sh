#!/bin/bash
# Step t0 of make check-full (tests/run-check), T0 quick: exact per-packet
# counts in the patched x86_64 retpoline kernel under QEMU TCG with the
# pktcount plugin (nft_concat_range/t0.py).  A few scenarios, knob 0 and
# 1, spectre_v2=retpoline; one boot, two passes over the cells, which must
# print identical numbers (that is what "exact" means, and t0.py validate
# checks it).  The full T0 (baseline and patched, spectre_v2=retpoline and
# off) runs in `make bench`.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../../lib/tap.sh
. "$top/lib/tap.sh"

run="$top/build/check/t0"
rm -rf "$run"
mkdir -p "$run"
# The T0 tools' unit tests are in make check's step units (tests/run-check).
make -s -C "$top/nft_concat_range/tcg" O="$top/build/tcg" > "$run/plugin.log" 2>&1
rc=$?
tap_result "pktcount TCG plugin builds against the installed QEMU's plugin API" "$rc"
[ "$rc" -eq 0 ] || { sed 's/^/# /' "$run/plugin.log"; tap_bail "no TCG plugin"; }

start=$SECONDS
python3 "$top/nft_concat_range/t0.py" run --quick --variants patched --mitigations retpoline \
	--rounds 1 --reps 2 --results "$run" > "$run/t0.log" 2>&1
rc=$?
tap_diag "t0.py run --quick exited $rc after $((SECONDS - start))s (log: $run/t0.log)"
tap_result "T0 quick: the QEMU boot counted every scenario twice" "$rc"
[ -s "$run/t0/t0.md" ] && sed 's/^/# /' "$run/t0/t0.md"
tap_sub "t0.py validate" python3 "$top/nft_concat_range/t0.py" validate "$run"
tap_end
