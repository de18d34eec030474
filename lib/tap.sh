# shellcheck shell=bash
# The TAP producer of every shell script of the project: host test steps,
# the kernel/ checks and the guest scripts; the shell half of lib/
# (lib/tap.py is the Python one: the same lines, the same rules; the C
# unit tests of userspace/ have their own minimal one, tests/unit/tap.h).
# Sourced.  Guests run it on any lab kernel with the host's / as their
# root, so it is plain bash (printf and arithmetic, no other tool).
#
# Nesting (kselftest's): a test program run by another (tap_sub) prints
# its own TAP, numbered from 1 with its plan; the caller indents it by 4
# spaces and follows it with one line of its own for the whole program.
# tap_count counts such a stream (tests/run-check's summary).
tap_n=0
tap_failed=0
tap_file=""

# tap_line LINE: stdout, and the report file of tap_tee if there is one.
tap_line() {
	printf '%s\n' "$1"
	[ -z "$tap_file" ] || printf '%s\n' "$1" >> "$tap_file"
}

# tap_tee FILE: every later line also goes to FILE, emptied first (a guest's
# report: the host reads it back after the boot, the console keeps stdout).
tap_tee() {
	tap_file=$1
	: > "$tap_file"
}

# tap_check DESCRIPTION CMD [ARGS...]: one test line from CMD's status.
tap_check() {
	local desc=$1

	shift
	tap_n=$((tap_n + 1))
	if "$@"; then
		tap_line "ok $tap_n - $desc"
	else
		tap_line "not ok $tap_n - $desc"
		tap_failed=$((tap_failed + 1))
	fi
}

# tap_result DESCRIPTION STATUS: one test line from a status already known.
tap_result() {
	tap_check "$1" test "$2" -eq 0
}

tap_skip() {
	tap_n=$((tap_n + 1))
	tap_line "ok $tap_n - $1 # SKIP $2"
}

# tap_todo DESCRIPTION REASON: a known, explained failure: reported, never
# counted as passed or failed.
tap_todo() {
	tap_n=$((tap_n + 1))
	tap_line "not ok $tap_n - $1 # TODO $2"
}

tap_diag() {
	local l

	for l in "$@"; do tap_line "# $l"; done
}

# tap_diag_lines [PREFIX]: every line of stdin as a comment, after PREFIX.
tap_diag_lines() {
	local l

	while IFS= read -r l || [ -n "$l" ]; do tap_line "# $1$l"; done
}

# tap_each_file NAME CMD [ARGS...]: for every file named on stdin, a test
# line "NAME FILE" from CMD ARGS FILE, whose output follows as comments.
tap_each_file() {
	local name=$1 f out rc

	shift
	while IFS= read -r f; do
		out=$("$@" "$f" 2>&1)
		rc=$?
		tap_result "$name $f" "$rc"
		[ -z "$out" ] || printf '%s\n' "$out" | tap_diag_lines ""
	done
}

tap_bail() {
	tap_line "Bail out! $*"
	tap_line "not ok $((tap_n + 1)) - $*"
	exit 1
}

tap_end() {
	tap_line "1..$tap_n"
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
			tap_line "not ok $tap_n - $prefix${line#not ok * - }"
			;;
		"not ok "*) tap_check "$prefix${line#not ok * - }" false ;;
		"#"*) tap_line "$line" ;;
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
		tail -n 30 "$3" | tap_diag_lines ""
	fi
}

# tap_sub DESCRIPTION CMD [ARGS...]: CMD is a test program of its own (TAP
# numbered from 1, its plan line): its output nested in ours, 4 spaces
# deeper, a line that is not TAP as a comment; then our line for it, "ok
# N - DESCRIPTION" only if CMD exited 0, printed a test line and no "not
# ok" (a TODO aside): a crash without output, or a program whose tests
# vanished, fails.  The output comes when CMD ends (as in tap_each_file).
tap_sub() {
	local desc=$1 out rc line bad tests=0 failed=0

	shift
	out=$("$@" 2>&1)
	rc=$?
	while IFS= read -r line; do
		case "$line" in
		"ok "* | "not ok "*"# TODO"*) tests=$((tests + 1)) ;;
		"not ok "*) tests=$((tests + 1)) failed=$((failed + 1)) ;;
		"" | "#"* | "1.."* | "Bail out!"* | "    "*) ;;
		*) line="# $line" ;;
		esac
		tap_line "    $line"
	done < <([ -z "$out" ] || printf '%s\n' "$out")
	bad=$((rc != 0 || failed > 0 || tests == 0))
	tap_result "$desc" "$bad"
	[ "$bad" -eq 0 ] || tap_diag "$desc: exit status $rc, $failed of $tests tests failed"
}

# tap_count FILE: "PASSED FAILED SKIPPED" of the TAP stream in FILE, its
# nested streams included (4 spaces a level; a TODO counts with the
# skips).  Every test line counts, at any depth, but the line that ends a
# nested stream (the first one less deep than the test line before it:
# tap_sub's own): an "ok" one is its stream's tests, counted already; a
# "not ok" one is one failure more only if no test below it failed (the
# program crashed or ran no test), so a failure is never counted twice.
tap_count() {
	local line rest d i below prev=0 passed=0 failed=0 skipped=0
	# the failures counted so far in the open stream of each depth
	local -a fails=(0)

	while IFS= read -r line; do
		rest=$line d=0
		while [ "${rest:0:4}" = "    " ]; do rest=${rest:4} d=$((d + 1)); done
		case "$rest" in
		"ok "* | "not ok "*) ;;
		*) continue ;;
		esac
		below=-1
		if [ "$d" -lt "$prev" ]; then
			below=0
			for ((i = d + 1; i <= prev; i++)); do
				below=$((below + ${fails[i]:-0}))
				fails[i]=0
			done
			fails[d]=$((${fails[d]:-0} + below))
		fi
		prev=$d
		if [[ $rest =~ ^ok\ .*#\ *SKIP || $rest =~ ^not\ ok\ .*#\ *TODO ]]; then
			[ "$below" -ge 0 ] || skipped=$((skipped + 1))
		elif [[ $rest == ok\ * ]]; then
			[ "$below" -ge 0 ] || passed=$((passed + 1))
		elif [ "$below" -le 0 ]; then
			failed=$((failed + 1))
			fails[d]=$((${fails[d]:-0} + 1))
		fi
	done < "$1"
	echo "$passed $failed $skipped"
}
