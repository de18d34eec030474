# SPDX-License-Identifier: GPL-2.0
"""The command line of bench, nft_concat_range/bench: the run (host.py)
and its subcommands plan, roles, report, validate, drift.  t0.py's is
t0/cli.py."""
import argparse
import sys

import bases as baselib  # lib/bases.py

from . import __doc__ as package_doc
from . import host
from .analysis import ESTIMATORS
from .drift import drift
from .model import DEFAULT_T2_LOOKUPS, DEV, ROLES
from .plans import parse_tables, roles_for, write_plan
from .report import report
from .tables import ALL_TABLES, KNOB_TABLES
from .validate import validate

BENCH = "nft_concat_range/bench"
# bench's first argument, when one of these, is a subcommand; otherwise
# bench runs the suite with the options given
SUBCOMMANDS = ("plan", "roles", "report", "validate", "drift")

BENCH_EPILOG = """\
T0 (exact per-packet counts, t0.py) runs the x86_64 kernels under QEMU TCG
when both are built already (`make t0` builds them).

Exit status: 0, or 1 when a boot failed (the report is written anyway).
Defaults: 6 boots per kernel x 2 repetitions of 0.5 s per cell, figures
from each boot's best sample (--estimator boot-best); 32 minutes on
7.3 once the kernels are built (2-core AMD EPYC,
docs/results/bench-7.3-default-20261206T154550Z).
--full: 1 s samples, plus the base tree's perf script (at most
NFTB_SELFTEST_LIMIT seconds per kernel).
NFTB_KNOB names the force-indirect sysctl of the patched kernels
(default %s); NFTB_BURST pktgen's burst
(default 1000); NFTB_SELFTEST_LIMIT the seconds the base tree's perf script
may run per kernel (default 600).

Subcommands, each with its own --help (%s SUBCOMMAND --help):
  plan      write a boot's plan and nft scripts
  roles     kernel roles the tables need
  report    results.json, report.md and SVGs of a results dir
  validate  TAP checks of a results dir
  drift     why samples of one cell differ within a boot (stored runs)
"""


def bench_parser():
    """The parser of `nft_concat_range/bench [OPTIONS]`, the run."""
    p = argparse.ArgumentParser(prog=BENCH, formatter_class=argparse.RawDescriptionHelpFormatter,
                                usage="%(prog)s [OPTIONS]\n       %(prog)s {" + ",".join(SUBCOMMANDS) +
                                "} ...",
                                epilog=BENCH_EPILOG % (host.KNOB, BENCH),
                                description="nftbench, nftlab's performance suite: builds (or "
                                "reuses) the UML lab kernels the tables need, boots them with kernel/runner/lab-run, "
                                "runs guest/run-plan in them and writes build/results/bench-<base>-<UTC>/ with "
                                "results.json, report.md and one SVG per table. The tables are printed at the end; "
                                "progress goes to stderr.")
    p.add_argument("--tables", type=parse_tables, metavar="T1,T2,...",
                   help="tables to measure (default all: T0..T7, but those that compare the lab knob, %s, only "
                   "on a base whose kernels have it; --quick: T1..T7)" % ",".join(KNOB_TABLES))
    baselib.add_option(p, "the base tree of the lab kernels")
    p.add_argument("--arch", choices=("um", "x86_64"), default="um",
                   help="where the guest side runs: the UML lab kernels (default) or the x86_64 kernels under "
                   "QEMU TCG, which checks that the scenarios work on real x86 (retpoline thunks, objtool); "
                   "TCG rates are not performance figures")
    p.add_argument("--full", dest="mode", action="store_const", const="full", default="default",
                   help="longer samples (1 s instead of 0.5) plus the base tree's "
                   "nft_concat_range.sh performance group")
    p.add_argument("--quick", dest="mode", action="store_const", const="quick",
                   help="every scenario once, short samples, on the patched retpoline kernel only "
                   "(validity, never speed)")
    p.add_argument("--no-build", dest="build", action="store_false",
                   help="use only kernels already built; tables that need a missing kernel say \"not measured\"")
    p.add_argument("--rounds", type=int, metavar="N", help="boots per kernel, alternated between kernels")
    p.add_argument("--reps", type=int, metavar="N", help="interleaved repetitions per cell in each boot")
    p.add_argument("--duration", metavar="S", help="seconds per sample")
    p.add_argument("--t2-lookups", type=int, default=DEFAULT_T2_LOOKUPS, metavar="N",
                   help="lookup rules per packet in T2 and T5 (default %d)" % DEFAULT_T2_LOOKUPS)
    p.add_argument("--results", metavar="DIR", help="results directory (default build/results/bench-<base>-<UTC>)")
    p.add_argument("--selftest", action="store_const", const=True,
                   help="also run the base tree's performance group (default with --full)")
    p.add_argument("--estimator", choices=ESTIMATORS,
                   help="what a cell's figures are made of: each boot's fastest sample (boot-best, the default: "
                   "one value per boot, so --rounds 6 or more), or every sample (samples, --quick's default; "
                   "see analysis.py)")
    return p


def subcommand_parser():
    """The parser of `nft_concat_range/bench SUBCOMMAND ...`."""
    ap = argparse.ArgumentParser(prog=BENCH, description=package_doc.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("plan", help="write a boot's plan and nft scripts")
    p.add_argument("--role", required=True, choices=sorted(ROLES))
    p.add_argument("--tables", default=",".join(ALL_TABLES))
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--duration", default="1")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--dev", default=DEV)
    p.add_argument("--t2-lookups", type=int, default=DEFAULT_T2_LOOKUPS)
    p.add_argument("--every", action="store_true", help="every scenario on this kernel (quick)")
    p.add_argument("--out", required=True)
    p = sub.add_parser("roles", help="kernel roles the tables need")
    p.add_argument("--tables", default=",".join(ALL_TABLES))
    p = sub.add_parser("report", help="results.json, report.md and SVGs of a results dir")
    p.add_argument("resdir")
    p.add_argument("--quiet", action="store_true")
    p.add_argument("--estimator", choices=ESTIMATORS,
                   help="analyse the run's samples this way from now on (recorded in its meta)")
    p = sub.add_parser("validate", help="TAP checks of a results dir")
    p.add_argument("resdir")
    p = sub.add_parser("drift", help="why samples of one cell differ within a boot (stored runs)")
    p.add_argument("paths", nargs="+", help="results directories or results .json files")
    return ap


def bench_main(argv=None):
    """nft_concat_range/bench [OPTIONS] runs the suite;
    nft_concat_range/bench SUBCOMMAND ... the subcommands."""
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] not in SUBCOMMANDS:
        return host.run(bench_parser().parse_args(argv))
    args = subcommand_parser().parse_args(argv)
    if args.cmd == "plan":
        print(write_plan(args.role, parse_tables(args.tables), args.reps, args.duration, args.seed, args.dev,
                         args.t2_lookups, args.every, args.out))
        return 0
    if args.cmd == "roles":
        for r in roles_for(parse_tables(args.tables)):
            print("%s %s %s" % ((r,) + ROLES[r]))
        return 0
    if args.cmd == "report":
        return report(args.resdir, args.quiet, args.estimator)
    if args.cmd == "validate":
        return validate(args.resdir)
    print(drift(args.paths))
    return 0
