# SPDX-License-Identifier: GPL-2.0
"""What the commands leave behind, as the checks read it: a kernel
directory of kernel/builder/build (linux, config, BUILD-INFO) and a
guest's TAP report.  In a dry run nothing was built or booted: a check of
such a product is taken as passed, and what only names things (a
BUILD-INFO field, a config option's name) is read where a kernel of that
name exists, else stands as the shell expression that would give it."""
import os
import re


def read_file(path):
    """The text of the file PATH, or None; read in a dry run too."""
    try:
        with open(path, encoding="utf-8", errors="surrogateescape", newline="") as f:
            return f.read()
    except OSError:
        return None


class Kernel:
    """The kernel directory PATH (kernel/builder/build's output)."""

    def __init__(self, path, dry=False):
        self.path = path
        self.dry = dry

    def bootable(self):
        """It has a linux to boot (UML): [ -x "${kernel:-/nonexistent}/linux" ]."""
        return self.dry or os.access("%s/linux" % (self.path or "/nonexistent"), os.X_OK)

    def config_lines(self):
        """The lines of its .config (a missing file has none)."""
        return set((read_file("%s/config" % self.path) or "").split("\n"))

    def config_lacks(self, lines):
        """Those of LINES its config does not have, whole lines compared."""
        if self.dry:
            return []
        have = self.config_lines()
        return [line for line in lines if line not in have]

    def config_has(self, line):
        return line in self.config_lines()

    def info(self, key):
        """The values of the BUILD-INFO lines "KEY: VALUE", one a line."""
        text = read_file("%s/BUILD-INFO" % self.path)
        if text is None and self.dry:
            return "$(sed -n 's/^%s: //p' %s/BUILD-INFO)" % (key, self.path)
        head = key + ": "
        values = [line[len(head):] for line in (text or "").split("\n") if line.startswith(head)]
        return "\n".join(values).rstrip("\n")

    def info_lines(self, keys):
        """The BUILD-INFO lines of the keys KEYS, joined by ";"."""
        pattern = re.compile("^(%s):" % "|".join(keys))
        text = read_file("%s/BUILD-INFO" % self.path) or ""
        return ";".join(line for line in text.split("\n") if pattern.match(line))


def report(tap, dry, prefix, path, console):
    """A guest's TAP report forwarded into TAP (lib/tap.py Tap.report)."""
    if dry:
        tap.line("# dry run: the guest's report %s would follow" % path)
    else:
        tap.report(prefix, path, console)


def forward(tap, dry, prefix, path):
    """A program's TAP report forwarded into TAP (lib/tap.py Tap.forward)."""
    if dry:
        tap.line("# dry run: the test lines of %s would follow" % path)
    else:
        tap.forward(prefix, path)
