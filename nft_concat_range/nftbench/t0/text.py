# SPDX-License-Identifier: GPL-2.0
"""How T0 writes its figures and names its cells, for every table of it
(t0/cells.py's report, t0/breakdown.py, t0/ruleset.py, t0/compare.py,
t0/plot.py, t0/patch.py): a per-packet count as text and back, and a
cell's short name.

A count per packet is a Fraction (the slope between two pktgen runs):
t0.json and the reports print it as an integer when it is one, else
with two decimals; a count that moves between boots is "min..max".

It imports nothing of T0 but the cell IDs of the suite's model, so that
every T0 module may use it (t0/cells.py imports t0/breakdown.py, which
prints counts and names cells too)."""
from fractions import Fraction

from ..model import parse_cell_id


def fmt(x):
    """A per-packet Fraction as printed: integers as such, else 2 decimals."""
    if x.denominator == 1:
        return str(x.numerator)
    return "%.2f" % float(x)


def fmt_range(lo, hi):
    return fmt(lo) if lo == hi else "%s..%s" % (fmt(lo), fmt(hi))


def parse_range(text):
    """(low, high) of a count as t0.json prints it ("1015", "3818.50..3872.37")."""
    lo, _, hi = text.partition("..")
    return Fraction(lo), Fraction(hi or lo)


CT_LABELS = {"ctbase": "ct: netdev only", "ctonly": "ct: conntrack only", "ct": "conntrack + nft"}


def short_cell(cid):
    """The report's name of cell CID; a ruleset of the user's
    (t0/ruleset.py) is NAME: ruleset or NAME: no ruleset."""
    c = parse_cell_id(cid)
    if c["type"] == "ruleset":
        return "%s: %s" % (c["tag"].lstrip("-"), "no ruleset" if c["backend"] == "none" else "ruleset")
    backend, n = c["backend"], "n%d" % c["n"]
    if backend in ("nohook", "egress"):
        return "egress %s" % ("no hook" if backend == "nohook" else "hook")
    if backend == "dynset":
        return "dynset update"
    if backend in CT_LABELS:
        return CT_LABELS[backend]
    size = " %s" % c["tag"].lstrip("-") if c["tag"] else ""
    if backend == "drop":
        return "drop (hook only)%s" % size
    return "%s %s%s" % (backend, n, size)
