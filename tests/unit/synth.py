# SPDX-License-Identifier: GPL-2.0
"""The synthetic fixture of the report tests: a results directory with
raw samples drawn from a known cost model, one sample with a bad counter."""
import json
import os
import random

from nftbench import runlog
from nftbench.files import write
from nftbench.lab import knob_sysctl
from nftbench.model import CELL_FIELDS, DEFAULT_T2_LOOKUPS, ROLES
from nftbench.plans import groups_for
from nftbench.tables import ALL_TABLES


def synth_results(wd, rounds=2):
    """A results directory with samples drawn from a known cost model:
    ns/packet = drop + n * lookup (per backend, kernel, knob) + noise;
    ROUNDS boots per kernel."""
    rng = random.Random(7)
    drop_ns = 800.0
    cost = {("baseline", "-"): 60.0, ("patched", "-"): 50.0, ("patched", "0"): 50.0,
            ("patched", "1"): 65.0, ("plain", "-"): 48.0}
    run = dict(settings=dict(mode="default", tables=list(ALL_TABLES), rounds=rounds, reps_per_boot=4, duration="0.5",
                             t2_lookups=10, knob=knob_sysctl(), burst="1000", build=False,
                             arch="um", nftlab="not built"),
               host=dict(date="synthetic", cpu="synthetic CPU", nproc=2), kernels=[], host_load=[], selftest={})
    for role in ROLES:
        run["kernels"].append(dict(role=role, status="ok", dir=wd, build=None))
        for rnd in range(1, rounds + 1):
            d = os.path.join(wd, "raw", "r%d-%s" % (rnd, role))
            os.makedirs(os.path.join(d, "out"))
            write(os.path.join(d, "boot.json"), json.dumps(dict(role=role, round=rnd, kernel=wd, status=0)))
            lines = []
            variant, flavor = ROLES[role]
            key = "plain" if flavor == "plain" else variant
            for g, cells in groups_for(role, list(ALL_TABLES), DEFAULT_T2_LOOKUPS):
                for rep in range(1, 5):
                    for c in cells:
                        k = c["knob"]
                        per = cost.get((key, k), cost.get((key, "-")))
                        ns = drop_ns + c["n"] * per * (1.0 if c["backend"] != "rbtree" else 1.3)
                        ns *= 1 + rng.gauss(0, 0.002)
                        pps = 1e9 / ns
                        sofar = int(pps * 0.5)
                        bad = role == "baseline-retpoline" and c["cell"] == "T1/port_net/hash/n1/k-" and rep == 2
                        lines.append(json.dumps(dict(
                            record="sample", cell={f: c[f] for f in CELL_FIELDS}, knob_req=k, rep=rep, knob=k,
                            usec=500000, sofar=sofar, errors=0, counter=sofar - (1 if bad else 0), tx=0,
                            pps=round(pps, 1), valid=not bad,
                            reason="counter %d != sent %d" % (sofar - 1, sofar) if bad else "ok")))
            write(os.path.join(d, "out", "records.jsonl"), "\n".join(lines) + "\n")
    runlog.save(os.path.join(wd, runlog.RUN), run)
    return {"T1 pipapo patched": cost[("patched", "-")], "T3 slope k1": cost[("patched", "1")],
            "T6 cost k0": cost[("patched", "0")], "T6 cost k1": cost[("patched", "1")]}
