#!/bin/bash
# The lab machinery itself: the patched retpoline UML kernel builds, boots
# (its boot time reported), hands back exit statuses and results, cannot write to the host
# outside its results directory, is killed on timeout without leftovers,
# and a broken patch or a dropped Kconfig option stops the build by name.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../../lib/tap.sh
. "$top/lib/tap.sh"
# shellcheck source=../../kernel/lib.sh
. "$top/kernel/lib.sh"

run="$top/build/check/infra"
rm -rf "$run"
mkdir -p "$run"

kernel=$("$top/kernel/builder/build" um patched retpoline) || true
tap_check "build um patched retpoline" test -x "$kernel/linux"
[ -x "$kernel/linux" ] || tap_bail "no kernel to test"
lab() { "$top/kernel/runner/lab-run" --kernel "$kernel" "$@"; }

# Boot to the command and power off, three times.  The boot time is
# reported, not asserted: a host busy with a kernel build beside this step
# (make check runs two steps at a time) took 3 s where an idle one takes
# under 1, and a time target belongs in a benchmark.  A guest that hangs
# is what --timeout catches.
times=() booted=0
for i in 1 2 3; do
	t0=$(date +%s%N)
	lab --results "$run/boot$i" --timeout 60 -- true
	rc=$?
	times+=("$(( ($(date +%s%N) - t0) / 1000000 ))")
	[ "$rc" -eq 0 ] || break
	booted=$((booted + 1))
done
median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n 2p)
tap_diag "boot + run 'true' + power off: ${times[*]} ms (median ${median:-?} ms)"
tap_check "guest boots, runs a command and powers off, 3 times of 3" \
	test "$booted" -eq 3

lab --results "$run/status" --timeout 60 -- sh -c 'exit 7'
tap_check "the guest command's exit status (7) is returned" test $? -eq 7

# shellcheck disable=SC2016 # expanded in the guest
lab --results "$run/write" --timeout 60 -- sh -c 'uname -r > "$NFTLAB_RESULTS/uname"'
tap_check "the guest writes its results directory" grep -q '^6\.12\.' "$run/write/uname"

# The guest's /dev as a distribution has it: each probe writes one
# "status name" line; a probe that never ran leaves its line out and fails.
# shellcheck disable=SC2016 # expanded in the guest
lab --results "$run/dev" --timeout 60 -- bash -c '
	probe() { local name=$1; shift; "$@" >/dev/null 2>&1; echo "$? $name"; }
	{
		probe "/dev/fd -> /proc/self/fd" test "$(readlink /dev/fd)" = /proc/self/fd
		probe "bash process substitution <(...)" diff <(echo same) <(echo same)
		probe "nft -f /dev/stdin" sh -c "echo \"table inet devprobe { }\" | nft -f /dev/stdin && nft list table inet devprobe"
		probe "/dev/stdout and /dev/stderr are writable" sh -c "echo x > /dev/stdout && echo x > /dev/stderr"
		probe "/dev/shm is a tmpfs" sh -c "test \"\$(stat -f -c %T /dev/shm)\" = tmpfs && : > /dev/shm/probe"
		probe "/dev/pts is a devpts" test "$(stat -f -c %T /dev/pts)" = devpts
		probe "a pseudo-terminal opens through /dev/ptmx" python3 -c "import os; os.openpty()"
	} > "$NFTLAB_RESULTS/dev.txt"' > "$run/dev.log" 2>&1
for name in "/dev/fd -> /proc/self/fd" "bash process substitution <(...)" "nft -f /dev/stdin" \
	"/dev/stdout and /dev/stderr are writable" "/dev/shm is a tmpfs" "/dev/pts is a devpts" \
	"a pseudo-terminal opens through /dev/ptmx"; do
	tap_check "guest /dev: $name" grep -qxF "0 $name" "$run/dev/dev.txt"
done

# Each attempt must fail inside the guest and leave nothing on the host.
victims=("$top/build/check/escape-$$" "$top/README.md.escape-$$" "/root/escape-$$" "/var/escape-$$")
# shellcheck disable=SC2016 # expanded in the guest
lab --results "$run/escape" --timeout 60 -- bash -c '
	bad=0
	for f in "$@"; do
		if (echo x > "$f") 2>/dev/null; then echo "wrote $f"; bad=1; fi
	done
	if (echo x >> "$NFTLAB_TOP/README.md") 2>/dev/null; then echo "appended README.md"; bad=1; fi
	echo scratch > /tmp/scratch || bad=1
	exit $bad' _ "${victims[@]}"
rc=$?
leaked=0
for f in "${victims[@]}"; do
	[ -e "$f" ] && { leaked=1; rm -f "$f"; }
done
tap_check "guest writes outside the results directory fail" test "$rc" -eq 0 -a "$leaked" -eq 0

t0=$SECONDS
lab --results "$run/timeout" --timeout 3 -- sleep 600
rc=$?
took=$((SECONDS - t0))
tap_check "a hung guest is killed after --timeout (exit 124, ${took}s)" test "$rc" -eq 124 -a "$took" -lt 30
sleep 1
left=$(pgrep -f "NFTLAB_RESULTS=$run/timeout" | wc -l)
tap_check "no guest process is left behind after a timeout" test "$left" -eq 0

