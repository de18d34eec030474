# SPDX-License-Identifier: GPL-2.0
"""Reading a results directory: the boots under raw/ (what bench and the
guest wrote) or, for a stored run without raw/, its results.json."""
import json
import os

from . import guestlog
from .files import cpu_model, read_kv
from .model import DEFAULT_T2_LOOKUPS
from .plans import parse_tables
from .stats import CONFIDENCE
from .tables import ALL_TABLES

def read_boots(resdir):
    """Every boot directory under RESDIR/raw: its meta and what its guest
    wrote (guestlog)."""
    boots = []
    raw = os.path.join(resdir, "raw")
    if not os.path.isdir(raw):
        return boots
    for name in sorted(os.listdir(raw)):
        d = os.path.join(raw, name)
        meta_path = os.path.join(d, "boot.json")
        if not os.path.isfile(meta_path):
            continue
        with open(meta_path) as f:
            meta = json.load(f)
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
    for s in res.get("samples", []):
        if s["boot"] in by:
            by[s["boot"]]["samples"].append(s)
    for r in res.get("load_samples", []):
        if r["boot"] in by:
            by[r["boot"]]["loads"].append(r)
    return res.get("meta", {}), boots


def read_results(resdir):
    """The content of RESDIR/results.json, None if absent."""
    path = os.path.join(resdir, "results.json")
    if not os.path.isfile(path):
        return None
    with open(path) as f:
        return json.load(f)


def read_stored(resdir):
    """(meta, boots) from RESDIR/results.json, for a results directory kept
    without its raw/ tree (docs/results/ stores only results.json).  None
    if absent."""
    res = read_results(resdir)
    return None if res is None else stored(res)


def read_t0(resdir, source):
    """T0's figures (t0.json of t0.py) of a run: RESDIR/t0/t0.json, else
    what a stored results.json carried (SOURCE "results.json"); None if the
    run had no T0."""
    path = os.path.join(resdir, "t0", "t0.json")
    if os.path.isfile(path):
        with open(path) as f:
            return json.load(f)
    if source == "results.json":
        return (read_results(resdir) or {}).get("t0")
    return None


def load_run(resdir):
    """(meta, boots, source) of a results directory: its raw/ tree when
    present, else what its results.json stored."""
    boots = read_boots(resdir)
    if boots or not os.path.isfile(os.path.join(resdir, "results.json")):
        return collect_meta(resdir), boots, "raw"
    meta, boots = read_stored(resdir)
    return meta, boots, "results.json"


def build_info(resdir, role, kdir):
    """BUILD-INFO of ROLE's kernel as the run booted it (bench keeps a copy
    in every boot directory), else as KDIR holds it now (runs from before
    bench kept it); None if neither exists."""
    raw = os.path.join(resdir, "raw")
    for name in sorted(os.listdir(raw)) if os.path.isdir(raw) else []:
        bi = os.path.join(raw, name, "BUILD-INFO")
        if name.split("-", 1)[-1] == role and os.path.isfile(bi):
            return read_kv(bi, ": ")
    bi = os.path.join(kdir, "BUILD-INFO")
    return read_kv(bi, ": ") if os.path.isfile(bi) else None


def collect_meta(resdir):
    """run.env (with the host it ran on), kernels.tsv, load.tsv and the
    BUILD-INFO of the kernels booted."""
    env = read_kv(os.path.join(resdir, "run.env"))
    meta = dict(mode=env.get("mode", "?"), tables=parse_tables(env.get("tables", ",".join(ALL_TABLES))),
                rounds=int(env.get("rounds", 0) or 0), reps_per_boot=int(env.get("reps_per_boot", 0) or 0),
                duration=env.get("duration"), t2_lookups=int(env.get("t2_lookups", DEFAULT_T2_LOOKUPS)),
                knob=env.get("knob"), burst=env.get("burst"), date=env.get("date"), nftlab=env.get("nftlab"),
                arch=env.get("arch", "um"),
                cpu=env.get("cpu") or cpu_model(), nproc=int(env["nproc"]) if env.get("nproc") else os.cpu_count(),
                kernels={}, load_during=[], builds_running=False,
                confidence=CONFIDENCE,
                selftest={k[len("selftest_"):]: v for k, v in env.items() if k.startswith("selftest_")})
    meta["reps_total"] = meta["rounds"] * meta["reps_per_boot"]
    kt = os.path.join(resdir, "kernels.tsv")
    if os.path.isfile(kt):
        for line in open(kt):
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 3:
                continue
            role, st, d = parts[:3]
            k = dict(status="ok" if st == "ok" else "not available (not built; run without --no-build)", dir=d)
            info = build_info(resdir, role, d) if st == "ok" else None
            if info is not None:
                k.update(commit=info.get("commit"), series=info.get("series", ""), base=info.get("base"),
                         built=info.get("built"), name=info.get("name"))
                if info.get("base"):
                    meta["base"] = info["base"]
            meta["kernels"][role] = k
    st = os.path.join(resdir, "steal.tsv")
    if os.path.isfile(st):
        # bench: per boot, the host's stolen and total CPU ticks during it
        meta["steal"] = {}
        for line in open(st):
            parts = line.rstrip("\n").split("\t")
            if len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit() and int(parts[2]) > 0:
                meta["steal"][parts[0]] = 100.0 * int(parts[1]) / int(parts[2])
    lt = os.path.join(resdir, "load.tsv")
    if os.path.isfile(lt):
        for line in open(lt):
            parts = line.rstrip("\n").split("\t")
            if len(parts) == 4:
                meta["load_during"].append("%s %s load %s, %s cc1" % tuple(parts))
                if parts[3].isdigit() and int(parts[3]) > 0:
                    meta["builds_running"] = True
    return meta
