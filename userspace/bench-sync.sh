#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The set sync benchmark of issue #53 (not part of make check): nftlab set
# sync against what blocklist updaters do today (nft -f with flush set +
# add element; for the interval case also nft -f with only the changes),
# in a network namespace created here, against the running kernel.  The
# cases, the packet probe and the figures are described in bench_sync.py,
# which does the work; this script builds, sets up the namespace (the
# default route over lo, for the probe's datagrams: the host kernel has no
# dummy device) and removes it again.  Writes README.md, results.json and report.txt to RESULTS.
#
# Usage: bench-sync.sh [bench_sync.py run options, e.g. --reps 1
#                       --hash-sizes 10000 --ivl-size 5000]
# Environment: NFTLAB (default: userspace/build/nftlab, built here),
#              RESULTS (default: docs/results/set-sync-host-<UTC>)
# Regenerate README.md and report.txt: userspace/bench_sync.py report DIR
# (--analysis FILE stores the Analysis section in results.json first)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
: "${NFTLAB:=$ROOT/userspace/build/nftlab}"
: "${RESULTS:=$ROOT/docs/results/$(python3 "$ROOT/lib/rundir.py" set-sync host)}"
NS="nftlab-bench-sync-$$"
WORK=""

die() {
	echo "bench-sync: $*" >&2
	exit 1
}

cleanup() {
	ip netns del "$NS" 2>/dev/null
	[ -n "$WORK" ] && rm -rf "$WORK"
}

[ "$(id -u)" = 0 ] || die "needs root (network namespaces, nf_tables)"
for tool in ip nft strace python3 /usr/bin/time cc; do
	command -v "$tool" >/dev/null || die "$tool not found"
done
make -s -C "$ROOT/userspace" build/nftlab || die "cannot build nftlab"
PROBE=$ROOT/userspace/build/sync-probe
cc -O2 -Wall -Wextra -Werror -o "$PROBE" "$ROOT/userspace/bench/sync-probe.c" ||
	die "cannot build the probe"
trap cleanup EXIT
trap 'exit 1' INT TERM
WORK=$(mktemp -d "${TMPDIR:-/tmp}/bench-sync.XXXXXX") || die "mktemp"
ip netns add "$NS" || die "ip netns add failed"
ip -n "$NS" link set lo up || die "ip link set lo up failed"
ip -n "$NS" route add default dev lo || die "ip route add failed"
python3 "$ROOT/userspace/bench_sync.py" run --netns "$NS" --nftlab "$NFTLAB" \
	--probe "$PROBE" --out "$RESULTS" --work "$WORK" \
	--command "$0${*:+ $*}" "$@"
