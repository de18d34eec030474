# SPDX-License-Identifier: GPL-2.0
"""t0.py patch FILE: what anyone's patch costs per packet (make t0
PATCH=FILE).

Steps, each refusing with its reason before the next costs anything:
  1. the base tree (kernel/builder/fetch-base);
  2. FILE as a series (kernel/series/user-series: an mbox, a format-patch
     directory or one patch; not a patch, empty, binary, does not apply,
     for another base: refused here, nothing built);
  3. the kernel before, the lab's own (x86_64 retpoline: variant baseline,
     or patched with --on ours), and the kernel after, the same with the
     patches on top (NFTLAB_USER_PATCHES: a kernel directory of its own,
     cached by the patches' bytes); a patch that does not build stops
     here with the compiler's first error and the object
     (kernel/builder/build_error.py);
  4. T0 in both (t0run.run, --per-function, 3 boots per kernel and
     spectre_v2= setting by default): a boot that fails prints its
     console's tail;
  5. the report: per cell and setting, instructions, retpoline thunks and
     other indirect calls before -> after with the verdict of t0.py
     compare (a delta counts where the ranges of at least 3 boots do not
     overlap), where the difference lies by function (compare
     --attribute), and the chart (t0/plot.py), in RESULTS/t0/patch.md.
"""
import os
import subprocess
import sys

from .. import lab
from ..model import parse_cell_id
from ..render import render_table
from . import cells as t0cells, compare as t0compare, plot as t0plot, run as t0run
from .text import short_cell

USER_SERIES = os.path.join(lab.TOP, "kernel", "series", "user-series")
VARIANT = {"base": "baseline", "ours": "patched"}


def log(msg):
    print("[t0 patch] %s" % msg, file=sys.stderr, flush=True)


def labels(base, on):
    """(before, after): the kernels' names in the report."""
    before = base if on == "base" else "%s ours" % base
    return before, before + " + patch"


def build(base, variant, user_dir=None):
    """kernel/builder/build --base BASE x86_64 VARIANT retpoline (with USER_DIR's
    patches on top): the kernel directory, or None (its errors are on
    stderr)."""
    env = dict(os.environ)
    env.pop("NFTLAB_USER_PATCHES", None)
    if user_dir:
        env["NFTLAB_USER_PATCHES"] = user_dir
    r = subprocess.run([lab.KERNEL_BUILD, "--base", base, "x86_64", variant, "retpoline"], stdout=subprocess.PIPE, text=True,
                       env=env)
    return (r.stdout.strip() or None) if r.returncode == 0 else None


def range_text(r, key):
    return "-" if r is None else r[key]


def cell_rows(rows, cells, before, after):
    """The summary table's rows: per cell and setting, instructions,
    thunks and other indirect calls before -> after, the delta and its
    verdict (t0compare.compact_delta)."""
    out = []
    for c, m in cells:
        a, b = rows.get((c, m, before)), rows.get((c, m, after))
        out.append([short_cell(c), m,
                    "%s -> %s" % (range_text(a, "kernel_insns"), range_text(b, "kernel_insns")),
                    "-" if a is None or b is None else t0compare.compact_delta(a, b),
                    "%s -> %s" % (range_text(a, "indirect_thunks"), range_text(b, "indirect_thunks")),
                    "%s -> %s" % (range_text(a, "indirect_other"), range_text(b, "indirect_other"))])
    return out


def summary(resdir, before, after):
    """The report's first table (lines)."""
    run, rows = t0compare.load(resdir)
    cells = sorted({(k[0], k[1]) for k in rows}, key=lambda cm: (parse_cell_id(cm[0])["backend"], cm[0], cm[1]))
    table = cell_rows(rows, cells, before, after)
    return ["Per packet, %s -> %s (%d boots per kernel and spectre_v2= setting):" % (before, after, run["rounds"]),
            ""] + render_table(["scenario", "spectre_v2", "instructions", "delta", "retpoline thunks",
                                "other indirect"], table).split("\n") + [
        "", "(a range is min..max over the boots; a delta counts where the ranges of at least %d boots"
        % t0cells.MIN_BOOTS, "do not overlap, '?' where they do: no difference proven)"]


def backends(resdir):
    """The cell backends of a run, for compare --attribute."""
    run, rows = t0compare.load(resdir)
    return sorted({parse_cell_id(k[0])["backend"] for k in rows})


def report(resdir, before, after, patch_names):
    """RESULTS/t0/patch.md and its text: the summary, the attribution and
    the chart."""
    out = ["T0 of a patch: %s" % ", ".join(patch_names), ""] + summary(resdir, before, after)
    try:
        attr = t0compare.compare([resdir], attribute=backends(resdir), kernels=[before, after])
    except SystemExit as e:
        attr = "  (no attribution: %s)\n" % e
    out += ["", "Where the difference lies, by function (t0.py compare --attribute):", "", attr.rstrip("\n")]
    svg, why = t0plot.categories_svg(os.path.join(resdir, "t0"), [resdir])
    out += ["", "Chart: %s" % (svg or "none (%s)" % why)]
    text = "\n".join(out) + "\n"
    with open(os.path.join(resdir, "t0", "patch.md"), "w") as f:
        f.write("```\n" + text + "```\n")
    return text


def run(args):
    """t0.py patch: steps 1-5 above; 0, or 1 with the reason on stderr."""
    before, after = labels(args.base, args.on)
    if subprocess.run([lab.FETCH_BASE, "--base", args.base]).returncode != 0:
        raise SystemExit("t0 patch: the base tree %s could not be fetched" % args.base)
    # user-series makes RESULTS/patches only for a series it accepts
    pdir = os.path.join(args.results, "patches")
    r = subprocess.run([USER_SERIES, "--base", args.base, "--on", args.on, "--out", pdir, args.patch])
    if r.returncode != 0:
        raise SystemExit("t0 patch: %s refused (above); nothing was built" % args.patch)
    with open(os.path.join(pdir, "series")) as f:
        names = [ln.strip() for ln in f if ln.strip() and not ln.startswith("#")]
    variant = VARIANT[args.on]
    log("kernel before: x86_64 %s retpoline (cold: about 20 min on 2 cores; cached afterwards)" % variant)
    kbefore = build(args.base, variant)
    if not kbefore:
        raise SystemExit("t0 patch: the lab's own x86_64 %s kernel does not build (above)" % variant)
    log("kernel after: the same with %d patch(es) on top (NFTLAB_USER_PATCHES=%s)" % (len(names), pdir))
    kafter = build(args.base, variant, pdir)
    if not kafter:
        raise SystemExit("t0 patch: the kernel with %s does not build: its first error and object are above"
                         % args.patch)
    rargs = t0run_args(args, kbefore, kafter, before, after)
    rc = t0run.run(rargs)
    text = report(args.results, before, after, names)
    print("\n" + text, end="")
    print("\nresults: %s" % os.path.join(args.results, "t0", "patch.md"))
    return rc


class Args:
    """t0run.run's arguments (t0/cli.py's run parser, as attributes)."""

    def __init__(self, **kw):
        self.__dict__.update(kw)


def t0run_args(args, kbefore, kafter, before, after):
    return Args(results=args.results, quick=False, rounds=args.rounds, reps=1, base=args.base, nft=args.nft,
                variants="baseline,patched", mitigations=",".join(t0cells.MITIGATIONS), build=False,
                cells=args.cells, seed_probe=0, keep_done=False, per_function=True, ruleset=args.ruleset,
                packets=args.packets, label=[("baseline", before), ("patched", after)],
                kernel=[("baseline", kbefore), ("patched", kafter)])
