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
