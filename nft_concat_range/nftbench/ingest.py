# SPDX-License-Identifier: GPL-2.0
"""Reading a results directory: what bench recorded (runlog.py) and the
guest wrote (guestlog.py) or, for a stored run, its results.json."""
import os

from . import guestlog, runlog
from .files import read_json


def read_boots(resdir):
    """Every boot directory under RESDIR/raw: its meta and what its guest
    wrote (guestlog)."""
    boots = []
    raw = os.path.join(resdir, "raw")
    if not os.path.isdir(raw):
        return boots
    for name in sorted(os.listdir(raw)):
        d = os.path.join(raw, name)
        meta = read_json(os.path.join(d, runlog.BOOT))
        if meta is None:
            continue
        meta["dir"] = name
        meta.update(guestlog.read_out(os.path.join(d, "out"), name, meta.get("role")))
        boots.append(meta)
    return boots


def stored(res):
    """(meta, boots) of a results.json's content: the samples are listed
    there boot by boot in the order they ran, so the report (and `drift`)
    can be recomputed from it."""
    boots = []
    by = {}
    for b in res.get("boots", []):
        b = dict(b, samples=[], loads=[])
        by[b["dir"]] = b
        boots.append(b)
    for s in guestlog.unpack_samples(res.get("samples", [])):
        if s["boot"] in by:
            by[s["boot"]]["samples"].append(s)
    for r in res.get("load_samples", []):
        if r["boot"] in by:
            by[r["boot"]]["loads"].append(r)
    return res.get("meta", {}), boots


def read_results(resdir):
    """The content of RESDIR/results.json, None if absent."""
    return read_json(os.path.join(resdir, "results.json"))


def read_stored(resdir):
    """(meta, boots) from RESDIR/results.json, for a results directory kept
    without its raw/ tree (docs/results/ stores results.json, not raw/).
    None if absent."""
    res = read_results(resdir)
    return None if res is None else stored(res)


def read_t0(resdir, source):
    """T0's figures (t0.json of t0.py) of a run: RESDIR/t0/t0.json, else
    what a stored results.json carried (SOURCE "results.json"); None if the
    run had no T0."""
    t0 = read_json(os.path.join(resdir, "t0", "t0.json"))
    if t0 is not None:
        return t0
    if source == "results.json":
        return (read_results(resdir) or {}).get("t0")
    return None


def load_run(resdir):
    """(meta, boots, source) of a results directory: what bench recorded
    (bench.json and raw/) when both are present, else what its
    results.json stored (a run in docs/results/ keeps results.json and
    bench.json, not raw/)."""
    run = runlog.read_run(resdir)
    recorded = run is not None and os.path.isdir(os.path.join(resdir, "raw"))
    if not recorded and os.path.isfile(os.path.join(resdir, "results.json")):
        meta, boots = read_stored(resdir)
        return meta, boots, "results.json"
    boots = read_boots(resdir)
    return (runlog.meta_of(run, boots) if run else {}), boots, "raw"
