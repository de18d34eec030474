# SPDX-License-Identifier: GPL-2.0
"""gnuplot charts: the helpers a table's plot() builds its chart with, and
the runner that turns (data, body) into NAME.dat, NAME.gp and NAME.svg."""
import os
import shutil
import subprocess

from .files import write

PLOT_WIDTH = 900


def gnuplot_svg(resdir, name, title, data, script_body, width=PLOT_WIDTH):
    """Writes NAME.dat and NAME.gp, runs gnuplot to NAME.svg; None or the
    reason there is no SVG."""
    dat = os.path.join(resdir, name + ".dat")
    gp = os.path.join(resdir, name + ".gp")
    svg = os.path.join(resdir, name + ".svg")
    write(dat, data)
    # (backquotes in a gnuplot string are shell command substitution)
    write(gp, "set terminal svg size %d,600 dynamic font 'sans,11'\nset output '%s'\nset title \"%s\"\n%s\n"
          % (width, svg, title.replace('"', "'").replace("`", "'"), script_body.replace("@DAT@", dat)))
    if not shutil.which("gnuplot"):
        return "gnuplot not installed"
    r = subprocess.run(["gnuplot", gp], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0 or not os.path.isfile(svg):
        return "gnuplot failed: " + r.stdout.strip()[-300:]
    return None


def err_bar(sm, scale=1.0):
    if not sm:
        return ("NaN", "NaN", "NaN")
    lo, hi = sm["ci"] if sm["ci"] else (sm["min"], sm["max"])
    return ("%.4f" % (sm["median"] * scale), "%.4f" % (lo * scale), "%.4f" % (hi * scale))


HIST = ("set style data histograms\nset style histogram errorbars gap 2 lw 1\n"
        "set style fill solid 0.6 border -1\nset xtics rotate by -35\nset grid ytics\nset key outside top center horizontal\n"
        "set yrange [0:*]\n")


NODATA = ("unset border\nunset tics\nunset key\nset label 'no valid samples for this table' at graph 0.5,0.5 center\n"
          "plot [0:1][0:1] -1 notitle")


def hist_body(lines, titles, ylabel, extra=""):
    """Clustered bars with error bars; series without any value are left
    out (gnuplot refuses an all-undefined series)."""
    rows = [ln.split() for ln in lines if not ln.startswith("#")]
    plots_ = []
    for i, title in enumerate(titles):
        col = 2 + 3 * i
        has = any(len(r) > col and r[-(len(titles) - i) * 3] != "NaN" for r in rows)
        if has:
            plots_.append("'@DAT@' using %d:%d:%d%s title '%s'" % (
                col, col + 1, col + 2, ":xtic(1)" if not plots_ else "", title))
    if not plots_:
        return NODATA
    return HIST + extra + "set ylabel '%s'\nplot %s" % (ylabel, ", ".join(plots_))


def plot_tables(resdir, tables):
    """{table: reason} for every table of TABLES ({name: (module, figures)})
    without an SVG."""
    errs = {}
    for t, (mod, tab) in tables.items():
        lines, body = mod.plot(tab)
        e = gnuplot_svg(resdir, t, tab["title"], "\n".join(lines) + "\n", body, getattr(mod, "PLOT_WIDTH", PLOT_WIDTH))
        if e:
            errs[t] = e
    return errs
