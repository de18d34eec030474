#!/usr/bin/env python3
"""Compare the compiler warnings of two builds of the same objects.

Usage: compare-warnings.py [--strip PREFIX]... BASELINE.log PATCHED.log

Each log is the output of `make W=1 OBJ...` for the baseline and the
patched tree.  A warning is identified by its file, its message and its
option ([-Wfoo]), not by its line and column: the series moves lines, so a
warning the baseline tree already has is not blamed on the series.  Equal
warnings are counted (a multiset): a second copy of a known warning is new.

Prints both counts and every warning the patched build has beyond the
baseline's, as "# " lines; exits 1 when there is one, 0 otherwise, 2 on bad
input.
"""
import argparse
import collections
import re
import sys

# clang and gcc: "path:line:col: warning: message [-Wflag]"
WARNING = re.compile(r"^(?P<file>[^:\s][^:]*):(?P<line>\d+):(?:(?P<col>\d+):)? "
                     r"warning: (?P<msg>.*)$")


def warnings(path, strip):
    """Counter of (file, message) and the first full line of each."""
    found = collections.Counter()
    example = {}
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for raw in f:
                m = WARNING.match(raw.rstrip("\n"))
                if not m:
                    continue
                name = m.group("file")
                for p in strip:
                    if name.startswith(p):
                        name = name[len(p):]
                        break
                key = (name, m.group("msg"))
                found[key] += 1
                example.setdefault(key, f"{name}:{m.group('line')}: warning: {m.group('msg')}")
    except OSError as e:
        print(f"compare-warnings: {e}", file=sys.stderr)
        sys.exit(2)
    return found, example


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--strip", action="append", default=[],
                    help="path prefix to remove from file names (the source tree)")
    ap.add_argument("baseline")
    ap.add_argument("patched")
    args = ap.parse_args()
    strip = sorted(args.strip, key=len, reverse=True)
    base, _ = warnings(args.baseline, strip)
    new, example = warnings(args.patched, strip)
    extra = new - base
    gone = base - new
    print(f"# warnings: baseline {sum(base.values())}, patched {sum(new.values())}, "
          f"new in patched {sum(extra.values())}, only in baseline {sum(gone.values())}")
    for key, count in sorted(extra.items()):
        print(f"# new: {example[key]}" + (f" (x{count})" if count > 1 else ""))
    return 1 if extra else 0


if __name__ == "__main__":
    sys.exit(main())
