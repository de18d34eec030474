# SPDX-License-Identifier: GPL-2.0
"""The TAP report: one line per verdict, lib/tap.py's lines (callers grep
"^not ok [0-9]* - SITE: ")."""
import tap

from .classify import classify
from .sites import verdicts

# kselftest exit statuses
KSFT_PASS = 0
KSFT_FAIL = 1
KSFT_SKIP = 4


class Tap(tap.Tap):
    """TAP lines on OUT; a failure of a site in TODO ({site: reason}) is
    "not ok ... # TODO REASON": reported, never a pass, and it does not
    fail the run."""

    def __init__(self, out=None, todo=None):
        super().__init__(out)
        self.todo_sites = todo or {}

    def result(self, passed, description, site=None):
        if not passed and site in self.todo_sites:
            self.todo(description, self.todo_sites[site])
        else:
            self.ok(passed, description)

    def end(self):
        """The plan line; the exit status."""
        return KSFT_FAIL if tap.done(self) else KSFT_PASS


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
    if site.title in tap.todo_sites:
        tap.line("# %s: expected to fail in this build: %s" % (site.title, tap.todo_sites[site.title]))
    if verbose:
        for event in events or [""]:
            tap.line("# %s: %s" % (site.title, event))
    for passed, description in verdicts(site, events, flavor):
        tap.result(passed, description, site.title)
