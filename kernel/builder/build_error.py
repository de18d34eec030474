#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""build_error.py [--src TREE] LOG: what made a kernel build fail, from
make's output in LOG (kernel/builder/build's build.log), in two lines:

    first error: net/netfilter/nf_tables_core.c:262:9: error: 'x' undeclared ...
    in object:   net/netfilter/nf_tables_core.o

The first error is the compiler's (or the assembler's, or the linker's)
first "error:" line: with make -j, later ones are often the same mistake
seen again or another job stopped halfway.  The object is the target of
make's first "*** [...: TARGET] Error N" line, the innermost make that
failed.  --src TREE strips the source tree's path from file names (an
O= build names its sources by absolute path).  kernel/builder/build runs
it on a failed build; exit 1 when LOG shows neither."""
import argparse
import re
import sys

# gcc and clang: FILE:LINE[:COL]: [fatal ]error: TEXT
COMPILER_RE = re.compile(r"^(\S+?):(\d+):(?:\d+:)? (?:fatal )?error: ")
# as, ld, objtool and anything else that says error
OTHER_RE = re.compile(r"(?:\berror: |undefined reference to |\bError: )")
# make[N]: *** [FILE:LINE: TARGET] Error N   (or [TARGET] with old make)
MAKE_RE = re.compile(r"^make(?:\[\d+\])?: \*\*\* \[(?:[^\]]*?: )?([^\]\s]+)\] Error \d+")


def first_error(lines, src=None):
    """(error line, object) of a failed build's LINES; either may be None."""
    def strip(text):
        if src:
            text = text.replace(src.rstrip("/") + "/", "")
        return text.strip()

    err = next((ln for ln in lines if COMPILER_RE.match(ln)), None)
    if err is None:
        err = next((ln for ln in lines if OTHER_RE.search(ln) and not MAKE_RE.match(ln)), None)
    obj = next((m.group(1) for m in map(MAKE_RE.match, lines) if m), None)
    return (strip(err) if err else None), (strip(obj) if obj else None)


def describe(lines, src=None):
    """The two lines printed, or [] when LINES show no error."""
    err, obj = first_error(lines, src)
    out = []
    if err:
        out.append("first error: %s" % err)
    if obj:
        out.append("in object:   %s" % obj)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(prog="build_error.py", description=__doc__.split("\n")[0])
    ap.add_argument("--src", help="the source tree, stripped from file names")
    ap.add_argument("log")
    args = ap.parse_args(argv)
    with open(args.log, errors="replace") as f:
        out = describe(f.read().splitlines(), args.src)
    for line in out:
        print(line)
    return 0 if out else 1


if __name__ == "__main__":
    sys.exit(main())
