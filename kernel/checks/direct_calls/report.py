# SPDX-License-Identifier: GPL-2.0
"""The TAP report: one line per verdict, the same lines as
tests/lab/tap.sh prints (callers grep "^not ok [0-9]* - SITE: ")."""
import sys

from .classify import classify
from .sites import verdicts

# kselftest exit statuses
KSFT_PASS = 0
KSFT_FAIL = 1
KSFT_SKIP = 4


class Tap:
    """TAP lines on OUT; a failure of a site in TODO ({site: reason}) is
    "not ok ... # TODO REASON": reported, never a pass, and it does not
    fail the run."""

    def __init__(self, out=None, todo=None):
        self.out = out or sys.stdout
        self.todo = todo or {}
        self.n = 0
        self.failed = 0

    def line(self, text):
        self.out.write(text + "\n")

    def result(self, passed, description, site=None):
        self.n += 1
        if passed:
            self.line("ok %d - %s" % (self.n, description))
        elif site in self.todo:
            self.line("not ok %d - %s # TODO %s" % (self.n, description, self.todo[site]))
        else:
            self.line("not ok %d - %s" % (self.n, description))
            self.failed += 1

    def end(self):
        """The plan line; the exit status."""
        self.line("1..%d" % self.n)
        return KSFT_FAIL if self.failed else KSFT_PASS


def check_site(tap, images, site, flavor, verbose=False):
    """SITE's TAP lines: its functions are looked up in every image."""
    events = []
    where = []
    for image in images:
        lines = image.disassembly(site.pattern)
        if not lines:
            continue
        where.append(image.name)
        events += classify(lines, image.addr2sym())
    if not where:
        tap.result(False, "%s: no function matching %s in the files given"
                   % (site.title, site.pattern), site.title)
        return
    tap.line("# %s: site in %s" % (site.title, " ".join(where)))
    if site.title in tap.todo:
        tap.line("# %s: expected to fail in this build: %s" % (site.title, tap.todo[site.title]))
    if verbose:
        for event in events or [""]:
            tap.line("# %s: %s" % (site.title, event))
    for passed, description in verdicts(site, events, flavor):
        tap.result(passed, description, site.title)