# --timeout is about progress, not about how long a guest takes: on a
# host whose both cores are busy (two CPU hogs, as a kernel build or a QEMU
# guest beside make check), a guest that keeps printing lives past it,
# whether it prints to the console or writes results; --max-time still
# ends one that never stops.  The guest runs 32 s, more than twice the
# 15 s without progress it is allowed: a limit on its total time would
# end it.  15 s, not less: the boot prints nothing (quiet); with the hogs
# and another step's QEMU guest beside it a boot took more than 4 s, and
# with the hogs and a kernel build (a cold make check builds the 7.3
# kernel beside this step) more than 8 s.
busy_timeout=15 busy_secs=32
hogs=()
for _ in 1 2; do
	(while :; do :; done) &
	hogs+=($!)
done
t0=$SECONDS
# shellcheck disable=SC2016 # expanded in the guest
lab --results "$run/busy-console" --timeout "$busy_timeout" -- sh -c 'i=0; while [ $i -lt '"$busy_secs"' ]; do i=$((i + 1)); echo "step $i"; sleep 1; done' >/dev/null
rc=$?
took=$((SECONDS - t0))
tap_check "busy host: a guest printing a line a second for $busy_secs s outlives --timeout $busy_timeout (exit $rc after ${took}s)" \
	test "$rc" -eq 0 -a "$took" -ge "$busy_secs"
# shellcheck disable=SC2016
lab --results "$run/busy-results" --timeout "$busy_timeout" -- sh -c 'i=0; while [ $i -lt '"$busy_secs"' ]; do i=$((i + 1)); : > "$NFTLAB_RESULTS/sample$i"; sleep 1; done'
rc=$?
tap_check "busy host: a guest writing a result a second for $busy_secs s outlives --timeout $busy_timeout (exit $rc)" test "$rc" -eq 0
t0=$SECONDS
lab --results "$run/max-time" --timeout 8 --max-time 16 -- sh -c 'while :; do echo tick; sleep 1; done' >/dev/null
rc=$?
took=$((SECONDS - t0))
tap_check "a guest that never stops printing is killed after --max-time (exit 124, ${took}s)" \
	test "$rc" -eq 124 -a "$took" -lt 60
kill "${hogs[@]}" 2>/dev/null
wait "${hogs[@]}" 2>/dev/null

# --nft PREFIX below the host's /tmp (a cache there): the guest's tmpfs on
# /tmp must not hide it and leave the host's nft on PATH instead.
fake=$(mktemp -d /tmp/nftlab-fake-nft.XXXXXX)
mkdir -p "$fake/sbin"
printf '#!/bin/sh\necho "fake nft $*"\n' > "$fake/sbin/nft"
chmod +x "$fake/sbin/nft"
got=$(lab --results "$run/nft-prefix" --timeout 60 --nft "$fake" -- nft --version 2>/dev/null | tr -d '\r' | grep -a '^fake nft')
tap_check "--nft PREFIX below /tmp: the guest runs that nft (got: ${got:-another nft})" test "$got" = "fake nft --version"
rm -rf "$fake"

# A broken patch: a copy of the series with one patch that cannot apply.
patches="$run/patches"
cp -r "$NFTLAB_PATCHES" "$patches"
cat > "$patches/feature/9999-broken.patch" <<'EOP'
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: nftlab <nftlab@localhost>
Date: Thu, 1 Jan 2026 00:00:00 +0000
Subject: [PATCH] netfilter: deliberately broken

---
 net/netfilter/nft_lookup.c | 2 +-
 1 file changed, 1 insertion(+), 1 deletion(-)

diff --git a/net/netfilter/nft_lookup.c b/net/netfilter/nft_lookup.c
--- a/net/netfilter/nft_lookup.c
+++ b/net/netfilter/nft_lookup.c
@@ -1,3 +1,3 @@
-this line is not in the file
+nor is this one
 // SPDX-License-Identifier: GPL-2.0-only
 /*
-- 
2.39.5
EOP
# into the [feature] group, ahead of the groups that follow it
sed -i '/^\[lab-patched\]/i feature/9999-broken.patch' "$patches/series"
grep -qx 'feature/9999-broken.patch' "$patches/series" || tap_bail "the series file has no [lab-patched] group to insert before"
src=$(base_src)
branches() { git -C "$src" branch --list 'nftlab/*' | sort; }
before=$(branches)
NFTLAB_PATCHES="$patches" "$top/kernel/builder/build" --tag brokencheck um patched plain >/dev/null 2>"$run/broken.err"
rc=$?
sed 's/^/# /' "$run/broken.err" | tail -n 3
tap_check "a patch that does not apply stops the build, naming itself" \
	test "$rc" -ne 0 -a "$(grep -c '9999-broken.patch' "$run/broken.err")" -ge 1
tap_check "no half-applied branch or tree is left by the failed patch" \
	test "$(branches)" = "$before" -a -z "$(git -C "$src" status --porcelain --untracked-files=no)"

# A dropped option: ask for one whose dependency the fragments do not meet.
configs="$run/config"
cp -r "$top/kernel/config" "$configs"
printf 'CONFIG_NET_VRF=y\n' >> "$configs/um.config"
NFTLAB_CONFIGS="$configs" "$top/kernel/builder/build" --tag dropcheck um patched plain >/dev/null 2>"$run/drop.err"
rc=$?
sed 's/^/# /' "$run/drop.err" | tail -n 3
tap_check "an option dropped by olddefconfig stops the build, naming it" \
	test "$rc" -ne 0 -a "$(grep -c 'CONFIG_NET_VRF=y did not stick' "$run/drop.err")" -ge 1

tap_end
