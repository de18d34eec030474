#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Usage: lib/rundir.py TOOL BASE [TAG]

The one form of a run directory's name, under build/results/ while it
runs and under docs/results/ once stored:

    <tool>-<base>-<tag>-<UTC>      e.g. t0-7.3-nf-next-v7-20261206T041955Z
    <tool>-<base>-<UTC>            a run with no tag

- tool: the program that made the run (t0, bench, check-series, ...);
- base: the base kernel the run measured (a file of kernel/builder/bases/),
  "both" for a run over every base, "host" for a run on the host's own
  kernel (no lab kernel);
- tag: what sets the run apart from others of the tool (a series version,
  a table, a question), lower case;
- UTC: when the run started, %Y%m%dT%H%M%SZ.

The base leads the tag so that `ls docs/results/` groups a tool's runs
by base, and the time ends the name so that they sort in time.

Run as a program, prints the name for now (for the shell tools)."""
import re
import sys
import time

FORM = re.compile(r"^(?P<tool>[a-z][a-z0-9]*(?:-[a-z0-9]+)*?)"
                  r"-(?P<base>[0-9]+\.[0-9]+|both|host)"
                  r"(?:-(?P<tag>[a-z0-9][a-z0-9.+-]*?))?"
                  r"-(?P<utc>[0-9]{8}T[0-9]{6}Z)$")
NOT_A_BASE = ("both", "host")
TAG_RE = re.compile(r"^[a-z0-9][a-z0-9.+-]*$")


def name(tool, base, tag=None, now=None):
    """The name of a run of TOOL on BASE, tagged TAG, started at NOW
    (seconds since the epoch; default: now)."""
    if tag is not None and not TAG_RE.match(tag):
        raise ValueError("run tag %r: lower-case letters, digits, '.', '+' and '-' only" % tag)
    utc = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(now))
    run = "-".join(p for p in (tool, base, tag, utc) if p)
    if not FORM.match(run):
        raise ValueError("run name %r does not have the form <tool>-<base>-<tag>-<UTC>" % run)
    return run


def parse(run):
    """The parts of a run's name (tool, base, tag, utc), or None when the
    name does not have the form."""
    m = FORM.match(run)
    return m.groupdict() if m else None


def main(argv):
    if len(argv) not in (2, 3) or argv[0].startswith("-"):
        sys.stderr.write(__doc__.split("\n\n", 1)[0] + "\n")
        return 2
    try:
        print(name(*argv))
    except ValueError as e:
        sys.stderr.write("rundir: %s\n" % e)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
