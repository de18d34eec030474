#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of nft_concat_range/nftbench/guestlog.py: the guest's JSON
records (as guest/run-plan's own writers print them) read into the samples,
loads and guest facts of results.json, and the TSV files of stored runs
read into the same.

TAP; [--tap-start N] [--count-file PATH] as bench-quick chains its tests."""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "nft_concat_range"))
from nftbench import guestlog  # noqa: E402
from nftbench import tap as taplib  # noqa: E402
from nftbench.model import cell  # noqa: E402

RUN_PLAN = os.path.join(HERE, "..", "..", "nft_concat_range", "guest", "run-plan")
FIELDS = dict(table="T2", type="net_port", backend="pipapo", n=10, tag="-aa")
SAMPLE = dict(record="sample", cell=FIELDS, knob_req="0", rep=2, knob="0", usec=500123, sofar=81234, errors=0,
              counter=81234, tx=0, pps=162428.1, valid=True, reason="ok")


def guest_writes(*args):
    """What run-plan's guest_record prints for ARGS (its own functions,
    taken out of the script and run by bash)."""
    with tempfile.TemporaryDirectory() as d:
        script = ('eval "$(sed -n \'/^jstr() {/,/^}/p;/^guest_record() {/,/^}/p\' "$1")"; out=$2; shift 2; '
                  'guest_record "$@"')
        subprocess.run(["bash", "-c", script, "-", RUN_PLAN, d] + list(args), check=True)
        return open(os.path.join(d, guestlog.RECORDS)).read()


def main():
    tap, count_file = taplib.from_argv()
    odd = 'say "hi" \\ back\tslash\nline'
    text = guest_writes("nft", odd, "start", "2026-12-01T10:00:00Z")
    with tempfile.TemporaryDirectory() as d:
        recs = [text, json.dumps(dict(record="load", gid="T1-net_port", type="net_port", nft_s=0.5, nftlab_s=0.25,
                                      same=True, nftlab_procs=1)) + "\n",
                json.dumps(dict(record="load", gid="T1-port_net", type="port_net", nft_s=0.1, nftlab_s=None,
                                same=None, nftlab_procs=0)) + "\n",
                json.dumps(SAMPLE) + "\n",
                guest_writes("end", "2026-12-01T10:05:00Z")]
        with open(os.path.join(d, guestlog.RECORDS), "w") as f:
            f.write("".join(recs))
        out = guestlog.read_out(d, "r1-patched-retpoline", "patched-retpoline")
    tap.ok(out["guest"] == dict(nft=odd, start="2026-12-01T10:00:00Z", end="2026-12-01T10:05:00Z"),
           "guest records: run-plan's writer escapes quotes, backslashes, tabs and newlines; records merge",
           out["guest"])
    s = out["samples"][0] if out["samples"] else {}
    tap.ok(set(s) == set(guestlog.SAMPLE_KEYS) and s["cell"] == cell("T2", "net_port", "pipapo", 10, "0", "-aa")["cell"]
           and s["n"] == 10 and s["tag"] == "-aa" and s["boot"] == "r1-patched-retpoline"
           and s["role"] == "patched-retpoline" and s["valid"] is True and s["pps"] == 162428.1,
           "sample record: the schema's sample fields, the cell's ID from its fields and the requested knob", s)
    tap.ok([(r["same"], r["nftlab_s"], r["boot"]) for r in out["loads"]] ==
           [("1", 0.25, "r1-patched-retpoline"), ("-", None, "r1-patched-retpoline")],
           "load records: same listing as results.json keeps it (1, 0, -), times as numbers or None", out["loads"])

    # the same sample as a stored run's samples.tsv holds it
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "samples.tsv"), "w") as f:
            f.write("# cell\trep\t...\n%s\t2\t0\t0\t500123\t81234\t0\t81234\t0\t162428.1\t1\tok\n" % s.get("cell"))
        with open(os.path.join(d, "loads.tsv"), "w") as f:
            f.write("# gid\n" "T1-net_port\tnet_port\t0.500\t0.250\t1\n" "T1-port_net\tnet_port\t0.100\t-\t-\n")
        with open(os.path.join(d, "guest-info.txt"), "w") as f:
            f.write("start=2026-12-01T10:00:00Z\n")
        old = guestlog.read_out(d, "r1-patched-retpoline", "patched-retpoline")
    tap.ok(old["samples"] == out["samples"] and [r["same"] for r in old["loads"]] == ["1", "-"]
           and old["guest"] == dict(start="2026-12-01T10:00:00Z"),
           "stored runs' TSV files read into the same samples, loads and guest facts", old)
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, guestlog.RECORDS), "w") as f:
            f.write(json.dumps(dict(record="samples")) + "\n")
        try:
            guestlog.read_out(d, "b")
            raised = False
        except ValueError:
            raised = True
    tap.ok(raised, "a record of an unknown kind is an error, not skipped")
    return taplib.done(tap, count_file)


if __name__ == "__main__":
    sys.exit(main())
