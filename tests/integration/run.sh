#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# nftlab integration tests against the running kernel: the cases of
# cases/, one file each, every one in a process and a fresh network
# namespace of its own, so that none depends on what another left behind;
# their TAP as one stream, each line under its case's name.
#
# Usage: NFTLAB=/path/to/nftlab [NFTLAB_WRAPPER="valgrind ..."] run.sh [CASE...]
#        run.sh --list
# CASE: a file of cases/ (maps, cases/maps.sh); none: every case.  A case
# also runs alone: NFTLAB=... tests/integration/cases/maps.sh
set -u
CASES=$(cd "$(dirname "$0")/cases" && pwd)
if [ "${1:-}" = --list ]; then
	for f in "$CASES"/*.sh; do basename "$f" .sh; done
	exit 0
fi
. "$(dirname "$0")/lib.sh"
# the cases inherit them, NFTLAB_BIG as well
export NFTLAB NFTLAB_WRAPPER

# run_case NAME: cases/NAME.sh, its lines forwarded as they come, then
# one line for the case as a whole: it exited 0 and its plan counts every
# line it printed.  A case that dies halfway (a shell error, a signal, a
# failed setup) fails here even if every line it got to print passed.
# Exit status 4 (the case skipped as a whole): its SKIP line says why.
run_case() {
	local name=$1 out=$TMP/$1.tap first=$tap_n rc plan

	# The case's status comes back in a file: the process substitution
	# writes it before its stdout closes, so it is there when
	# tap_forward has read the last line.  (A pipe into tap_forward
	# would count in a subshell.)
	tap_forward "$name: " <(
		"$CASES/$name.sh" | tee "$out"
		echo "${PIPESTATUS[0]}" > "$out.rc"
	)
	rc=$(cat "$out.rc")
	plan=$(sed -n 's/^1\.\.\([0-9][0-9]*\).*/\1/p' "$out")
	if [ "$rc" = 4 ]; then
		skipped=$((skipped + 1))
	elif [ "$rc" = 0 ] && [ "$plan" = $((tap_n - first)) ]; then
		ok "$name: ran to its plan of $plan tests, exit status 0"
	else
		not_ok "$name: exit status $rc, plan '${plan:-none}', $((tap_n - first)) test lines"
	fi
}

require
TMP=$(mktemp -d "${TMPDIR:-/tmp}/nftlab-run.XXXXXX") || skip_all "cannot create a temporary directory"
trap cleanup EXIT
trap 'exit 1' INT TERM
names=()
for arg in "$@"; do
	name=${arg##*/}
	name=${name%.sh}
	[ -f "$CASES/$name.sh" ] || tap_bail "no case '$arg' in $CASES (run.sh --list)"
	names+=("$name")
done
if [ ${#names[@]} -eq 0 ]; then
	for f in "$CASES"/*.sh; do names+=("$(basename "$f" .sh)"); done
fi
skipped=0
for name in "${names[@]}"; do
	run_case "$name"
done
# every case skipped (no netns with nf_tables): the run is a skip too
if [ "$skipped" -eq ${#names[@]} ]; then
	tap_end
	exit "$ksft_skip"
fi
finish
