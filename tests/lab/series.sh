#!/bin/bash
# Static checks of the patch series: every patch applies in order (the
# patched tree exists), is checkpatch.pl --strict clean, and the built
# kernels call the set backends, dynset ops and nf_tables chain functions
# directly (kernel/checks/check-direct-calls on the UML retpoline binary;
# make check-full: and on the x86_64 vmlinux).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../../lib/tap.sh
. "$top/lib/tap.sh"
# shellcheck source=../../kernel/lib.sh
. "$top/kernel/lib.sh"
# The long-term base's series first (its lab knob is checked below), then
# 7.3's.
lts=$(lts_base)
set_base "$lts"

mkdir -p "$top/build/check"
"$top/kernel/builder/fetch-base" 2>/dev/null || tap_bail "no base tree"
for v in baseline patched; do
	branch=$("$top/kernel/builder/prepare-tree" "$v" 2>"$top/build/check/prepare-$v.err")
	tap_check "the $v series applies on $(base_package) $(base_version)" test -n "$branch"
done

# The known checkpatch exceptions: kernel/lib.sh checkpatch_ignore.
# checkpatch_series: every patch of the current base's series, checked
# by that base's own checkpatch.pl.
checkpatch_series() {
	local p name ignore why out tree

	tree=$(base_src)
	while IFS= read -r p; do
		name=${p#"$NFTLAB_PATCHES/"}
		read -r ignore why <<< "$(checkpatch_ignore "$name")"
		if out=$(cd "$tree" && ./scripts/checkpatch.pl --strict --quiet ${ignore:+--ignore "$ignore"} "$p" 2>&1); then
			tap_check "checkpatch --strict${ignore:+ --ignore $ignore ($why)}: $NFTLAB_BASE $name" true
			continue
		fi
		printf '%s\n' "$out" | head -n 30 | sed 's/^/# /'
		tap_check "checkpatch --strict${ignore:+ --ignore $ignore}: $NFTLAB_BASE $name" false
	done < <(variant_patches patched; series_patches stable)
}
checkpatch_series
# The upstream base's series too (series v5); the rest of this step is
# about the long-term base's series again.
set_base 7.3
"$top/kernel/builder/fetch-base" 2>/dev/null || tap_bail "no 7.3 base tree"
checkpatch_series
# Patch 7's lookup keys: its search against a memcmp() scan, in userspace
# under ASan and UBSan, on the 7.3 tree of the current series.
report="$top/build/check/rbtree-keys.tap"
"$top/kernel/checks/rbtree-keys/check" > "$report" 2>&1
rc=$?
tap_forward "rbtree-keys: " "$report"
tap_result "kernel/checks/rbtree-keys passed on the 7.3 patched series" "$rc"
# Patch 12 collects expired intervals in the walk that builds the array:
# a model of its pairing against the scan it replaces, and the same model
# with a planted bug, which it must find.
gc_walk_model=$top/kernel/checks/rbtree-gc-walk/model.py
tap_check "rbtree-gc-walk: the walk collects what the scan collects (model, seed 1)" \
	python3 "$gc_walk_model" 1
gc_walk_fault_found() { ! python3 "$gc_walk_model" 1 --fault > /dev/null; }
tap_check "rbtree-gc-walk: the model finds a planted pairing bug" gc_walk_fault_found
set_base "$lts"

# The lab knob's name has one owner, kernel/series/force-indirect-sysctl:
# it must be the sysctl a patch of the series registers.
knob_registered() {
	local name leaf parent patches

	name=$(force_indirect_sysctl) leaf=${name##*.} parent=${name%.*}
	mapfile -t patches < <(variant_patches patched)
	grep -qE "^\+[[:space:]]*\.procname[[:space:]]*= \"${leaf}\"," "${patches[@]}" &&
		grep -qF "register_net_sysctl(&init_net, \"${parent//.//}\"," "${patches[@]}"
}
tap_check "the patched series registers the lab knob's sysctl $(force_indirect_sysctl)" knob_registered

# make check has the UML kernel's direct calls; the x86_64 kernel is
# make check-full's (tests/run-check says why).
targets=("um patched retpoline")
[ "${NFTLAB_CHECK_FULL:-0}" = 1 ] && targets=("x86_64 patched retpoline" "${targets[@]}")
for target in "${targets[@]}"; do
	# shellcheck disable=SC2086 # target is a word list
	kernel=$("$top/kernel/builder/build" $target) || { tap_check "build $target" false; continue; }
	bin="$kernel/vmlinux"
	[ -f "$bin" ] || bin="$kernel/linux"
	# The retpoline flavor: the leftover indirect call must be a retpoline.
	report="$top/build/check/direct-calls-${target// /-}.tap"
	FLAVOR=retpoline "$top/kernel/checks/check-direct-calls" "$bin" > "$report"
	rc=$?
	tap_forward "$target: " "$report"
	# Its exit status also covers a run that printed no test line.
	tap_result "check-direct-calls passed on $target" "$rc"
done

# The checker can fail: on the baseline kernel (no series) every site the
# series adds has a "not ok" line and the exit status is 1 (the lookup
# site is the base's own: its direct calls pass there too).  make check-full
# only: it builds the x86_64 baseline kernel, and make check has the
# checker's unit tests on stored disassembly of that kernel instead.
baseline_fails() {
	local kernel report site

	kernel=$("$top/kernel/builder/build" x86_64 baseline retpoline) || return 1
	report="$top/build/check/direct-calls-x86_64-baseline-retpoline.tap"
	FLAVOR=retpoline "$top/kernel/checks/check-direct-calls" "$kernel/vmlinux" > "$report"
	[ $? -eq 1 ] || return 1
	for site in dynset elemexpr objref hook chain; do
		grep -q "^not ok [0-9]* - $site: " "$report" || { tap_diag "baseline: no failure at $site"; return 1; }
	done
}
if [ "${NFTLAB_CHECK_FULL:-0}" = 1 ]; then
	tap_check "check-direct-calls fails on x86_64 baseline retpoline at every site the series adds" baseline_fails
fi
tap_end
