#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The reproducer of the stable fix "netfilter: nft_set_rbtree: check open
# interval overlap before commit" for kernel/checks/check-series (part
# stable): open-interval.c, which check-series builds on the host first
# (open-interval.sh --build), run in the guest's network namespace.
# Exit 0: every overlap refused and every control accepted and matching;
# 1: reproduced (the case is named); 2: setup failed.
set -u
bin=$(cd "$(dirname "$0")/../.." && pwd)/build/reliability/open-interval
[ -x "$bin" ] || { echo "setup failed: no $bin (tests/reliability/open-interval.sh --build)"; exit 2; }
ip link set lo up || exit 2
"$bin"
