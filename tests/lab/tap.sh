# shellcheck shell=bash
# Minimal TAP producer for the shell test steps.  Sourced.
tap_n=0
tap_failed=0

# tap_check DESCRIPTION CMD [ARGS...]: one test line from CMD's status.
tap_check() {
	local desc=$1

	shift
	tap_n=$((tap_n + 1))
	if "$@"; then
		echo "ok $tap_n - $desc"
	else
		echo "not ok $tap_n - $desc"
		tap_failed=$((tap_failed + 1))
	fi
}

# tap_result DESCRIPTION STATUS: one test line from a status already known.
tap_result() {
	tap_check "$1" test "$2" -eq 0
}

tap_skip() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $1 # SKIP $2"
}

tap_diag() { printf '# %s\n' "$@"; }

tap_bail() {
	echo "Bail out! $*"
	echo "not ok $((tap_n + 1)) - $*"
	exit 1
}

tap_end() {
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
}

# tap_forward PREFIX FILE: re-emit the test lines of another TAP stream
# (a guest's report) under this script's numbering.  "# TODO" failures stay
# TODO: reported, never counted as passed or failed.
tap_forward() {
	local prefix=$1 line

	while IFS= read -r line; do
		case "$line" in
		"ok "*) tap_check "$prefix${line#ok * - }" true ;;
		"not ok "*"# TODO"*)
			tap_n=$((tap_n + 1))
			echo "not ok $tap_n - $prefix${line#not ok * - }"
			;;
		"not ok "*) tap_check "$prefix${line#not ok * - }" false ;;
		"#"*) echo "$line" ;;
		esac
	done < "$2"
}

# tap_report PREFIX TAPFILE CONSOLE: forward a guest's TAP report, or fail
# with the tail of the guest console when it wrote none.
tap_report() {
	if [ -s "$2" ]; then
		tap_forward "$1" "$2"
	else
		tap_check "$1the guest wrote a report ($2)" false
		tail -n 30 "$3" | sed 's/^/# /'
	fi
}
