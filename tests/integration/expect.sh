#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The assertions of the integration tests (sourced after lib.sh): exit
# status, message and an unchanged ruleset for every refused input.
# shellcheck disable=SC2317  # the helpers run through check

# expect_ok NAME ARGS...: nftlab ARGS succeeds
expect_ok() {
	local name=$1
	shift
	check "$name" nftlab "$@"
}

# expect_status WANT NAME REGEX ARGS...: exit status WANT, stderr
# matches REGEX, ruleset unchanged
expect_status() {
	local want=$1 name=$2 regex=$3 before after rc=0
	shift 3
	before=$(ruleset "$NS")
	nftlab "$@" || rc=$?
	after=$(ruleset "$NS")
	if [ "$rc" -ne "$want" ]; then
		not_ok "$name: exit status $rc, want $want"
	elif ! grep -Eq -- "$regex" "$TMP/err"; then
		not_ok "$name: error does not match /$regex/"
	elif [ "$before" != "$after" ]; then
		not_ok "$name: ruleset changed"
		diff <(echo "$before") <(echo "$after") | diag
	else
		ok "$name"
	fi
}

# expect_checked NAME ARGS...: exit status 0, nothing on stderr, ruleset
# unchanged (-c)
expect_checked() {
	local name=$1 before rc=0
	shift
	before=$(ruleset "$NS")
	nftlab "$@" || rc=$?
	if [ "$rc" -ne 0 ] || [ -s "$TMP/err" ]; then
		not_ok "$name: exit status $rc, want 0 and no message"
	elif [ "$before" != "$(ruleset "$NS")" ]; then
		not_ok "$name: ruleset changed"
	else
		ok "$name"
	fi
}

# expect_fail NAME REGEX ARGS...: the kernel refuses (exit status 1)
expect_fail() {
	expect_status 1 "$@"
}

# expect_refused NAME REGEX ARGS...: input refused, nothing sent (exit 2)
expect_refused() {
	expect_status 2 "$@"
}

# json_true JSON FILTER: FILTER is true for JSON (called through check)
# shellcheck disable=SC2317
json_true() {
	jq -e "$2" <<< "$1" >/dev/null 2>&1
}

# shellcheck disable=SC2317
set_absent() {
	! nftns list set "$1" "$2" "$3" >/dev/null 2>&1
}

