# SPDX-License-Identifier: GPL-2.0
"""Usage: kernel/series/expand-includes FILE...

Replaces every line "[[include PATH]]" of each FILE, in place, by the file
PATH (relative to the checkout): a table rendered from a stored run in
docs/results/, so that the figures a commit message or the cover letter
quotes are generated, never typed.  Code-fence lines of a rendered Markdown
file are dropped.  A missing PATH is an error that names it.

Also the one reader of a cover-letter blurb's format (split_blurb), for
make-cover-letter and tests/results/check-results.py.  The module of
kernel/series/expand-includes; series_postings, make-cover-letter and
check-results import it by name (lib/bootstrap.py).
"""
import os
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
INCLUDE = re.compile(r"^\[\[include (\S+)\]\]$", re.M)


class MissingInclude(Exception):
    """An "[[include PATH]]" line whose PATH does not exist."""


def expand(text, where):
    """TEXT with its include lines expanded; raises MissingInclude, whose
    message names WHERE (the file TEXT comes from) and the PATH."""
    def include(m):
        path = os.path.join(TOP, m.group(1))
        if not os.path.isfile(path):
            raise MissingInclude("expand-includes: %s includes %s, which does not exist"
                                 % (where, m.group(1)))
        with open(path) as f:
            body = f.read().rstrip("\n").split("\n")
        return "\n".join(line for line in body if not line.startswith("```"))

    return INCLUDE.sub(include, text)


def split_blurb(text, subject):
    """(subject, body) of a blurb: a first line "Subject: TEXT" gives the
    subject (else SUBJECT), the rest, blank lines in front dropped, is the
    body."""
    body = text.rstrip("\n")
    if body.startswith("Subject: "):
        subject, _, body = body.partition("\n")
        subject = subject[len("Subject: "):]
        body = body.lstrip("\n")
    return subject, body


def main(argv):
    if not argv:
        sys.exit(__doc__.strip())
    for name in argv:
        with open(name) as f:
            text = f.read()
        try:
            new = expand(text, name)
        except MissingInclude as e:
            sys.exit(str(e))
        if new != text:
            with open(name, "w") as f:
                f.write(new)

