#!/bin/bash
# Runs inside a lab guest: the base tree's nft_concat_range.sh (with the
# fixes of tests/lab/selftest-fixes/), extracted into
# $NFTLAB_RESULTS/selftests by the host, for the groups given, and turns its
# report into TAP in $NFTLAB_RESULTS/LABEL.tap.  Any FAIL, and any SKIP but
# the known one of nft 1.0.6 (when the guest runs that nft), is a failure:
# every tool and kernel option these groups need is part of the lab.
#
# Usage: guest-selftests.sh LABEL "GROUP ..." [SYSCTL=VALUE ...]
set -uo pipefail
# The guest's / is the host's: the checkout is there, read-only.
# shellcheck source=../../lib/tap.sh
. "$(dirname "$0")/../../lib/tap.sh"
label=$1 groups=$2
shift 2

for kv in "$@"; do
	sysctl -q -w "$kv" || { tap_check "$label: sysctl -w $kv failed" false; exit 1; }
done

# Which nft the guest runs (kernel/runner/lab-run --nft): the known SKIP
# below is nft 1.0.6's, allowed with that version only.
nft_version=$(nft --version 2>&1)
old_nft=0
case "$nft_version" in *" v1.0.6"*) old_nft=1 ;; esac

cd "$NFTLAB_RESULTS/selftests/tools/testing/selftests/net/netfilter" || exit 1
log="$NFTLAB_RESULTS/nft_concat_range-${label}.log"
# One run per group: the script stops at its first FAIL, which would hide
# every later group.
: > "$log"
for g in $groups; do
	NFT_CONCAT_RANGE_TESTS=$g ./nft_concat_range.sh >> "$log" 2>&1
	echo "NFTLAB-GROUP-EXIT $?" >> "$log"
done

awk -v label="$label" -v old_nft="$old_nft" -v nft_version="$nft_version" '
	# One known SKIP: nft 1.0.6 (Debian 12) converts "meta l4proto" in a
	# concatenation with a 2-byte byteorder over a 1-byte value, which
	# 6.12.117 rejects with EOPNOTSUPP ("no longer support multi-reg
	# conversions").  It is reported as a SKIP with that reason, never as a
	# pass; any other SKIP fails.
	function reset() { name = ""; l4proto_eopnotsupp = 0; nftcmd = "" }
	# The script prints "  %-32s  " before running a case: a name line is at
	# least 36 characters long; err_flush lines after a result are shorter.
	function is_name(line) { return line ~ /^  [^ ]/ && length(line) >= 36 }
	function cut(line) { line = substr(line, 3, 32); sub(/ +$/, "", line); return line }
	function result(line) { return is_name(line) ? cut(line) : name }
	BEGIN { reset(); printf "# %s: %s\n", label, nft_version }
	/^TEST: / { group = substr($0, 7); gbad = 0; reset(); next }
	# A group that exits non-zero must have reported why.
	/^NFTLAB-GROUP-EXIT / {
		if ($2 != 0 && !gbad) { n++; fail++; printf "not ok %d - %s: %s: exited %d without a FAIL line\n", n, label, group, $2 }
		next
	}
	/\[ OK \]$/ { n++; printf "ok %d - %s: %s: %s\n", n, label, group, result($0); reset(); next }
	/\[FAIL\]$/ {
		n++; fail++; gbad++
		printf "not ok %d - %s: %s: %s\n", n, label, group, result($0)
		reset(); next
	}
	/\[SKIP\]$/ {
		n++
		nm = result($0)
		if (l4proto_eopnotsupp && old_nft)
			printf "ok %d - %s: %s: %s # SKIP nft 1.0.6 emits a byteorder len != size for meta l4proto, rejected by 6.12.117 (EOPNOTSUPP)\n", n, label, group, nm
		else {
			printf "not ok %d - %s: %s: %s SKIPPED (only the known nft 1.0.6 case may skip)\n", n, label, group, nm
			fail++
		}
		reset(); next
	}
	is_name($0) && name == "" { name = cut($0) }
	/Could not process rule: Operation not supported/ { nftcmd = "eopnotsupp" }
	/meta l4proto/ && nftcmd == "eopnotsupp" { l4proto_eopnotsupp = 1 }
	{ printf "# %s\n", $0 }
	END {
		if (n == 0) { n++; printf "not ok %d - %s: nft_concat_range.sh reported nothing\n", n, label }
	}' "$log" > "$NFTLAB_RESULTS/${label}.tap"
grep -c '^ok ' "$NFTLAB_RESULTS/${label}.tap" | sed "s/^/$label: passed: /"
