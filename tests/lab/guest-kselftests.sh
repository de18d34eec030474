#!/bin/bash
# Runs inside a lab guest: netfilter kselftests, one after the other,
# from NFDIR (extracted by tests/lab/kselftest-tree, read-only here).
# Each test's output goes to $NFTLAB_RESULTS/TEST.log and a line
# "TEST RC SECONDS" to $NFTLAB_RESULTS/results.txt, where RC is the
# script's exit status (4: kselftest's skip; 124: killed after TIMEOUT
# seconds).  The kernel's log ends up in $NFTLAB_RESULTS/dmesg.txt, where
# tests/reliability/splats.py looks for the kernel's reports.
# tests/lab/kselftest_compare.py reads them.
#
# Usage: guest-kselftests.sh NFDIR TIMEOUT TEST...
set -uo pipefail
nfdir=$1 limit=$2
shift 2
cd "$nfdir" || exit 1
: > "$NFTLAB_RESULTS/results.txt"
echo "kselftest: nft $(nft --version)"
for t in "$@"; do
	start=$SECONDS
	timeout --kill-after=10 "$limit" "./$t" > "$NFTLAB_RESULTS/$t.log" 2>&1
	rc=$?
	echo "$t $rc $((SECONDS - start))" >> "$NFTLAB_RESULTS/results.txt"
	echo "kselftest: $t exit $rc after $((SECONDS - start)) s"
done
dmesg > "$NFTLAB_RESULTS/dmesg.txt"
