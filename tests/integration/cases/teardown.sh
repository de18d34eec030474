#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Taking a ruleset down: set flush empties a set, set del removes it,
# table del and ruleset flush leave nothing behind.  Starts from netdev
# perf's set c of 1000 ranges and the table netdev ref nft loaded.
set -u
. "$(dirname "$0")/../lib.sh"
# shellcheck source=../expect.sh
. "$(dirname "$0")/../expect.sh"

require
setup_netns
gen_files
given table add netdev perf
given set add netdev perf c --type 'ipv4_addr . inet_service' --flags interval
given element add netdev perf c --file "$TMP/c.txt"
given_ref netdev ref c "type ipv4_addr . inet_service; flags interval" "$TMP/c.txt"

expect_ok "set flush" set flush netdev perf c
check "flushed set is empty" [ "$(set_elems netdev perf c)" = "[]" ]
expect_ok "set del" set del netdev perf c
check "deleted set is gone" set_absent netdev perf c
expect_ok "table del" table del netdev ref
expect_ok "ruleset flush" ruleset flush
check "ruleset empty after flush" [ -z "$(ruleset "$NS")" ]
finish
