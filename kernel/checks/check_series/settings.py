# SPDX-License-Identifier: GPL-2.0
"""What the environment asks of check-series, with its defaults (the
variables are documented in __init__)."""
from dataclasses import dataclass

# The parts in the order they run, whatever the order NFTLAB_SERIES_PARTS
# names them in: the quick ones first.
PARTS = ("kernels", "stable", "bisect", "matrix")
MATRIX = "modules plain llvm ibt kcfi kprobes"
FLAVORS = "retpoline plain"


@dataclass
class Settings:
    parts: str           # NFTLAB_SERIES_PARTS as given, or its default
    matrix: list         # the matrix items, in order
    flavors: list        # the bisect's flavors, in order
    llvm_toolchain: str
    kcfi_toolchain: str
    stable_fixes: str    # globs; "" selects every fix

    def wants(self, part):
        """Whether PART is one of the blank-separated words of parts.  The
        test is the shell's ' $parts ' containing ' $part ': a tab is not
        a separator there, nor is it here."""
        return " %s " % part in " %s " % self.parts


def default_parts(series):
    """The parts a series asks for: bisect and matrix, stable where it has
    [stable] fixes; kernels alone where it has no feature patch yet."""
    if not series.groups["feature"]:
        return "kernels"
    return "bisect matrix stable" if series.groups["stable"] else "bisect matrix"


def from_environ(environ, series, base_field):
    """The Settings of ENVIRON.  BASE_FIELD(key) is the base's field KEY
    (kernel/lib.sh base_field), asked only for a toolchain the environment
    leaves unset or empty, as the shell's ${VAR:=default} does."""
    def get(name, default):
        value = environ.get(name, "")
        return value if value else default()

    return Settings(
        parts=get("NFTLAB_SERIES_PARTS", lambda: default_parts(series)),
        matrix=get("NFTLAB_MATRIX", lambda: MATRIX).split(),
        flavors=get("NFTLAB_SERIES_FLAVORS", lambda: FLAVORS).split(),
        llvm_toolchain=get("NFTLAB_LLVM_TOOLCHAIN", lambda: base_field("llvm-toolchain")),
        kcfi_toolchain=get("NFTLAB_KCFI_TOOLCHAIN", lambda: base_field("kcfi-toolchain")),
        stable_fixes=environ.get("NFTLAB_STABLE_FIXES", ""),
    )
