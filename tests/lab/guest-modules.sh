#!/bin/bash
# Runs inside an x86_64 lab guest whose kernel has nf_tables, conntrack and
# the rest of netfilter as modules (kernel/builder/build --with modules): loads every
# netfilter module of the build from MODROOT (the kernel directory's
# modules/, with modprobe -d: the guest's / is the host's, whose
# /lib/modules is not this kernel's), points the kernel's own module
# requests at the same modules, checks that /proc/modules lists them, then
# runs guest-selftests.sh LABEL "GROUPS" (the base tree's
# nft_concat_range.sh, extracted by the host into
# $NFTLAB_RESULTS/selftests).  TAP in $NFTLAB_RESULTS/modules.tap (loading)
# and $NFTLAB_RESULTS/LABEL.tap (selftests); /proc/modules before and after
# the selftests is kept in the results directory.
#
# Usage: guest-modules.sh MODROOT LABEL "GROUP ..."
set -uo pipefail
modroot=$1 label=$2 groups=$3
out="$NFTLAB_RESULTS/modules.tap"
: > "$out"
n=0 bad=0
check() {
	local desc=$1

	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n - $desc" | tee -a "$out"
	else
		echo "not ok $n - $desc" | tee -a "$out"
		bad=1
	fi
}
diag() { echo "# $*" | tee -a "$out"; }
# shellcheck disable=SC2317 # called through check
loaded() { awk -v m="$1" '$1 == m { found = 1 } END { exit !found }' /proc/modules; }
# shellcheck disable=SC2317
not_loaded() { ! loaded "$1"; }
# shellcheck disable=SC2317
live() { loaded "$1" && [ "$(cat "/sys/module/$1/initstate" 2>/dev/null)" = live ]; }

rel=$(uname -r)
dir="$modroot/lib/modules/$rel"
check "modules of this kernel ($rel) installed in $dir" test -s "$dir/modules.dep"
check "the kernel has loadable modules (/proc/modules)" test -r /proc/modules
check "nf_tables is not loaded before the test loads it" not_loaded nf_tables

# The kernel's own requests (nf_tables asks for nft-expr-*, nft-chain-*,
# nfnetlink for nfnetlink-subsys-*) go to the host's modprobe by default,
# which would search the host's /lib/modules: use this build's modules.
# The helper lives on the guest's tmpfs /run.
helper=/run/nftlab-modprobe
printf '#!/bin/sh\nexec %q -d %q "$@"\n' "$(command -v modprobe)" "$modroot" > "$helper"
chmod +x "$helper"
echo "$helper" > /proc/sys/kernel/modprobe

# Every netfilter module of the build: net/netfilter, net/{ipv4,ipv6,bridge}/netfilter.
mapfile -t mods < <(sed -n 's#^\(kernel/net/\(ipv4/\|ipv6/\|bridge/\)\{0,1\}netfilter/[^:]*\)\.ko[^:]*:.*#\1#p' \
	"$dir/modules.dep" | sed 's#.*/##; s#-#_#g' | sort)
diag "loading ${#mods[@]} netfilter modules with modprobe -d $modroot -a"
start=$SECONDS
modprobe -d "$modroot" -a "${mods[@]}" > "$NFTLAB_RESULTS/modprobe.log" 2>&1
rc=$?
diag "modprobe exited $rc after $((SECONDS - start))s"
sed 's/^/# modprobe: /' "$NFTLAB_RESULTS/modprobe.log" | head -n 20 | tee -a "$out"
cp /proc/modules "$NFTLAB_RESULTS/proc-modules-before.txt"
missing=()
for m in "${mods[@]}"; do loaded "$m" || missing+=("$m"); done
[ ${#missing[@]} -eq 0 ] || diag "not in /proc/modules: ${missing[*]}"
check "all ${#mods[@]} netfilter modules of the build load and are listed in /proc/modules" \
	test "${#mods[@]}" -gt 0 -a "$rc" -eq 0 -a ${#missing[@]} -eq 0
for m in nf_tables nfnetlink nf_conntrack nf_nat nft_ct nft_chain_nat nf_flow_table x_tables nft_compat; do
	check "/proc/modules lists $m as a live module" live "$m"
done

start=$SECONDS
"$NFTLAB_TOP/tests/lab/guest-selftests.sh" "$label" "$groups"
diag "guest-selftests.sh $label \"$groups\" exited $? after $((SECONDS - start))s"
cp /proc/modules "$NFTLAB_RESULTS/proc-modules-after.txt"
check "nf_tables is still a loaded module after the selftests" live nf_tables
# A WARN or an oops taints the kernel; in-tree modules do not (no signing).
taint=$(cat /proc/sys/kernel/tainted)
[ "$taint" -eq 0 ] || dmesg | tail -n 40 | sed 's/^/# dmesg: /' | tee -a "$out"
check "kernel not tainted after loading the modules and the selftests (tainted=$taint)" test "$taint" -eq 0
echo "1..$n" >> "$out"
exit "$bad"
