# SPDX-License-Identifier: GPL-2.0
"""The command line of T0, nft_concat_range/t0.py: run, patch, plot,
report, validate, code, compare, commit (each with its own --help).  bench runs
T0 through it too (host.py: t0.py run --no-build into the bench run's
results directory)."""
import argparse
import os

import bases as baselib  # lib/bases.py
import rundir  # lib/rundir.py

from .. import lab
from . import (cells as t0cells, commit as t0commit, compare as t0compare, patch as t0patch, plot as t0plot,
               run as t0run)


# The run directory's tool and tag (lib/rundir.py) of each subcommand that
# makes one, when not given --results.
RUN_NAMES = {"run": ("t0", None), "patch": ("t0", "patch"), "commit": ("commit-count", None)}


def main(argv=None):
    """t0.py SUBCOMMAND ...: run, patch, plot, report, validate, code, compare, commit."""
    ap = argparse.ArgumentParser(prog="t0.py", description=t0cells.__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="boot the x86_64 kernels with the plugin and count")
    r.add_argument("--results", help="results directory (default build/results/t0-BASE-<UTC>, t0-BASE-ruleset-<UTC>"
                                      " with --ruleset)")
    r.add_argument("--quick", action="store_true", help="a few scenarios, small counts")
    r.add_argument("--rounds", type=int, default=t0cells.MIN_BOOTS,
                   help="boots per kernel and command line (validate wants %d)" % t0cells.MIN_BOOTS)
    r.add_argument("--reps", type=int, default=1, help="passes over the cells in each boot")
    baselib.add_option(r)
    r.add_argument("--nft", default="host",
                   help="the guest's nft (kernel/runner/lab-run --nft): host (default: the same ruleset bytecode"
                        " for every base, so counts compare across bases), current or a prefix")
    r.add_argument("--variants", default="baseline,patched")
    r.add_argument("--mitigations", default=",".join(t0cells.MITIGATIONS))
    r.add_argument("--no-build", dest="build", action="store_false")
    r.add_argument("--cells", metavar="BACKENDS", type=t0cells.cell_backends,
                   help="only the cells of these backends, comma-separated (e.g. drop,hash,dynset,ct,ctonly)")
    r.add_argument("--seed-probe", type=int, default=0, metavar="N",
                   help="N more groups per boot, each looking the packet up in a fresh 1001-element hash set")
    r.add_argument("--keep-done", action="store_true",
                   help="keep the boots RESULTS already holds that exited 0 with the same kernel build and counts")
    r.add_argument("--per-function", action="store_true",
                   help="also count the instructions per function (the plugin's funcs=PATH): where a cell's"
                        " instructions go, retpoline against spectre_v2=off, in the report")
    r.add_argument("--ruleset", action="append", default=[], metavar="FILE.nft",
                   help="count this ruleset instead of the suite's cells: per packet, with and without it"
                        " (repeat for more rulesets in the same boots; t0/ruleset.py)")
    r.add_argument("--packets", action="append", default=[], metavar="SPEC",
                   help="the packet a --ruleset is counted with, KEY=VALUE,...: daddr (required), saddr, sport,"
                        " dport, size, proto (udp: pktgen's only), route=local|forward|none (default local);"
                        " one for all rulesets or one per --ruleset, in order")
    r.add_argument("--label", action="append", default=[], metavar="VARIANT=TEXT", type=t0run.label_arg,
                   help="the name t0.py compare gives VARIANT's kernel (default: BASE VARIANT), e.g."
                        " patched='7.3 1-2' for a kernel with the first two patches of the series")
    r.add_argument("--kernel", action="append", default=[], metavar="VARIANT=KDIR", type=t0run.kernel_arg,
                   help="boot the kernel in KDIR as VARIANT instead of the lab's own (built elsewhere: t0.py"
                        " patch)")
    q = sub.add_parser("patch", help="anyone's patch: build the kernels before and after it, count both, report"
                                     " (make t0 PATCH=FILE)")
    q.add_argument("patch", metavar="FILE", help="an mbox saved from the list (its cover letter 0/N skipped), a git"
                   " format-patch directory or one patch")
    q.add_argument("--results", help="results directory (default build/results/t0-BASE-patch-<UTC>)")
    baselib.add_option(q, "the base tree the patch applies to")
    q.add_argument("--on", choices=("base", "ours"), default="base",
                   help="apply it on the base with the lab patches (default) or on our series too")
    q.add_argument("--rounds", type=int, default=t0cells.MIN_BOOTS,
                   help="boots per kernel and spectre_v2= setting (default %d)" % t0cells.MIN_BOOTS)
    q.add_argument("--nft", default="host", help="the guest's nft, as for run")
    q.add_argument("--cells", metavar="BACKENDS", type=t0cells.cell_backends,
                   help="only the cells of these backends, as for run (default: every cell of the suite)")
    q.add_argument("--ruleset", action="append", default=[], metavar="FILE.nft", help="as for run")
    q.add_argument("--packets", action="append", default=[], metavar="SPEC", help="as for run")
    g = sub.add_parser("plot", help="the chart of stored runs counted per function: instructions per packet by"
                                    " category, per cell (t0/plot.py)")
    g.add_argument("runs", nargs="+", metavar="RESULTS")
    g.add_argument("--out", required=True, help="directory for t0-categories.svg (and its .dat, .gp)")
    p = sub.add_parser("report", help="t0.json and t0.md from the raw counts (t0.md from t0.json without raw/)")
    p.add_argument("results")
    p.add_argument("--quiet", action="store_true")
    v = sub.add_parser("validate", help="TAP checks of a T0 run")
    v.add_argument("results")
    k = sub.add_parser("code", help="t0/code.json of a stored run counted per function, from its kernels")
    k.add_argument("results")
    k.add_argument("kernels", nargs="+", metavar="VARIANT=KDIR",
                   help="the kernel directory each variant booted (its BUILD-INFO stamp is recorded: check it"
                        " against the run's README)")
    c = sub.add_parser("compare", help="runs of different bases and kernels side by side")
    c.add_argument("runs", nargs="+", metavar="RESULTS")
    c.add_argument("--out", help="also write the text to this file")
    c.add_argument("--lookups", metavar="BACKENDS",
                   help="only the per-lookup table of these backends (comma-separated: hash,rbtree,pipapo)")
    c.add_argument("--cells", metavar="BACKENDS", type=t0cells.cell_backends,
                   help="only the per-packet table of these cells' backends, with each later kernel"
                        " less the first (e.g. drop,dynset: a patch's own figure)")
    c.add_argument("--where", metavar="BACKENDS", type=t0cells.cell_backends,
                   help="only the retpoline less spectre_v2=off table of these cells, by where the"
                        " instructions go, for the runs counted with run --per-function")
    c.add_argument("--function", metavar="NAMES",
                   help="only the instructions per packet spent in these kernel functions (comma-separated,"
                        " summed), every cell, for the runs counted with run --per-function")
    c.add_argument("--attribute", metavar="BACKENDS", type=t0cells.cell_backends,
                   help="two kernels: per cell of these backends, the functions whose instructions per packet"
                        " differ, and whether their code does (t0/code.json): which part of a delta a patch's"
                        " code causes")
    c.add_argument("--ratio", metavar="BACKENDS", type=t0cells.cell_backends,
                   help="only the retpoline against spectre_v2=off table of these cells: both counts, their"
                        " ratio, the thunks and the instructions above 1.03x off (issue #26's target)")
    c.add_argument("--posting", action="store_true",
                   help="name no lab run in the tables (for a posting): say how they were counted instead")
    c.add_argument("--summary", metavar="BACKENDS", type=t0cells.cell_backends,
                   help="two kernels: a cover letter's one table, per cell of these backends: thunks and"
                        " instructions per packet with retpolines and with spectre_v2=off, first -> second")
    c.add_argument("--kernels", metavar="LABELS",
                   help="only the kernels of these labels, comma-separated, in this order (e.g. '7.3 baseline'"
                        " of a run that also counted another patched kernel)")
    m = sub.add_parser("commit", help="kernel instructions per transaction on an interval set: a one-interval"
                                      " commit and a timeout update at each set size, per kernel (t0/commit.py)")
    m.add_argument("--results", help="results directory (default build/results/commit-count-BASE-<UTC>;"
                                      " required with --render)")
    m.add_argument("--kernel", action="append", default=[], metavar="LABEL=KDIR", type=t0run.kernel_arg,
                   help="an x86_64 kernel directory and its name in the report, repeated; the report's"
                        " difference is the last less the first")
    baselib.add_option(m)
    m.add_argument("--sizes", default="1000,10000,100000", help="set sizes in intervals, comma-separated")
    m.add_argument("--reps", type=int, default=3, help="transactions of each kind per size and boot")
    m.add_argument("--rounds", type=int, default=2, help="boots per kernel (2: a count is exact when both agree)")
    m.add_argument("--mitigation", default="retpoline", help="the kernels' spectre_v2= (default retpoline)")
    m.add_argument("--nft", default="host", help="the guest's nft, as for run")
    m.add_argument("--gc-interval", type=int, metavar="S",
                   help="the set's gc-interval in seconds, longer than the run: the transactions then run no"
                        " garbage collection (default: the set's default of a second, and each transaction"
                        " comes a second after the last, so that every one runs it)")
    m.add_argument("--render", action="store_true", help="write the report again from RESULTS/t0/commit.json")
    m.add_argument("--posting", metavar="FIRST,LAST",
                   help="the two kernels of the posting's table (default: the last two); kept in"
                        " commit.json, so that --render gives it again")
    args = ap.parse_args(argv)
    if args.cmd in ("run", "patch", "commit") and not args.results:
        if args.cmd == "commit" and args.render:
            ap.error("commit --render: give --results, the run to render")
        tool, tag = RUN_NAMES[args.cmd]
        if args.cmd == "run" and args.ruleset:
            tag = "ruleset"
        args.results = os.path.join(lab.TOP, "build", "results", rundir.name(tool, args.base, tag))
    if args.cmd == "commit":
        return t0commit.main(args)
    if args.cmd == "patch":
        return t0patch.run(args)
    if args.cmd == "plot":
        svg, why = t0plot.categories_svg(args.out, args.runs)
        if not svg:
            raise SystemExit("t0 plot: no chart: %s" % why)
        print(svg)
        return 0
    if args.cmd == "code":
        return t0run.code(args)
    if args.cmd == "compare":
        return t0compare.main(args)
    if args.cmd == "run":
        return t0run.run(args)
    if args.cmd == "report":
        return t0cells.report(args.results, args.quiet)
    return t0cells.validate(args.results)
