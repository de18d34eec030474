# SPDX-License-Identifier: GPL-2.0
"""The bases a lab kernel is built from, for the Python tools.

A base is one file of kernel/builder/bases/, named after it (e.g. "7.3"),
of "key: value" lines: its Debian package and pin, its suite, its series
directory, cover-letter blurb, subject prefix, toolchains, cache directory,
lock, the guest's nft, and the roles that exactly one base has ("default:
yes", "lts: yes", "hookstress: yes").
kernel/lib.sh reads the same files for the shell tools (base_field,
flagged_base); a new base is one new file.

DIR, where a function takes it, is another bases directory (the unit
tests' fake bases)."""
import os
import re

TOP = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
BASES = os.path.join(TOP, "kernel", "builder", "bases")
FIELD_RE = re.compile(r"^([a-z][a-z0-9-]*): *(.*)$")


def names(bases_dir=BASES):
    """Every base, sorted."""
    return sorted(os.listdir(bases_dir))


def fields(base, bases_dir=BASES):
    """BASE's "key: value" lines as a dict."""
    out = {}
    with open(os.path.join(bases_dir, base)) as f:
        for line in f:
            m = FIELD_RE.match(line)
            if m:
                out[m.group(1)] = m.group(2).strip()
    return out


def field(base, key, bases_dir=BASES):
    """One field of BASE; SystemExit naming the file when it has none."""
    v = fields(base, bases_dir).get(key)
    if not v:
        raise SystemExit("kernel/builder/bases/%s has no '%s:' line" % (base, key))
    return v


def flagged(key, bases_dir=BASES):
    """The base whose file says "KEY: yes" (a role exactly one base has:
    default, lts, hookstress)."""
    found = [b for b in names(bases_dir) if fields(b, bases_dir).get(key) == "yes"]
    if len(found) != 1:
        raise SystemExit("kernel/builder/bases/: %d files say '%s: yes' (%s), not one"
                         % (len(found), key, ", ".join(found) or "none"))
    return found[0]


def default(bases_dir=BASES):
    """The base of a tool that is not given one."""
    return flagged("default", bases_dir)


def from_env(bases_dir=BASES):
    """The base a tool takes when not given --base: NFTLAB_BASE (what
    make BASE= exports, as kernel/lib.sh reads it), else the default."""
    base = os.environ.get("NFTLAB_BASE") or default(bases_dir)
    if base not in names(bases_dir):
        raise SystemExit("NFTLAB_BASE=%s: no such base (kernel/builder/bases/: %s)"
                         % (base, ", ".join(names(bases_dir))))
    return base


def add_option(ap, help="the kernels' base tree", default_base=None):
    """--base on the argparse parser AP: a base of kernel/builder/bases/;
    DEFAULT_BASE, else from_env(), when not given."""
    ap.add_argument("--base", default=default_base or from_env(), choices=names(),
                    help="%s (kernel/builder/bases/: %s; default %%(default)s)" % (help, ", ".join(names())))
