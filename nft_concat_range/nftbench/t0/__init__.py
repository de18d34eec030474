# SPDX-License-Identifier: GPL-2.0
"""T0 of nftbench: what one packet costs (and one interval set
transaction: commit.py), counted exactly in the x86_64
kernels under QEMU TCG (the pktcount plugin, ../../tcg/).  Not a bench
table: counted, not timed, with a runner of its own; the theory is in
cells.py.  Command line: nft_concat_range/t0.py (cli.py here); bench runs
`t0.py run` too, and its report prints T0's text (../report.py).

Modules, one job each, each importing only those listed before it (and
the suite's own modules one level up: model, files, render, plans,
generators, guestlog, plots, lab):

  symbols    the kernel's symbols the plugin watches (nm, objdump)
  text       a count per packet as text and back, a cell's short name
  code       digests of the counted functions' code (t0/code.json)
  ruleset    a ruleset of the user's (t0.py run --ruleset)
  breakdown  where a cell's instructions go (run --per-function)
  cells      T0's cells, plan, analysis, report text and checks
  compare    runs side by side (t0.py compare)
  plot       the chart of where the instructions go (t0.py plot)
  run        the boots (t0.py run)
  patch      anyone's patch before -> after (t0.py patch)
  commit     instructions per transaction on an interval set (t0.py commit)
  cli        t0.py's options and subcommands

The modules import each other under the names they had before this
package (t0cells, t0run, ...: `from . import cells as t0cells`), the
names their call sites read; cells, run and code are local names in
them too.  tests/unit/test_imports.py checks that the imports of the
suite go one way: no circle, none inside a function."""
