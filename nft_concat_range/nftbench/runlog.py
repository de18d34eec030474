# SPDX-License-Identifier: GPL-2.0
"""What the host records about a bench run while it runs, and the report's
meta from it.

RESDIR/bench.json (RUN), rewritten after every step by host.py:

    settings   mode, tables (the timed ones), rounds, reps_per_boot,
               duration, t2_lookups, knob, burst, build, arch, nftlab
    host       date, cpu, nproc: the host as it measured, not as it is when
               a report is re-rendered
    kernels    [{role, status ("ok" or "missing"), dir, build}] in the order
               the roles were resolved; build: lab.build_info() then
    host_load  [{time, role, load (the three load averages), cc1}] before
               every boot, the base script's included
    selftest   {role: what became of the base script on that kernel}

RESDIR/raw/<boot>/boot.json (BOOT), one per boot: role, round, kernel (its
directory), status ("running", then the exit status), build (the kernel's
BUILD-INFO read as the boot started), steal_ticks ([stolen, total] CPU
ticks of the host during the boot, /proc/stat).
"""
import json
import os

from .files import read_json, write
from .model import DEFAULT_T2_LOOKUPS
from .stats import CONFIDENCE

RUN = "bench.json"
BOOT = "boot.json"
MISSING = "not available (not built; run without --no-build)"


def save(path, record):
    """Writes RECORD as JSON, replacing PATH at once (a report or a reader
    never sees half of it)."""
    write(path + ".tmp", json.dumps(record, indent=1) + "\n")
    os.replace(path + ".tmp", path)


def read_run(resdir):
    """RESDIR's bench.json, None when the run was not recorded by host.py."""
    return read_json(os.path.join(resdir, RUN))


def kernel_meta(k, boots):
    """The report's view of one kernel: its status and directory, and the
    build its first boot loaded (else the one resolved)."""
    if k["status"] != "ok":
        return dict(status=MISSING, dir=k["dir"] or "-")
    info = next((b["build"] for b in sorted(boots, key=lambda b: b["dir"])
                 if b.get("role") == k["role"] and b.get("build")), k.get("build"))
    out = dict(status="ok", dir=k["dir"])
    if info is not None:
        out.update(commit=info.get("commit"), series=info.get("series", ""), base=info.get("base"),
                   built=info.get("built"), name=info.get("name"), stamp=info.get("stamp"),
                   toolchain=info.get("toolchain"), config_sha256=info.get("config_sha256"))
    return out


def meta_of(run, boots):
    """The meta of the report (what results.json keeps as "meta") from a
    run's bench.json RUN and its BOOTS (ingest.read_boots)."""
    s, h = run["settings"], run["host"]
    meta = dict(mode=s["mode"], tables=list(s["tables"]), rounds=s["rounds"], reps_per_boot=s["reps_per_boot"],
                duration=s["duration"], t2_lookups=s.get("t2_lookups", DEFAULT_T2_LOOKUPS), knob=s["knob"],
                burst=s["burst"], date=h["date"], nftlab=s["nftlab"], arch=s["arch"], cpu=h["cpu"],
                nproc=h["nproc"], kernels={}, load_during=[], builds_running=False, confidence=CONFIDENCE,
                selftest=dict(run.get("selftest", {})))
    meta["reps_total"] = meta["rounds"] * meta["reps_per_boot"]
    # runs before this was recorded lack it
    if h.get("measure_s") is not None:
        meta["measure_s"] = h["measure_s"]
    # runs before the bases chose the UML userspace ran ptrace, unrecorded
    if s.get("userspace"):
        meta["userspace"] = s["userspace"]
    # runs before bench --estimator used every sample; bench report
    # --estimator records its choice under "analysis"
    est = run.get("analysis", {}).get("estimator", s.get("estimator", "samples"))
    if est != "samples":
        meta["estimator"] = est
    for k in run.get("kernels", []):
        meta["kernels"][k["role"]] = km = kernel_meta(k, boots)
        if km.get("base"):
            meta["base"] = km["base"]
    # per boot, the share of the host's CPU time stolen by other guests
    meta["steal"] = {b["dir"]: 100.0 * b["steal_ticks"][0] / b["steal_ticks"][1]
                     for b in boots if b.get("steal_ticks") and b["steal_ticks"][1] > 0}
    for r in run.get("host_load", []):
        meta["load_during"].append("%s %s load %s, %s cc1" % (r["time"], r["role"], r["load"], r["cc1"]))
        meta["builds_running"] = meta["builds_running"] or r["cc1"] > 0
    return meta
