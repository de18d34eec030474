# SPDX-License-Identifier: GPL-2.0
"""T0's chart: per cell, stacked bars of the instructions per packet by
where they are spent (t0/breakdown.py's categories: expression dispatch,
set lookup chain, hook entry, thunks, other), one bar per kernel and
spectre_v2= setting, retpoline next to off, each kernel next to the
next.  Drawn by gnuplot (plots.py), from the rows counted per function
(t0.py run --per-function) of one run or several (t0.py plot); a bar's
segment is the mean over the boots and passes of its row, so that the
segments add up to the mean of the row's instructions exactly as the
report's categories do."""
import json
import os

from ..model import parse_cell_id
from ..plots import gnuplot_svg
from . import breakdown as t0breakdown
from .compare import kernel_label
from .text import short_cell

# The categories' colours, in t0breakdown.CATEGORIES' order.
COLOURS = ("#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#bab0ac")
MITIGATION_ORDER = ("retpoline", "off")
# Pixels per bar, and the least width of the chart.
BAR_PX, MIN_WIDTH = 26, 900


def bars(resdirs):
    """{cell: [(kernel label, mitigation, {category: mean})]} of the rows
    of RESDIRS counted per function (knob-1 rows, the lab knob's forced
    indirect calls, left out as in t0.py compare), cells in the report's
    order, bars kernel by kernel, retpoline first."""
    out, order = {}, []
    for d in resdirs:
        with open(os.path.join(d, "t0", "t0.json")) as f:
            t0 = json.load(f)
        for r in t0["rows"]:
            pf = r.get("per_function")
            if not pf or r["knob"] == "1":
                continue
            label = kernel_label(t0["run"], r["variant"])
            if label not in order:
                order.append(label)
            _, funcs = t0breakdown.run_values(pf)
            cats = dict.fromkeys(t0breakdown.CATEGORIES, 0.0)
            for name, values in funcs.items():
                cats[t0breakdown.category(name)] += float(t0breakdown.mean(values))
            out.setdefault(r["cell"], []).append((label, r["mitigation"], cats))
    for cell in out:
        out[cell].sort(key=lambda b: (order.index(b[0]), MITIGATION_ORDER.index(b[1])
                                      if b[1] in MITIGATION_ORDER else len(MITIGATION_ORDER)))
    return {c: out[c] for c in sorted(out, key=lambda c: (parse_cell_id(c)["backend"], c))}


def data_and_script(cells):
    """(gnuplot data, script body with @DAT@) of bars()' CELLS: one data
    block per cell, one newhistogram per block, a category's colour the
    same in every block and in the key once."""
    blocks, plots = [], []
    for i, (cell, bs) in enumerate(cells.items()):
        lines = ["# %s" % cell]
        for label, mitigation, cats in bs:
            lines.append('"%s %s" %s' % (label.replace('"', "'"), "ret" if mitigation == "retpoline" else mitigation,
                                         " ".join("%.2f" % cats[k] for k in t0breakdown.CATEGORIES)))
        blocks.append("\n".join(lines))
        parts = []
        for j, (cat, colour) in enumerate(zip(t0breakdown.CATEGORIES, COLOURS)):
            title = "title '%s'" % cat if i == 0 else "notitle"
            parts.append("%s index %d using %d%s %s lc rgb '%s'" % (
                "'@DAT@'" if i == 0 and j == 0 else "''", i, j + 2, ":xtic(1)" if j == 0 else "", title, colour))
        plots.append("newhistogram \"%s\" lt 1, %s" % (short_cell(cell), ", ".join(parts)))
    script = ("set style data histograms\nset style histogram rowstacked title offset 0,-2\n"
              "set style fill solid 0.85 border -1\nset boxwidth 0.8\nset key outside top center horizontal\n"
              "set xtics rotate by -60 font ',8'\nset bmargin 12\nset grid ytics\nset yrange [0:*]\n"
              "set ylabel 'instructions per packet (mean over boots)'\nplot " + ", \\\n  ".join(plots))
    return "\n\n\n".join(blocks) + "\n", script


def categories_svg(outdir, resdirs, name="t0-categories", title=None):
    """OUTDIR/NAME.svg (with NAME.dat and NAME.gp) of RESDIRS' rows counted
    per function: (path, None), or (None, why there is no SVG)."""
    cells = bars(resdirs)
    if not cells:
        return None, "no row counted per function (t0.py run --per-function) in %s" % ", ".join(resdirs)
    data, script = data_and_script(cells)
    nbars = sum(len(b) for b in cells.values())
    title = title or "T0: instructions per packet by where they are spent (%s)" % ", ".join(
        os.path.basename(os.path.normpath(d)) for d in resdirs)
    os.makedirs(outdir, exist_ok=True)
    err = gnuplot_svg(outdir, name, title, data, script, max(MIN_WIDTH, 120 + BAR_PX * (nbars + 2 * len(cells))))
    return (None, err) if err else (os.path.join(outdir, name + ".svg"), None)
