#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The open-interval reproducer (open-interval.c) on several kernels, one
# result file each, then its report (open-interval-report.py).
#
# Usage:
#   open-interval.sh RUNDIR KERNEL...   KERNEL: host (this machine's
#       kernel, in a network namespace of its own) or BASE:VARIANT of the
#       UML lab (6.12:baseline, 6.12:patched, 7.3:baseline, 7.3:patched;
#       retpoline flavor, built if missing)
#   open-interval.sh --guest BIN OUT    (inside a guest or on the host) run
#       BIN in a new network namespace with lo up, its TAP and the kernel
#       release into OUT
#   open-interval.sh --build            build the reproducer only, into
#       build/reliability/ (kernel/checks/check-series, before its guests
#       run it through open-interval-stable.sh)
# Exit status: 0 when every kernel refused every overlap, 1 when one took
# one (the report says which), 2 on a setup failure.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)

if [ "${1:-}" = --guest ]; then
	bin=$2 out=$3
	{
		echo "# kernel: $(uname -r)"
		# shellcheck disable=SC2016 # $0 is the inner shell's: bin
		unshare -n sh -c 'ip link set lo up && exec "$0"' "$bin"
	} > "$out" 2>&1
	rc=$?
	echo "# exit: $rc" >> "$out"
	exit "$rc"
fi

bin=$top/build/reliability/open-interval
build() {
	mkdir -p "$(dirname "$bin")" || return 2
	echo "[open-interval] building $bin" >&2
	cc -std=c11 -Wall -Wextra -Werror -O2 -o "$bin" \
		"$top/tests/reliability/open-interval.c" -lnftnl -lmnl || return 2
}
if [ "${1:-}" = --build ]; then
	build
	exit
fi

[ $# -ge 2 ] || { sed -n '5,17p' "$0" >&2; exit 2; }
run=$1
shift
mkdir -p "$run" || exit 2
build || exit 2
worst=0
for k in "$@"; do
	out=$run/$k.txt
	out=${out//:/-}
	echo "[open-interval] $k"
	if [ "$k" = host ]; then
		"$0" --guest "$bin" "$out"
		rc=$?
	else
		base=${k%%:*} variant=${k#*:}
		kernel=$("$top/kernel/builder/build" --base "$base" um "$variant" retpoline) ||
			{ echo "[open-interval] cannot build $k" >&2; exit 2; }
		guestrun=$(mktemp -d) || exit 2
		"$top/kernel/runner/lab-run" --kernel "$kernel" --results "$guestrun" \
			--timeout 300 -- "$0" --guest "$bin" "$guestrun/out.txt" \
			> "$guestrun/console.log" 2>&1
		rc=$?
		if [ -f "$guestrun/out.txt" ]; then
			{
				echo "# lab kernel: $(sed -n 's/^base: //p' "$kernel/BUILD-INFO") um $variant retpoline"
				cat "$guestrun/out.txt"
			} > "$out"
		else
			echo "[open-interval] $k: the guest wrote nothing (exit $rc)" >&2
			tail -20 "$guestrun/console.log" >&2
			rc=2
		fi
		rm -rf "$guestrun"
	fi
	[ "$rc" -gt "$worst" ] && worst=$rc
done
python3 "$top/tests/reliability/open-interval-report.py" "$run" "$@" || exit 2
exit "$worst"
