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
# The guest's / is the host's: the checkout is there, read-only.
# shellcheck source=../../lib/tap.sh
. "$(dirname "$0")/../../lib/tap.sh"
tap_tee "$NFTLAB_RESULTS/modules.tap"
# shellcheck disable=SC2317 # called through tap_check
loaded() { awk -v m="$1" '$1 == m { found = 1 } END { exit !found }' /proc/modules; }
# shellcheck disable=SC2317
not_loaded() { ! loaded "$1"; }
# shellcheck disable=SC2317
live() { loaded "$1" && [ "$(cat "/sys/module/$1/initstate" 2>/dev/null)" = live ]; }

# Booted with spectre_v2=retpoline (the host side's --append), the kernel
# must run retpolines: the series' direct calls are taken only then.
if grep -qw 'spectre_v2=retpoline' /proc/cmdline; then
	tap_diag "spectre_v2: $(cat /sys/devices/system/cpu/vulnerabilities/spectre_v2 2>/dev/null)"
	tap_check "the guest runs retpolines (spectre_v2=retpoline)" grep -q Retpolines \
		/sys/devices/system/cpu/vulnerabilities/spectre_v2
fi

rel=$(uname -r)
dir="$modroot/lib/modules/$rel"
tap_check "modules of this kernel ($rel) installed in $dir" test -s "$dir/modules.dep"
tap_check "the kernel has loadable modules (/proc/modules)" test -r /proc/modules
tap_check "nf_tables is not loaded before the test loads it" not_loaded nf_tables

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
tap_diag "loading ${#mods[@]} netfilter modules with modprobe -d $modroot -a"
start=$SECONDS
modprobe -d "$modroot" -a "${mods[@]}" > "$NFTLAB_RESULTS/modprobe.log" 2>&1
rc=$?
tap_diag "modprobe exited $rc after $((SECONDS - start))s"
head -n 20 "$NFTLAB_RESULTS/modprobe.log" | tap_diag_lines "modprobe: "
cp /proc/modules "$NFTLAB_RESULTS/proc-modules-before.txt"
missing=()
for m in "${mods[@]}"; do loaded "$m" || missing+=("$m"); done
[ ${#missing[@]} -eq 0 ] || tap_diag "not in /proc/modules: ${missing[*]}"
tap_check "all ${#mods[@]} netfilter modules of the build load and are listed in /proc/modules" \
	test "${#mods[@]}" -gt 0 -a "$rc" -eq 0 -a ${#missing[@]} -eq 0
# 7.3 made NETFILTER_NETLINK bool (6.12: tristate), so nfnetlink is
# built in on every 7.3 config; the build's config (beside modules/) says
# which it is.
config="$modroot/../config"
for m in nf_tables nfnetlink nf_conntrack nf_nat nft_ct nft_chain_nat nf_flow_table x_tables nft_compat; do
	if [ "$m" = nfnetlink ] && grep -qx "CONFIG_NETFILTER_NETLINK=y" "$config"; then
		tap_check "$m is built in (CONFIG_NETFILTER_NETLINK=y) and not in /proc/modules" not_loaded "$m"
		continue
	fi
	tap_check "/proc/modules lists $m as a live module" live "$m"
done

start=$SECONDS
"$NFTLAB_TOP/tests/lab/guest-selftests.sh" "$label" "$groups"
tap_diag "guest-selftests.sh $label \"$groups\" exited $? after $((SECONDS - start))s"
cp /proc/modules "$NFTLAB_RESULTS/proc-modules-after.txt"
tap_check "nf_tables is still a loaded module after the selftests" live nf_tables
# A WARN or an oops taints the kernel; in-tree modules do not (no signing).
taint=$(cat /proc/sys/kernel/tainted)
[ "$taint" -eq 0 ] || dmesg | tail -n 40 | tap_diag_lines "dmesg: "
tap_check "kernel not tainted after loading the modules and the selftests (tainted=$taint)" test "$taint" -eq 0
tap_end
