# SPDX-License-Identifier: GPL-2.0
"""Part bisect: the UML kernel after every feature patch, built and
booted with the smoke test, in each of NFTLAB_SERIES_FLAVORS.  The first
step is the baseline, every lab patch at once; then one step per commit
of the patched branch past it (the feature patches, then the
lab-patched ones).  (Not bisect.py: see __init__.)"""
import re

from .context import SMOKE
from .products import read_file

CONFIG_OPTION = re.compile(r"^CONFIG_([A-Za-z0-9_]*)=")


def feature_options(text):
    """The option names of the base's feature_config fragment TEXT (the
    options the feature patches introduce)."""
    return [m.group(1) for m in map(CONFIG_OPTION.match, text.split("\n")) if m]


def lines(text):
    """The lines of a command's output, as mapfile -t reads them."""
    out = text.split("\n")
    if out[-1] == "":
        out.pop()
    return out


def step_name(i, subject):
    """What the TAP lines call step I (from 1): the first is the baseline."""
    return "all lab patches (baseline): %s" % subject if i == 1 else subject


def commits(ctx):
    """The baseline's tip, then every commit of the patched branch past it."""
    host = ctx.host
    # mapfile -t commits < <(git rev-parse ...; git rev-list ...): one stream
    text = host.query_output(ctx.git("rev-parse", ctx.lab_branch), strip=False)[1]
    text += host.query_output(ctx.git("rev-list", "--reverse", "%s..%s" % (ctx.lab_branch, ctx.branch)),
                              strip=False)[1]
    return lines(text)


def variant_of(ctx, options, commit):
    """The configuration COMMIT builds with: patched once every option of
    the feature fragment exists in its Kconfig files; before the patch
    that adds them, baseline (kernel/builder/check-config would rightly
    refuse an option that does not exist yet)."""
    for opt in options:
        # captured, as in the shell's $(variant_of ...): git grep -q prints nothing
        rc = ctx.host.query_output(ctx.git("grep", "-q", "-E", "^(menu)?config %s$" % opt, commit, "--", "*Kconfig*"))[0]
        if rc != 0:
            return "baseline"
    return "patched"


def run(ctx):
    host = ctx.host
    steps = commits(ctx)
    options = feature_options(read_file(ctx.libsh.text("feature_config")) or "")
    if host.dry and not steps:
        ctx.diag("dry run: no branches %s and %s in %s yet: the commits are unknown"
                 % (ctx.lab_branch, ctx.branch, ctx.src))
    out = "%s/bisect" % ctx.out
    host.remove_tree(out)
    n = len(steps)
    for i, commit in enumerate(steps, 1):
        subject = step_name(i, host.query_output(ctx.git("log", "-1", "--format=%s", commit))[1])
        variant = variant_of(ctx, options, commit)
        for flavor in ctx.settings.flavors:
            host.log("patch %d/%d (%s): %s" % (i, n, flavor, subject))
            rc, kernel = ctx.build(["--rev", commit, "--tag", "series", "um", variant, flavor])
            ctx.result("patch %d/%d builds (um %s, %s config): %s" % (i, n, flavor, variant, subject), rc)
            if not kernel.bootable():
                continue
            results = "%s/%d-%s" % (out, i, flavor)
            host.make_dirs(results)
            rc = ctx.lab_run(kernel, results, 120, [ctx.tool(SMOKE)])
            ctx.result("patch %d/%d boots and passes the smoke test (um %s)" % (i, n, flavor), rc)
