#!/bin/bash
# Static checks of the patch series: every patch applies in order (the
# patched tree exists), is checkpatch.pl --strict clean, and the built
# kernels call the set backends, dynset ops and nf_tables chain functions
# directly (kernel/check-direct-calls on the x86_64 vmlinux and the UML
# retpoline binary).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tap.sh
. "$top/tests/lab/tap.sh"
# shellcheck source=../../kernel/lib.sh
. "$top/kernel/lib.sh"

mkdir -p "$top/build/check"
"$top/kernel/fetch-base" 2>/dev/null || tap_bail "no base tree"
src=$(base_src)
for v in baseline patched; do
	branch=$("$top/kernel/prepare-tree" "$v" 2>"$top/build/check/prepare-$v.err")
	tap_check "the $v series applies on linux-source-6.12 $(base_version)" test -n "$branch"
done

while IFS= read -r p; do
	name=${p#"$NFTLAB_PATCHES/"}
	if out=$(cd "$src" && ./scripts/checkpatch.pl --strict --quiet "$p" 2>&1); then
		tap_check "checkpatch --strict: $name" true
		continue
	fi
	printf '%s\n' "$out" | head -n 30 | sed 's/^/# /'
	# Two known warnings of feature patch 1, to be fixed in the series
	# (v2): the new header nf_tables_direct_calls.h (covered by the
	# NETFILTER entry's include/net/netfilter/, checkpatch asks anyway) and
	# <asm/cpufeature.h>, which UML needs because it has no
	# GENERIC_CPU_AUTOPROBE.  Reported as TODO, never as a pass.
	other=$(printf '%s\n' "$out" | grep -E '^(WARNING|ERROR|CHECK):' |
		grep -v -e 'does MAINTAINERS need updating' \
			-e 'Use #include <linux/cpufeature.h> instead of <asm/cpufeature.h>')
	if [ -z "$other" ] && [ "${name#feature/0001-}" != "$name" ]; then
		echo "not ok - checkpatch --strict: $name # TODO 2 known warnings (MAINTAINERS for a new header, asm/cpufeature.h on UML)"
	else
		tap_check "checkpatch --strict: $name" false
	fi
done < <(variant_patches patched)

for target in "x86_64 patched retpoline" "um patched retpoline"; do
	# shellcheck disable=SC2086 # target is a word list
	kernel=$("$top/kernel/build" $target) || { tap_check "build $target" false; continue; }
	bin="$kernel/vmlinux"
	[ -f "$bin" ] || bin="$kernel/linux"
	# The retpoline flavor: the leftover indirect call must be a retpoline.
	report="$top/build/check/direct-calls-${target// /-}.tap"
	FLAVOR=retpoline "$top/kernel/check-direct-calls" "$bin" > "$report"
	rc=$?
	bad=0
	while IFS= read -r line; do
		case "$target:$line" in
		# UML builds with -mcmodel=large: every call goes through a
		# register, so GCC folds "if (fn == X) X(); else fn();" in
		# nf_hook_entry_hookfn() into the one register call.  Known, not
		# fixable by the series; reported as TODO, never as a pass.
		"um patched retpoline:not ok "*"hook: direct call to"*)
			echo "not ok - $target: ${line#not ok * - } # TODO UML -mcmodel=large folds the hook compare chain" ;;
		*:"ok "*) echo "ok - $target: ${line#ok * - }" ;;
		*:"not ok "*) echo "not ok - $target: ${line#not ok * - }"; bad=1 ;;
		*:"#"*) echo "$line" ;;
		esac
	done < "$report"
	# On UML the checker's status includes the TODO lines: judge by the rest.
	[ "$target" = "um patched retpoline" ] || [ "$rc" -eq 0 ] || bad=1
	tap_result "check-direct-calls passed on $target (known TODOs aside)" "$bad"
done
tap_end
