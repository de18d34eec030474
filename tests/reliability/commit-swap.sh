#!/bin/bash
# Reproducer of lookups that miss while a transaction commits: in one batch,
# a new pipapo set with the same elements, the rule replaced by one that
# looks it up, the old set deleted (the soak's "swap").  6.12's
# nf_tables_commit() makes the new rule visible and moves the generation
# cursor before pipapo's ->commit publishes the new set's elements, so a
# packet looked up in between, on another CPU, misses.  Fixed by the 6.12
# [stable] patch "netfilter: nf_tables: publish set data before the new
# rules go live"; found by docs/results/soak-swap-6.12-20261204T164823Z.
#
# Needs 2 CPUs or more (one commits, one looks up): refuses to run on one.
# Run as root in a network namespace of its own.  Adds table netdev rsoak
# and the dummy device rsoak0, removes both (tests/reliability/soak.py).
# Exit 0: no lookup missed; 1: reproduced; 2: setup failed or fewer than 2
# CPUs.
set -u
cpus=$(nproc)
if [ "$cpus" -lt 2 ]; then
	echo "commit-swap: $cpus CPU: the race needs 2 or more" >&2
	exit 2
fi
exec python3 "$(dirname "$0")/soak.py" --reproducer --seed 4 --seconds 20 \
	--ops swap --sets pipapo
