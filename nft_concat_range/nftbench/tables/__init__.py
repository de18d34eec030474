# SPDX-License-Identifier: GPL-2.0
"""The benchmark's tables, one module each, in report order.

A table module has ROLES (the kernel roles it measures), groups() (its
cells per boot), analyse() (its figures from the samples), render() (its
text), plot() (its chart's data and gnuplot body), shape() (what validate
expects of its figures) and may set PLOT_WIDTH.  Adding a table is one
module here plus its name in TABLES.  T0 (exact counts, its own runner) is
not a bench table: ../t0/cells.py, ../t0/run.py.
"""
from . import t1, t2, t3, t4, t5, t6, t7

TABLES = {"T1": t1, "T2": t2, "T3": t3, "T4": t4, "T5": t5, "T6": t6, "T7": t7}
ALL_TABLES = tuple(TABLES)
# The tables that compare the lab's force-indirect knob, 0 vs 1 in one
# boot (a module's KNOB): on kernels without it they measure nothing.
KNOB_TABLES = tuple(name for name, mod in TABLES.items() if getattr(mod, "KNOB", False))

