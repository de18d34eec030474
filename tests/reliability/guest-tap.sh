# shellcheck shell=bash
# Sourced by check-debug.sh and smp-debug.sh, after lib/tap.sh.

# guest_tap PREFIX DIR RC SECS CONFIG KMEMLEAK PART...: the TAP of a guest
# that ran guest-debug.sh with its results in DIR and its console in
# DIR/console.log: that it exited 0 (RC, after SECS seconds), its features
# and each PART's TAP (a missing one fails), then the kernel's reports
# found in the console by splats.py against the kernel's CONFIG.
# KMEMLEAK is the file of kmemleak's scan that must be empty, or "" for a
# kernel without kmemleak.
guest_tap() {
	local prefix=$1 dir=$2 rc=$3 secs=$4 config=$5 kmemleak=$6 part leaks=()

	shift 6
	tap_diag "${prefix}guest exited $rc after ${secs}s (console: $dir/console.log)"
	tap_check "${prefix}the guest exited 0" test "$rc" -eq 0
	tap_report "$prefix" "$dir/features.tap" "$dir/console.log"
	for part in "$@"; do
		tap_report "$prefix" "$dir/$part.tap" "$dir/console.log"
	done
	[ -z "$kmemleak" ] || leaks=("$kmemleak")
	python3 "$(dirname "${BASH_SOURCE[0]}")/splats.py" --config "$config" "$dir/console.log" \
		"$dir/splats" "${leaks[@]}" > "$dir/splats.tap"
	tap_forward "$prefix" "$dir/splats.tap"
}
