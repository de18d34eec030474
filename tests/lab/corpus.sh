#!/bin/bash
# Usage: tests/lab/corpus.sh [--arch um|x86_64] [--update-expected] [NAME...]
#
# The ruleset corpus (tests/corpus/) in the baseline and the patched
# retpoline lab kernels: guest-corpus.sh loads every file with `nft -f` in
# namespaces of its own, lists it back and runs its traffic checks; here
# each listing is compared with the expected dump of the base tree's kernel
# family (tests/corpus/expected-6.12/, expected-7.3/: listings differ
# between kernel and nft versions, and 7.3's guests run a newer nft, see
# kernel/builder/bases/) and baseline with patched: any difference between
# the two is a bug in the series.
#
# make check runs it on UML in the patched kernel alone: its listings must
# match the expected dumps and its traffic checks pass, which leaves the
# baseline nothing to disagree on.  make check-full (NFTLAB_CHECK_FULL=1)
# runs both kernels and compares them, on UML and on x86_64 under QEMU TCG
# (slow).  --update-expected (both kernels) writes the baseline kernel's
# listings as the new expected dumps (review them before a commit).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../../lib/tap.sh
. "$top/lib/tap.sh"
# shellcheck source=../../kernel/lib.sh
. "$top/kernel/lib.sh"

arches=um update=0 variants=patched
if [ "${NFTLAB_CHECK_FULL:-0}" = 1 ]; then arches="um x86_64" variants="baseline patched"; fi
while [ $# -gt 0 ]; do
	case "$1" in
	--arch) arches=$2; shift 2 ;;
	--update-expected) update=1 variants="baseline patched"; shift ;;
	-*) tap_bail "unknown option $1" ;;
	*) break ;;
	esac
done

corpus="$top/tests/corpus"
# The kernel family of the base tree: "6.12" from 6.12.117-1~deb12u1.
family=$(upstream_version "$(pinned_base_version)" | cut -d. -f1,2)
expected="$corpus/expected-$family"
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
	for f in "$corpus"/*.nft "$corpus"/*.gen; do
		[ -f "$f" ] || continue
		f=${f##*/}
		names+=("${f%.*}")
	done
fi

# What is compared: the listing minus the time left on elements with a
# timeout ("expires 9m59s990ms"), which no two runs share.
normalise() { sed -E 's/ expires [0-9dhms]+//' "$1"; }
# A generated file's listing is too large to commit: its expected dump is
# the sha256 and the line count of the normalised listing.
digest() { printf '%s %s\n' "$(normalise "$1" | sha256sum | cut -d' ' -f1)" "$(normalise "$1" | wc -l)"; }
is_gen() { [ -f "$corpus/$1.gen" ]; }

listing_matches() {	# listing_matches NAME LISTING
	if is_gen "$1"; then
		[ -f "$expected/$1.sha256" ] && [ "$(digest "$2")" = "$(cat "$expected/$1.sha256")" ]
	else
		[ -f "$expected/$1.list" ] && diff -u "$expected/$1.list" <(normalise "$2") > "$2.diff"
	fi
}

for arch in $arches; do
	run="$top/build/check/corpus-$arch"
	rm -rf "$run"
	mkdir -p "$run"
	timeout=600
	[ "$arch" = x86_64 ] && timeout=2400
	# Both kernels at once: the guests are single-threaded and the machine
	# has two cores.
	declare -A kernel=() pid=() started=()
	for v in $variants; do
		kernel[$v]=$("$top/kernel/builder/build" "$arch" "$v" retpoline) || kernel[$v]=""
		tap_check "$arch $v retpoline kernel builds" test -n "${kernel[$v]}"
	done
	for v in $variants; do
		[ -n "${kernel[$v]}" ] || continue
		mkdir -p "$run/$v"
		started[$v]=$SECONDS
		# shellcheck disable=SC2016 # expanded in the guest
		"$top/kernel/runner/lab-run" --arch "$arch" --kernel "${kernel[$v]}" --results "$run/$v" \
			--timeout "$timeout" -- bash -c '"$1" "$2" "$NFTLAB_RESULTS/out" "${@:3}" > "$NFTLAB_RESULTS/corpus.tap" 2>&1' \
			_ "$top/tests/lab/guest-corpus.sh" "$corpus" "${names[@]}" > "$run/$v/console.log" 2>&1 &
		pid[$v]=$!
	done
	for v in $variants; do
		[ -n "${pid[$v]:-}" ] || continue
		wait "${pid[$v]}"
		rc=$?
		tap_diag "$arch $v: guest exited $rc after $((SECONDS - ${started[$v]}))s (console: $run/$v/console.log)"
		tap_report "$arch $v: " "$run/$v/corpus.tap" "$run/$v/console.log"
		tap_result "$arch $v: guest corpus run exit status" "$rc"
	done

	for name in "${names[@]}"; do
		for v in $variants; do
			got="$run/$v/out/$name.list"
			if [ ! -s "$got" ]; then
				tap_check "$arch $v: $name: listed back (no $got)" false
				continue
			fi
			if listing_matches "$name" "$got"; then
				tap_check "$arch $v: $name: listing matches expected-$family" true
			else
				tap_check "$arch $v: $name: listing matches expected-$family" false
				[ -f "$got.diff" ] && head -n 20 "$got.diff" | sed 's/^/# /'
			fi
		done
		# The series must not change what nf_tables does: same listing,
		# same outcome of every check.
		[ "$variants" = "baseline patched" ] || continue
		same=0
		for f in list results; do
			cmp -s <(normalise "$run/baseline/out/$name.$f" 2>/dev/null) \
				<(normalise "$run/patched/out/$name.$f" 2>/dev/null) || same=1
			[ -s "$run/baseline/out/$name.$f" ] || same=1
		done
		if [ "$same" -ne 0 ]; then
			diff <(cat "$run/baseline/out/$name.results") <(cat "$run/patched/out/$name.results") 2>&1 |
				head -n 10 | sed 's/^/# baseline vs patched: /'
		fi
		tap_result "$arch: $name: baseline and patched give the same listing and results" "$same"
	done

	if [ "$update" = 1 ]; then
		mkdir -p "$expected"
		for name in "${names[@]}"; do
			got="$run/baseline/out/$name.list"
			[ -s "$got" ] || continue
			if is_gen "$name"; then
				digest "$got" > "$expected/$name.sha256"
			else
				normalise "$got" > "$expected/$name.list"
			fi
		done
		tap_diag "expected dumps written to $expected from $arch baseline: review them"
	fi
	unset kernel pid started
done
tap_end
