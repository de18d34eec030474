# SPDX-License-Identifier: GPL-2.0
"""The series file of a base (PATCHES/series): its patches by group.

The same reading as kernel/lib.sh series_patches, which kernel/builder/
prepare-tree applies by, so that check-series checks the patches the
trees are made of: the text after a "#" is a comment, every blank inside a
line is dropped, "[lab]", "[feature]", "[lab-patched]" and "[stable]" start
a group, any other "[...]" is an error, and a last line without its
newline is not read (the shell's read loop does not read it)."""
import os

GROUPS = ("lab", "feature", "lab-patched", "stable")
# the shell's [[:space:]] in the C locale
BLANKS = " \t\n\v\f\r"


class SeriesError(Exception):
    pass


def parse(text, where="series"):
    """{group: [file names, in series order]} of the series file TEXT
    (WHERE names it in an error)."""
    groups = {g: [] for g in GROUPS}
    current = None
    for line in text.split("\n")[:-1]:
        line = "".join(c for c in line.split("#", 1)[0] if c not in BLANKS)
        if not line:
            continue
        if line.startswith("["):
            if line[1:-1] not in GROUPS or not line.endswith("]"):
                raise SeriesError("%s: unknown group %s" % (where, line))
            current = line[1:-1]
        elif current is not None:
            groups[current].append(line)
    return groups


class Series:
    """The series directory PATCHES_DIR (NFTLAB_PATCHES) and its groups."""

    def __init__(self, patches_dir):
        self.dir = patches_dir
        path = os.path.join(patches_dir, "series")
        try:
            with open(path, encoding="utf-8", errors="surrogateescape", newline="") as f:
                text = f.read()
        except OSError as e:
            raise SeriesError("%s: %s" % (path, e.strerror))
        self.groups = parse(text, path)

    def patches(self, group):
        """The paths of GROUP's patches, as series_patches prints them."""
        return ["%s/%s" % (self.dir, name) for name in self.groups[group]]
