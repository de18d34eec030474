# SPDX-License-Identifier: GPL-2.0
"""The report of a results directory: every table's figures, text and
chart, the set-loading table, the base script beside T1; written as
report.md, results.json (schema SCHEMA), run.json and one SVG per table."""
import json
import os

from . import basecmp, loads, runlog
from .analysis import BOOT_BEST_MIN_BOOTS, ESTIMATORS, Analysis, noise_floor
from .files import write
from .guestlog import pack_samples
from .ingest import load_run, read_results, read_t0
from .model import DEFAULT_T2_LOOKUPS, SCHEMA, TYPE_ORDER, TYPES
from .plots import plot_tables
from .render import header_text, invalid_details
from .t0 import cells as t0cells
from .tables import ALL_TABLES, TABLES


class Report(Analysis):
    """The figures of every table of a run (tables: {name: figures})."""

    def __init__(self, resdir, boots, meta):
        super().__init__(resdir, boots, meta.get("t2_lookups", DEFAULT_T2_LOOKUPS), meta.get("estimator", "samples"))
        self.boots = boots
        self.meta = meta
        self.tables = {}
        self.noise = None

    def build(self, tables):
        for t in tables:
            self.tables[t] = TABLES[t].analyse(self)
            # what the tables' texts say their values are (render.paired())
            if self.cells.estimator != "samples":
                self.tables[t]["estimator"] = self.cells.estimator
        # T2 holds the run's A/A pair
        self.noise = noise_floor(self.tables.get("T2", {}).get("aa"), self.cells)


def boots_per_role(boots):
    """{role: boots of it that ran (with samples)}."""
    out = {}
    for b in boots:
        if b.get("samples"):
            out[b["role"]] = out.get(b["role"], 0) + 1
    return out


def report(resdir, quiet=False, estimator=None):
    """Writes the report files of RESDIR; everything they show comes from
    what results.json carries, so a stored results.json alone re-renders
    them (the base script's output is kept in meta, T0's figures beside).
    ESTIMATOR (analysis.ESTIMATORS): analyse the run's samples that way
    from now on instead of as the run says (recorded once the report is
    written)."""
    if estimator is not None and estimator not in ESTIMATORS:
        raise SystemExit("bench report: unknown estimator %r (%s)" % (estimator, ", ".join(ESTIMATORS)))
    meta, boots, source = load_run(resdir)
    if estimator:
        meta.pop("estimator", None)
        if estimator != "samples":
            meta["estimator"] = estimator
    used = meta.get("estimator", "samples")
    if used not in ESTIMATORS:
        raise SystemExit("bench report: %s: unknown estimator %r in the run's record (%s)"
                         % (resdir, used, ", ".join(ESTIMATORS)))
    if used == "boot-best":
        short = {r: n for r, n in boots_per_role(boots).items() if n < BOOT_BEST_MIN_BOOTS}
        if short:
            raise SystemExit("bench report: %s: the estimator boot-best needs %d boots per kernel: %s"
                             " (nft_concat_range/bench report %s --estimator samples analyses every sample)"
                             % (resdir, BOOT_BEST_MIN_BOOTS,
                                ", ".join("%s has %d" % kv for kv in sorted(short.items())), resdir))
    logs = basecmp.script_logs(resdir, meta)
    if logs:
        meta["selftest_log"] = logs
    t0fig = read_t0(resdir, source)
    write(os.path.join(resdir, "run.json"), json.dumps(meta, indent=1, sort_keys=True) + "\n")
    tables = meta.get("tables", list(ALL_TABLES))
    rep = Report(resdir, boots, meta)
    rep.build(tables)
    plot_errs = plot_tables(resdir, {t: (TABLES[t], rep.tables[t]) for t in rep.tables})
    texts = [header_text(meta, boots, rep.noise), ""]
    # T0 (exact counts, t0.py's own run) goes first
    if t0fig:
        texts += [t0cells.render(t0fig), ""]
    for t in tables:
        texts += [TABLES[t].render(rep.tables[t]), ""]
        if t in plot_errs:
            texts += ["(no SVG: %s)" % plot_errs[t], ""]
    load_rows = loads.load_table([r for b in boots for r in b["loads"]], TYPE_ORDER,
                                 {t: TYPES[t].entries for t in TYPES})
    if not load_rows and source == "results.json":
        # stored before results.json carried load_samples: its table only
        load_rows = (read_results(resdir) or {}).get("loads") or []
    if load_rows:
        texts += [loads.render_loads(load_rows, {t: TYPES[t].display for t in TYPES}), ""]
    inv = invalid_details(boots)
    if inv:
        texts += ["Invalid samples (their cells are reported INVALID, never used):"] + inv + [""]
    base_rows = basecmp.base_selftest(meta, rep.cells)
    if base_rows:
        texts += [basecmp.render(base_rows), ""]
    text = "\n".join(texts)
    appendix = ["", "Appendix: ministat outputs", ""]
    for title, out in rep.ministat:
        appendix += ["$ ministat -c 95  # " + title, out.rstrip(), ""]
    write(os.path.join(resdir, "report.md"), "```\n" + text + "\n```\n" + "\n```\n" + "\n".join(appendix) + "\n```\n")
    results = dict(schema=SCHEMA, meta=meta, tables=rep.tables, loads=load_rows, noise=rep.noise,
                   base_selftest={k: dict(status=v[0], rows=v[1]) for k, v in base_rows.items()},
                   boots=[{k: v for k, v in b.items() if k not in ("samples", "loads")} for b in boots],
                   load_samples=[r for b in boots for r in b["loads"]],
                   samples=pack_samples([s for b in boots for s in b["samples"]]),
                   svg={t: (t + ".svg") for t in tables if t not in plot_errs})
    if t0fig:
        results["t0"] = t0fig
    # compact: docs/results/ has a size cap; json.load reads any layout
    write(os.path.join(resdir, "results.json"), json.dumps(results, sort_keys=True, separators=(",", ":"),
                                                           default=str) + "\n")
    if estimator:
        # the run's record too, where the next report of a run with its
        # raw/ reads its meta (runlog.meta_of); bench's own settings stay
        run = runlog.read_run(resdir)
        if run is not None:
            run["analysis"] = dict(estimator=estimator)
            runlog.save(os.path.join(resdir, runlog.RUN), run)
    if not quiet:
        print(text)
    return 0
