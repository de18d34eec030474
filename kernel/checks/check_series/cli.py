# SPDX-License-Identifier: GPL-2.0
"""The command line of kernel/checks/check-series (see __init__): the
base and its branches first, then the parts, then the plan line; the exit
status is the TAP's (1 when a check failed), or 1 when the base cannot be
fetched or its branches prepared (no TAP then), 2 for a usage error."""
import os
import sys

import tap

from . import bisection, kernels, matrix, stable
from .context import Context
from .host import DryHost, Host
from .libsh import LibSh
from .series_file import Series, SeriesError
from .settings import PARTS, from_environ

USAGE = "usage: kernel/checks/check-series [--dry-run]"
RUN = {"kernels": kernels.run, "stable": stable.run, "bisect": bisection.run, "matrix": matrix.run}
PREPARE_TREE = "kernel/builder/prepare-tree"
# the checkout this file is in, where kernel/lib.sh is; lib.sh says what
# NFTLAB_TOP is
HERE_TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def parse_args(argv):
    """Whether ARGV asks for a dry run; None for help; raises ValueError."""
    if argv in ([], ["--dry-run"]):
        return bool(argv)
    if argv in (["-h"], ["--help"]):
        return None
    raise ValueError(" ".join(argv))


def branch_of(host, libsh, top, variant):
    """(exit status, the base tree's branch of VARIANT): what
    kernel/builder/prepare-tree VARIANT prints once it made the branch;
    in a dry run, the name kernel/lib.sh gives it."""
    def named():
        rc, branch = libsh.call("variant_branch", variant)
        return branch if rc == 0 else "$(%s %s)" % (PREPARE_TREE, variant)
    return host.output(["%s/%s" % (top, PREPARE_TREE), variant], stand_in=named)


def the_base(host, libsh, top):
    """(the base tree, its patched branch, its baseline branch), the
    tree fetched and the branches prepared first; None when that failed."""
    if host.run(["%s/kernel/builder/fetch-base" % top]) != 0:
        return None
    rc, branch = branch_of(host, libsh, top, "patched")
    if rc != 0:
        return None
    rc, src = libsh.call("base_src")
    if rc != 0 and host.dry:
        src = "$(kernel/builder/fetch-base --print-path)"
    rc, lab_branch = branch_of(host, libsh, top, "baseline")
    if rc != 0:
        return None
    return src, branch, lab_branch


def main(argv, environ=None):
    environ = os.environ if environ is None else environ
    try:
        dry = parse_args(argv)
    except ValueError:
        print(USAGE, file=sys.stderr)
        return 2
    if dry is None:
        print(sys.modules[__package__].__doc__)
        return 0
    libsh = LibSh(HERE_TOP)
    # what lib.sh made of the environment: the checkout, the base (lib.sh
    # dies on an unknown one) and its series directory
    rc, facts = libsh.call("eval", 'printf "%s\\n" "$NFTLAB_TOP" "$NFTLAB_BASE" "$NFTLAB_PATCHES"')
    if rc != 0:
        return 1
    top, base, patches = facts.split("\n")
    try:
        series = Series(patches)
    except SeriesError as e:
        print("nftlab: %s" % e, file=sys.stderr)
        return 1
    settings = from_environ(environ, series, lambda key: libsh.text("base_field", key))
    host = DryHost() if dry else Host()
    tree = the_base(host, libsh, top)
    if tree is None:
        return 1
    src, branch, lab_branch = tree
    out = "%s/build/check/series" % top
    host.make_dirs(out)
    ctx = Context(top=top, base=base, settings=settings, series=series, host=host, tap=tap.Tap(),
                  libsh=libsh, src=src, branch=branch, lab_branch=lab_branch, out=out)
    for part in PARTS:
        if settings.wants(part):
            RUN[part](ctx)
    return tap.done(ctx.tap)
