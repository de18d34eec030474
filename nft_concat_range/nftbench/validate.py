# SPDX-License-Identifier: GPL-2.0
"""Validation of a results directory (bench-quick, x86_64 step): TAP lines
on what results.json and the report say, never on speed."""
import json
import os

from tap import Tap, done  # lib/tap.py

from .analysis import aa_state
from .guestlog import SAMPLE_KEYS, unpack_samples
from .model import DEFAULT_T2_LOOKUPS, SCHEMA, TYPES
from .plans import expected_cells
from .tables import TABLES


def validate(resdir):
    tap = Tap()
    try:
        with open(os.path.join(resdir, "results.json")) as f:
            res = json.load(f)
    except (OSError, ValueError) as e:
        tap.ok(False, "results.json readable", e)
        return done(tap)
    meta = res.get("meta", {})
    tables = meta.get("tables", [])
    t2n = meta.get("t2_lookups", DEFAULT_T2_LOOKUPS)
    keys_ok = all(k in res for k in ("schema", "meta", "tables", "boots", "samples", "svg"))
    tap.ok(keys_ok and res["schema"] == SCHEMA, "results.json schema %s with meta, tables, boots, samples, svg" % SCHEMA)
    sample_keys = set(SAMPLE_KEYS)
    samples = unpack_samples(res.get("samples", []))
    bad = [s for s in samples if not sample_keys <= set(s)]
    tap.ok(samples and not bad, "every sample has the %d sample fields" % len(sample_keys),
           "%d samples, %d incomplete" % (len(samples), len(bad)))
    roles = [b.get("role") for b in res.get("boots", [])]
    for role in sorted(set(roles)):
        got = {s["cell"] for s in samples if s["role"] == role}
        want = expected_cells(role, tables, t2n, meta.get("mode") == "quick")
        tap.ok(got == want, "%s: every planned cell measured (%d cells)" % (role, len(want)),
               "missing: %s\nextra: %s" % (sorted(want - got)[:8], sorted(got - want)[:8]))
        ss = [s for s in samples if s["role"] == role]
        inval = [s for s in ss if not s["valid"]]
        tap.ok(ss and not inval, "%s: all %d samples valid (pktgen sofar == rule counter)" % (role, len(ss)),
               "\n".join("%s rep %s: %s" % (s["cell"], s["rep"], s["reason"]) for s in inval))
        pos = [s for s in ss if s["valid"] and not (s["pps"] and s["pps"] > 0 and s["sofar"] and s["sofar"] > 0)]
        tap.ok(not pos, "%s: valid samples have packets and a positive rate" % role)
        km = [s for s in ss if s["knob_req"] in ("0", "1")]
        if km:
            missing = [s for s in km if s["knob"] == "missing"]
            if missing:
                tap.skip("%s: force-indirect knob toggled (%d samples)" % (role, len(km)),
                         "knob %s missing in this kernel" % meta.get("knob"))
            else:
                wrong = [s for s in km if s["knob"] != s["knob_req"]]
                tap.ok(not wrong, "%s: force-indirect knob read back as requested (%d samples)" % (role, len(km)))
    lrows = res.get("load_samples", [])
    if any(r["nftlab_s"] is not None for r in lrows) or meta.get("nftlab", "not built") != "not built":
        groups = [r for r in lrows if r["type"] in TYPES]
        tap.ok(groups and all(r["nft_s"] is not None and r["nftlab_s"] is not None for r in groups),
               "sets of every group loaded with nft -f and with nftlab, both timed (%d loads)" % len(groups))
        tap.ok(groups and all(r["same"] == "1" for r in groups),
               "nftlab's tables list the same ruleset as nft's (order-independent digest)",
               "\n".join("%s %s: same=%s" % (r["boot"], r["gid"], r["same"]) for r in groups if r["same"] != "1"))
    else:
        tap.skip("sets loaded with nftlab as well as nft -f", "nftlab not built (make userspace)")
    # Timing honesty: a proven A/A difference fails the run's validation;
    # an A/A that could not be compared is a skip, with its reason.
    if "T2" in tables:
        state, text = aa_state(res["tables"].get("T2", {}).get("aa"))
        if state == "skip":
            tap.skip("T2 A/A pair shows no difference (noise floor)", text)
        else:
            tap.ok(state == "pass", "T2 A/A pair shows no difference (noise floor): %s" % text, text)
    for t in tables:
        tab = res["tables"].get(t)
        tap.ok(tab is not None and TABLES[t].shape(tab), "%s table shape" % t)
    rpt = os.path.join(resdir, "report.md")
    text = open(rpt).read() if os.path.isfile(rpt) else ""
    tap.ok(all(("%s:" % t) in text for t in tables) and "base:" in text and "CPU:" in text,
           "report.md has the header and every table")
    for t in tables:
        p = os.path.join(resdir, t + ".svg")
        tap.ok(os.path.isfile(p) and "<svg" in open(p).read(2000), "%s.svg written by gnuplot" % t)
    return done(tap)
