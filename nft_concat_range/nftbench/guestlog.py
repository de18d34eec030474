# SPDX-License-Identifier: GPL-2.0
"""What guest/run-plan wrote in one boot, as results.json holds it.

The guest writes OUTDIR/records.jsonl, one JSON object per line, each with
a "record" field:

    guest   facts about the guest (uname, nft's version, the knob as booted,
            start, end, skip, ...): all guest records merged are the boot's
            "guest" dict
    load    one group's sets loaded: gid, type, nft_s, nftlab_s (seconds,
            null when not run), same (true/false: the two listings were
            the same; null: not compared), nftlab_procs (nftlab processes
            of the load)
    sample  one pktgen run: cell (the plan's FIELDS of the cell), knob_req
            (the knob the plan asked for), rep, knob (as read back), usec,
            sofar, errors, counter, tx (integers or null), pps, valid,
            reason

read_out() turns them into the samples, loads and guest dict of schema
nftlab-bench/3 (model.SCHEMA; pack_samples: how its results.json keeps
the samples), whose load rows keep "same" as "1", "0"
or "-" and whose samples carry their cell's ID.  T0 runs recorded before
records.jsonl (the stored ones: their raw/ trees are in git history,
docs/results/ keeps t0.json) wrote TSV files (samples.tsv, loads.tsv,
guest-info.txt), which are read when a boot has no records.jsonl.
"""
import json
import os

from .files import read_kv
from .model import CELL_FIELDS, fields_cell_id, parse_cell_id

RECORDS = "records.jsonl"
# What every sample of results.json carries; the first twelve are also the
# columns of the old samples.tsv, in order.
SAMPLE_FIELDS = ("cell", "rep", "knob_req", "knob", "usec", "sofar", "errors",
                 "counter", "tx", "pps", "valid", "reason")
SAMPLE_KEYS = SAMPLE_FIELDS + ("boot", "role") + CELL_FIELDS
SAME = {True: "1", False: "0", None: "-"}


def pack_samples(samples):
    """SAMPLES as results.json (nftlab-bench/3) keeps them: the field
    names once, then one row of values per sample in the order they ran
    (the names in every sample made up a third of a run's file, and
    docs/results/ has a size cap).  A field whose values are all strings
    (cell, boot, role, ...: a few dozen distinct ones over a thousand
    samples) keeps them once, sorted, in "values", and its rows hold
    their index.  Samples whose fields differ stay a list of records, as
    /1 kept them."""
    fields = sorted({k for s in samples for k in s})
    if any(len(s) != len(fields) for s in samples):
        return list(samples)
    rows = [[s[k] for k in fields] for s in samples]
    values = {}
    for i, name in enumerate(fields):
        if rows and all(isinstance(r[i], str) for r in rows):
            values[name] = sorted({r[i] for r in rows})
            index = {v: n for n, v in enumerate(values[name])}
            for r in rows:
                r[i] = index[r[i]]
    packed = dict(fields=fields, rows=rows)
    if values:
        packed["values"] = values
    return packed


def unpack_samples(kept):
    """The samples of a results.json, a list of records: from /2's and
    /3's table or /1's list."""
    if isinstance(kept, dict):
        values = kept.get("values", {})
        tables = [values.get(name) for name in kept["fields"]]
        return [{name: (v if t is None else t[v]) for name, t, v in zip(kept["fields"], tables, row)}
                for row in kept["rows"]]
    return list(kept)


def sample_of(rec, boot, role):
    """A sample record as results.json keeps it."""
    s = {k: v for k, v in rec.items() if k not in ("record", "cell")}
    s.update(rec["cell"])
    s.update(cell=fields_cell_id(rec["cell"], rec["knob_req"]), boot=boot, role=role)
    return s


def load_of(rec, boot):
    """A load record as results.json keeps it (load_samples)."""
    r = {k: v for k, v in rec.items() if k != "record"}
    r.update(same=SAME[rec["same"]], boot=boot)
    return r


def read_records(path, boot, role):
    out = dict(guest={}, samples=[], loads=[])
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            rec = json.loads(line)
            kind = rec["record"]
            if kind == "guest":
                out["guest"].update((k, v) for k, v in rec.items() if k != "record")
            elif kind == "load":
                out["loads"].append(load_of(rec, boot))
            elif kind == "sample":
                out["samples"].append(sample_of(rec, boot, role))
            else:
                raise ValueError("%s: unknown record %r" % (path, kind))
    return out


def read_out(outdir, boot, role=None):
    """{guest, samples, loads} of the guest's OUTDIR of boot BOOT (kernel
    role ROLE); empty when the guest wrote nothing."""
    path = os.path.join(outdir, RECORDS)
    if os.path.isfile(path):
        return read_records(path, boot, role)
    return read_tsv(outdir, boot, role)


# --------------------------------------------------------------------------
# Before records.jsonl (the stored T0 runs' raw/): tab-separated files.
# --------------------------------------------------------------------------
LOAD_FIELDS = ("gid", "type", "nft_s", "nftlab_s", "same")


def number(x, kind):
    try:
        return kind(x)
    except ValueError:
        return None


def read_tsv(outdir, boot, role):
    out = dict(guest=read_kv(os.path.join(outdir, "guest-info.txt")), samples=[], loads=[])
    sp = os.path.join(outdir, "samples.tsv")
    for line in open(sp) if os.path.isfile(sp) else ():
        if line.startswith("#") or not line.strip():
            continue
        parts = line.rstrip("\n").split("\t")
        s = dict(zip(SAMPLE_FIELDS, parts + [""] * (len(SAMPLE_FIELDS) - len(parts))))
        for k in ("rep", "usec", "sofar", "errors", "counter", "tx"):
            s[k] = number(s[k], int)
        s.update(pps=number(s["pps"], float), valid=s["valid"] == "1", boot=boot, role=role)
        s.update(parse_cell_id(s["cell"]))
        out["samples"].append(s)
    lp = os.path.join(outdir, "loads.tsv")
    for line in open(lp) if os.path.isfile(lp) else ():
        parts = line.rstrip("\n").split("\t")
        if len(parts) != len(LOAD_FIELDS) or line.startswith("#"):
            continue
        r = dict(zip(LOAD_FIELDS, parts))
        r.update(nft_s=number(r["nft_s"], float), nftlab_s=number(r["nftlab_s"], float), boot=boot)
        out["loads"].append(r)
    return out
