# SPDX-License-Identifier: GPL-2.0
"""nftbench - plans, statistics and reports of the performance suite (nft_concat_range/).

Theory of operation
-------------------
The suite measures the cost of nf_tables set lookups the way the base tree's
nft_concat_range.sh performance group does (Brivio's method, seed 002):
pktgen injects one packet over and over into the receive path of a dummy
device (xmit_mode netif_receive) and a netdev ingress chain drops it.  The
packet rate with a rule that looks the packet up in a set, compared with the
rate of a rule that only drops, gives the cost of one lookup:

    ns per lookup = 1e9 / rate(lookup rule) - 1e9 / rate(drop rule)

One lookup is a few percent of the per-packet cost and pktgen rates in the
lab move 10-20 % from run to run, so:

  * every cell is measured many times, interleaved with the cells it is
    compared with (shuffled order per repetition, knob toggles inside one
    boot) and, where two kernels are compared, in alternating boots;
  * the lookup cost is taken per repetition against the drop rate measured
    next to it (paired), then summarised by the median with a
    distribution-free 95 % confidence interval (order statistics);
  * A/B verdicts come from Debian's ministat (Student's t, 95 %), quoted
    verbatim; an A/A pair (same kernel, same configuration) shows the noise
    floor;
  * small costs are amplified: N identical lookup rules per packet, the
    per-lookup cost being the least-squares slope of ns/packet over N.

Every sample carries pktgen's own packet count and the rule counter; a
sample where they differ is invalid and makes its whole cell invalid.

This package never runs inside the guest: plans.py writes plain files
(plan, nft and nftlab scripts) that guest/run-plan executes with nothing but
bash, nft, ip and /proc/net/pktgen, and that writes back JSON records
(guestlog).  On the host, host.py is bench: it boots the kernels through lab
and records the run as it goes (runlog).

Modules, one job each: model (set types, sets, backends, roles, cell IDs),
generators (sets, packets, nft scripts), plans, lab (the kernel scripts, the
kernel cache, a boot's command line), host (bench's run), runlog (what it
records), guestlog (what the guest records), ingest (results directories),
stats, analysis (cells, summaries, ministat, noise floor), render (text),
plots (gnuplot), report, validate, drift, loads (nft -f vs nftlab), basecmp
(the base tree's perf script), cli (bench's options); tables/ holds one
module per table (T1..T7: cells, analysis, text, chart, expected shape);
T0 (exact counts, not a bench table) is the subpackage t0/, whose
docstring lists its modules.  Entry points: ../bench (the run and its
subcommands) and ../t0.py.  The TAP lines of validate come from the
project's library, lib/tap.py, which the scripts put on sys.path
(lib/bootstrap.py); the package itself edits no sys.path.

Imports go one way, down: cli -> host -> report -> t0 -> plans, tables
-> analysis, generators, model, ...; no module imports one that imports
it back, and none imports inside a function (tests/unit/test_imports.py).
"""
