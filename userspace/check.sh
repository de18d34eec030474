#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# "make check": every test step in one run, TAP on stdout.  A step fails
# check when it exits with anything but 0 (pass) or 4 (skip, kselftest
# convention; its "ok N - ... # SKIP reason" line says what is missing).
# The integration suite runs twice in make check: the plain build, and
# the ASan/UBSan build (LeakSanitizer on) in the background, its output
# printed last.  A sanitizer report makes the binary exit 98, which no case
# expects: a leak on an error path (exit 1) cannot pass as the refusal the
# case wanted.  make check-full (NFTLAB_CHECK_FULL=1) runs it a third time
# under valgrind: that pass took 460 s of make check's 15-minute budget on
# an AMD EPYC host.
#
# Usage: check.sh BUILD_DIR
# shellcheck disable=SC2317  # the helpers run through step()
set -u
B=$(cd "${1:?usage: check.sh BUILD_DIR}" && pwd)
ROOT=$(cd "$(dirname "$0")/.." && pwd)
IT=$ROOT/tests/integration
# shellcheck source=../lib/tap.sh
. "$ROOT/lib/tap.sh"
export ASAN_OPTIONS=detect_leaks=1:exitcode=98
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=98
VALGRIND="valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=99"
rc=0

step() {
	local name=$1 status=0 t0=$SECONDS
	shift
	echo "# $name"
	"$@" || status=$?
	case $status in
	0|4) ;;
	*) echo "# $name: exit status $status"; rc=1 ;;
	esac
	echo "# $name: $((SECONDS - t0))s"
}

with_nftlab() {
	local bin=$1
	shift
	NFTLAB=$bin "$@"
}

# Each step's TAP is a stream of its own, numbered from 1: the steps below
# run in subshells.
# libFuzzer on the parsers for FUZZ_TIME (20) seconds; one TAP line
fuzz_run() (
	out=$B/fuzz.log status=0
	mkdir -p "$B/fuzz-corpus"
	"$B/fuzz" -max_total_time="${FUZZ_TIME:-20}" -rss_limit_mb=1024 \
		"$B/fuzz-corpus" "$ROOT/tests/fuzz/corpus" > "$out" 2>&1 || status=$?
	if [ "$status" -eq 4 ]; then
		tap_skip "fuzz parsers" "$(head -1 "$out")"
		tap_end
		exit 4
	fi
	if [ "$status" -eq 0 ]; then
		tap_check "fuzz parsers for ${FUZZ_TIME:-20} s ($(grep -o 'Done [0-9]* runs' "$out"))" true
	else
		tap_check "fuzz parsers: crash or property failure, see $out" false
		grep -E 'ERROR|SUMMARY|Test unit written' "$out" | tap_diag_lines ""
	fi
	tap_end
)

valgrind_run() (
	if ! command -v valgrind >/dev/null; then
		tap_skip "valgrind" "valgrind not installed"
		exit 4
	fi
	NFTLAB=$B/nftlab NFTLAB_WRAPPER="$VALGRIND" NFTLAB_BIG=0 "$IT/run.sh"
)

# the slowest passes run in the background, each case in its own netns
full=${NFTLAB_CHECK_FULL:-0}
if [ "$full" = 1 ]; then
	valgrind_run > "$B/valgrind.tap" 2>&1 &
	vg=$!
fi
NFTLAB_BIG=0 with_nftlab "$B/asan/nftlab" "$IT/run.sh" > "$B/asan-integration.tap" 2>&1 &
asan=$!

step "unit" "$B/unit"
step "unit (ASan/UBSan)" "$B/asan/unit"
step "cli" with_nftlab "$B/nftlab" "$IT/cli.sh"
step "cli (ASan/UBSan)" with_nftlab "$B/asan/nftlab" "$IT/cli.sh"
step "integration" with_nftlab "$B/nftlab" "$IT/run.sh"
step "nft equivalence" with_nftlab "$B/nftlab" "$IT/nft-equiv.sh"
step "fuzz (libFuzzer, ASan/UBSan)" fuzz_run
step "integration (ASan/UBSan)" wait "$asan"
cat "$B/asan-integration.tap"
if [ "$full" = 1 ]; then
	step "integration (valgrind)" wait "$vg"
	cat "$B/valgrind.tap"
fi
exit "$rc"
