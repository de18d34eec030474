# SPDX-License-Identifier: GPL-2.0
"""Part stable: each [stable] fix's reproducer, and the selftest the fix
adds, on the baseline kernel (where it must fail: else it proves nothing)
and on the stable kernel (the lab patches and the fixes only), where it
must pass.  Which test each fix has and where it runs: stable_fixes."""
import os

from . import stable_fixes

KSELFTEST = "tests/lab/stable-kselftest"
# the reproducer in a network namespace of its own; $1 is the script
IN_NETNS = 'ip netns add r && ip netns exec r "$1"; rc=$?; ip netns del r; exit "$rc"'
# the selftest from its directory; $1 the directory, $2 the script
IN_DIR = 'cd "$1" && exec ./"$2"'


def as_comments(text):
    """TEXT with "# " before every line, the last one even without its
    newline (sed 's/^/# /')."""
    if not text:
        return ""
    lines = text.split("\n")
    last = lines.pop()
    return "".join("# %s\n" % line for line in lines) + ("# %s" % last if last else "")


def guest(ctx, kernel, results, lab, timeout, cmd, want):
    """CMD in a guest of KERNEL, its results in a new RESULTS directory,
    its console there and on stdout as comments; CMD's exit status (WANT
    in a dry run)."""
    ctx.host.remove_tree(results)
    ctx.host.make_dirs(results)
    rc = ctx.lab_run(kernel, results, timeout, cmd, before=lab, dry_status=want)
    ctx.host.echo(as_comments(ctx.host.read_text("%s/console.log" % results)))
    return rc


def check_on_both(ctx, guest_of, results_of, cmd, what):
    """CMD on the baseline and the stable kernel: one line for each build
    and one for each exit status."""
    for variant in ("baseline", "stable"):
        build, lab, timeout = guest_of(variant)
        rc, kernel = ctx.build(build)
        ctx.result("%s %s builds" % (ctx.base, " ".join(build)), rc)
        if rc != 0:
            continue
        want = stable_fixes.wanted_exit(variant)
        rc = guest(ctx, kernel, results_of(variant), lab, timeout, cmd, want)
        ctx.tap.ok(rc == want, "%s %s: %s exits %d (exit %d)" % (ctx.base, " ".join(build), what, want, rc))


def run(ctx):
    host = ctx.host
    globs = ctx.settings.stable_fixes
    out = "%s/stable-%s" % (ctx.out, ctx.base)
    # a selection keeps the output of the fixes it skips
    if not globs:
        host.remove_tree(out)
    selected = 0
    for fix in ctx.series.patches("stable"):
        name = os.path.basename(fix)
        if not stable_fixes.selected(fix, globs):
            ctx.tap.skip("stable fix %s" % name, "not in NFTLAB_STABLE_FIXES=%s" % globs)
            continue
        selected += 1
        repro = stable_fixes.reproducer(fix)
        if repro is None:
            ctx.tap.ok(False, "stable fix %s has a reproducer (kernel/checks/check-series)" % name)
            continue
        repro_name = os.path.basename(repro)
        prepare = stable_fixes.prepare(repro)
        if prepare:
            rc = host.run([ctx.tool(prepare[0])] + prepare[1:])
            ctx.tap.ok(rc == 0, "%s: %s" % (repro_name, " ".join(prepare)))
        check_on_both(ctx, lambda v: stable_fixes.reproducer_guest(repro, v),
                      lambda v: "%s/%s-%s" % (out, repro_name, v),
                      ["bash", "-c", IN_NETNS, "_", ctx.tool(repro)], repro)
        kselftest = stable_fixes.kselftest(fix)
        if not kselftest:
            continue
        rc, ksdir = host.output([ctx.tool(KSELFTEST), "%s/kselftest" % out, kselftest],
                                stand_in="$(%s %s/kselftest %s)" % (KSELFTEST, out, kselftest))
        ctx.result("%s: its selftest %s extracts from the stable tree and builds" % (name, kselftest), rc)
        # the line reports; it does not stop the guests that need it
        if rc != 0:
            continue
        check_on_both(ctx, stable_fixes.kselftest_guest,
                      lambda v: "%s/%s-%s" % (out, kselftest, v),
                      ["bash", "-c", IN_DIR, "_", ksdir, kselftest], "selftest %s" % kselftest)
    if selected == 0:
        ctx.tap.ok(False, "NFTLAB_STABLE_FIXES='%s' selects a stable fix of %s" % (globs, ctx.base))
