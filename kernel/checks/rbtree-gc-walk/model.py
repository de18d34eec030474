#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Usage: model.py SEED [--fault]

A model of the pairing of 7.3 series patch 12 ("netfilter: nft_set_rbtree:
collect expired intervals in the array walk"): 7.3's ->commit collects
expired intervals in a scan down the tree (nft_rbtree_gc_scan()), then
builds the array walking up; the patch collects them in the walk up
(nft_rbtree_commit_next()).  Both are run on 200,000 random sequences of
elements in ascending key order, each a start or end element, active or
inactive in both generations, expired or not (only a start element's
expiry is looked at); they must collect the same elements and build the
same array.  --fault never clears the pending end element, a planted bug
the model must find (tests/lab/series.sh runs both).  Exit 0: the same
in every sequence; 1: the first difference is printed."""
import random
import sys


def array_walk(elems):
    """7.3's array build over what is left, going up: (from, to) pairs
    of element numbers, None for a missing one."""
    out, cur = [], None
    for k, (idx, kind, _, _) in enumerate(elems):
        if kind == "s":
            cur = idx
        else:
            out.append((cur, idx))
            cur = None
        nxt = elems[k + 1] if k + 1 < len(elems) else None
        # anonymous sets: a start followed by a start ends its interval
        if nxt and kind == "s" and nxt[1] == "s" and cur is not None:
            out.append((cur, nxt[0]))
            cur = None
    if cur is not None:
        out.append((cur, None))
    return out


def scan_then_walk(elems):
    """nft_rbtree_gc_scan() going down, then the walk."""
    collected, end = set(), None
    for e in reversed(elems):
        idx, kind, active, expired = e
        if not active:
            continue
        if kind == "e":
            end = e
            continue
        if not expired:
            continue
        if end is not None:
            collected.add(end[0])
            end = None
        collected.add(idx)
    return collected, array_walk([e for e in elems if e[0] not in collected])


def walk_collecting(elems, fault):
    """nft_rbtree_commit_next() going up."""
    collected, kept, pending = set(), [], False
    for e in elems:
        idx, kind, active, expired = e
        if not active:
            kept.append(e)
        elif kind == "e":
            if not pending:
                kept.append(e)
                continue
            pending = fault
            collected.add(idx)
        elif not expired:
            kept.append(e)
        else:
            pending = True
            collected.add(idx)
    return collected, array_walk(kept)


def main():
    if len(sys.argv) not in (2, 3) or sys.argv[2:] not in ([], ["--fault"]):
        print(__doc__.split("\n")[0], file=sys.stderr)
        return 2
    rng = random.Random(int(sys.argv[1]))
    fault = sys.argv[2:] == ["--fault"]
    for _ in range(200000):
        elems = [(i, rng.choice("se"), rng.random() > 0.15, rng.random() < 0.3)
                 for i in range(rng.randint(0, 12))]
        a, b = scan_then_walk(elems), walk_collecting(elems, fault)
        if a != b:
            print("differ: %s\n  scan then walk: %s\n  walk collecting: %s" % (elems, a, b))
            return 1
    print("the same collected elements and array in 200000 sequences")
    return 0


if __name__ == "__main__":
    sys.exit(main())
