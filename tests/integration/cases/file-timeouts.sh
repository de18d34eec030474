#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# An element file with comments, blank lines, trailing commas and
# per-element timeouts, into a set with a default timeout: each element
# gets its own timeout or the set's.  Starts from table inet filter.
set -u
. "$(dirname "$0")/../lib.sh"
# shellcheck source=../expect.sh
. "$(dirname "$0")/../expect.sh"

require
setup_netns
given table add inet filter

cat > "$TMP/t.txt" <<-'EOT'
# comments and blank lines are skipped

10.0.0.1 . 80 timeout 30m,
10.0.0.2 . 443 timeout 1h
10.0.0.3 . 22
EOT
expect_ok "timeout set" set add inet filter t \
	--type 'ipv4_addr . inet_service' --flags timeout --timeout 2h
expect_ok "elements with timeouts from a file" \
	element add inet filter t --file "$TMP/t.txt"
check "per-element timeouts as given" [ "$(nftns -j list set inet filter t |
	jq -c '[.nftables[] | select(.set) | .set.elem[] | .elem.timeout // "default"] | sort_by(tostring)')" = '[1800,3600,"default"]' ]
finish
