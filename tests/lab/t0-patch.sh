#!/bin/bash
# Step t0-patch of make check-full (tests/run-check): the worked example of
# docs/measure-your-patch.md.  `make t0 BASE=7.3 PATCH=...` on each sample
# of tests/t0-patch/ (one adds an indirect call to nft_do_chain(), one
# makes nft_objref_eval()'s call of named counters direct), the drop and
# hash cells only (CELLS=), then tests/t0-patch/check-report.py: +1 / -1
# retpoline thunk per packet (=off: plain indirect call) per call of the
# function the sample changed, that function's code changed and named by
# the report's attribution, and the chart.  Builds the 7.3 x86_64 baseline
# kernel if it is not built (cold about 20 min on 2 cores) and one kernel
# per sample (ccache: a few minutes), then 12 QEMU TCG boots per sample.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../../lib/tap.sh
. "$top/lib/tap.sh"

logdir="$top/build/check/t0-patch"
rm -rf "$logdir"
mkdir -p "$logdir"
for sample in add remove; do
	start=$SECONDS
	make -s -C "$top" t0 BASE=7.3 CELLS=drop,hash PATCH="tests/t0-patch/${sample}-indirect-call.mbox" \
		> "$logdir/$sample.log" 2>&1
	rc=$?
	tap_diag "make t0 BASE=7.3 PATCH=tests/t0-patch/${sample}-indirect-call.mbox: exit $rc after $((SECONDS - start))s (log: $logdir/$sample.log)"
	tap_result "make t0 PATCH= on the sample that ${sample}s an indirect call" "$rc"
	results=$(sed -n 's|^results: \(.*\)/t0/patch.md$|\1|p' "$logdir/$sample.log" | tail -n 1)
	if [ -z "$results" ] || [ ! -f "$results/t0/patch.md" ]; then
		tail -n 30 "$logdir/$sample.log" | sed 's/^/# /'
		tap_result "the $sample run has a report" 1
		continue
	fi
	tap_sub "the report of the $sample sample ($results)" python3 "$top/tests/t0-patch/check-report.py" "$results" "$sample"
done
tap_end
