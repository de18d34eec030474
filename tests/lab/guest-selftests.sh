#!/bin/bash
# Runs inside a lab guest: the base tree's unmodified nft_concat_range.sh,
# extracted into $NFTLAB_RESULTS/selftests by the host, for the groups given,
# and turns its report into TAP in $NFTLAB_RESULTS/LABEL.tap.  Any SKIP fails the "no SKIP" line: every
# tool and kernel option these groups need is part of the lab.
#
# Usage: guest-selftests.sh LABEL "GROUP ..." [SYSCTL=VALUE ...]
set -uo pipefail
label=$1 groups=$2
shift 2

for kv in "$@"; do
	sysctl -q -w "$kv" || { echo "not ok 1 - $label: sysctl -w $kv failed"; exit 1; }
done

cd "$NFTLAB_RESULTS/selftests/tools/testing/selftests/net/netfilter" || exit 1
log="$NFTLAB_RESULTS/nft_concat_range-${label}.log"
NFT_CONCAT_RANGE_TESTS=$groups ./nft_concat_range.sh > "$log" 2>&1
rc=$?

awk -v label="$label" -v rc="$rc" '
	/^TEST: / { group = substr($0, 7); next }
	/\[ OK \]$/ { n++; printf "ok %d - %s: %s: %s\n", n, label, group, name($0); next }
	/\[FAIL\]$/ { n++; printf "not ok %d - %s: %s: %s\n", n, label, group, name($0); fail++; next }
	/\[SKIP\]$/ { n++; printf "not ok %d - %s: %s: %s SKIPPED (nothing may be skipped)\n", n, label, group, name($0); fail++; next }
	{ printf "# %s\n", $0 }
	function name(line) { sub(/^  /, "", line); sub(/ +[0-9]+s.*$/, "", line); return line }
	END {
		if (rc != 0 && !fail) { n++; printf "not ok %d - %s: nft_concat_range.sh exited %d\n", n, label, rc }
		if (n == 0) { n++; printf "not ok %d - %s: nft_concat_range.sh reported nothing\n", n, label }
	}' "$log" > "$NFTLAB_RESULTS/${label}.tap"
grep -c '^ok ' "$NFTLAB_RESULTS/${label}.tap" | sed "s/^/$label: passed: /"
