#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of nft_concat_range/nftbench/guestlog.py: the guest's JSON
records (as guest/run-plan's own writers print them) read into the samples,
loads and guest facts of results.json, and the TSV files of stored runs
read into the same.

python3 tests/unit/test_suite_guestlog.py: TAP (lib/tap.py,
nested in bench-quick's stream); -v: unittest's own runner."""
import json
import os
import runpy
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
runpy.run_path(os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..", "lib", "bootstrap.py"))
import tap  # noqa: E402
from nftbench import guestlog  # noqa: E402
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


ODD = 'say "hi" \\ back\tslash\nline'


def read_records(*lines):
    """guestlog.read_out() of a records.jsonl of LINES."""
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, guestlog.RECORDS), "w") as f:
            f.write("".join(lines))
        return guestlog.read_out(d, "r1-patched-retpoline", "patched-retpoline")


class Records(unittest.TestCase):
    """A records.jsonl as a boot leaves it: run-plan's guest records
    (written by its own shell functions), two loads, one sample."""

    @classmethod
    def setUpClass(cls):
        cls.out = read_records(
            guest_writes("nft", ODD, "start", "2026-12-01T10:00:00Z"),
            json.dumps(dict(record="load", gid="T1-net_port", type="net_port", nft_s=0.5, nftlab_s=0.25,
                            same=True, nftlab_procs=1)) + "\n",
            json.dumps(dict(record="load", gid="T1-port_net", type="port_net", nft_s=0.1, nftlab_s=None,
                            same=None, nftlab_procs=0)) + "\n",
            json.dumps(SAMPLE) + "\n",
            guest_writes("end", "2026-12-01T10:05:00Z"))

    def test_guest_records(self):
        """guest records: run-plan's writer escapes quotes, backslashes, tabs and newlines; records merge"""
        self.assertEqual(self.out["guest"], dict(nft=ODD, start="2026-12-01T10:00:00Z", end="2026-12-01T10:05:00Z"))

    def test_sample(self):
        """sample record: the schema's sample fields, the cell's ID from its fields and the requested knob"""
        self.assertEqual(len(self.out["samples"]), 1)
        s = self.out["samples"][0]
        self.assertEqual(set(s), set(guestlog.SAMPLE_KEYS))
        self.assertEqual(s["cell"], cell("T2", "net_port", "pipapo", 10, "0", "-aa")["cell"])
        self.assertEqual(s["n"], 10)
        self.assertEqual(s["tag"], "-aa")
        self.assertEqual(s["boot"], "r1-patched-retpoline")
        self.assertEqual(s["role"], "patched-retpoline")
        self.assertIs(s["valid"], True)
        self.assertEqual(s["pps"], 162428.1)

    def test_packed_samples(self):
        """results.json's samples: a table of the field names and one row per sample, string fields by index into their values, read back as they were; /2's table without values reads too; samples whose fields differ stay a list, and /1's list reads as it is"""
        two = [self.out["samples"][0], dict(self.out["samples"][0], rep=3, pps=None)]
        packed = guestlog.pack_samples(two)
        self.assertEqual(packed["fields"], sorted(guestlog.SAMPLE_KEYS))
        self.assertEqual(len(packed["rows"]), 2)
        self.assertEqual(guestlog.unpack_samples(json.loads(json.dumps(packed))), two)
        self.assertEqual(packed["values"]["role"], ["patched-retpoline"])
        self.assertEqual({r[packed["fields"].index("role")] for r in packed["rows"]}, {0})
        self.assertNotIn("pps", packed["values"])
        v2 = dict(fields=packed["fields"], rows=[[s[k] for k in packed["fields"]] for s in two])
        self.assertEqual(guestlog.unpack_samples(v2), two)
        odd = [two[0], {k: v for k, v in two[1].items() if k != "tx"}]
        self.assertEqual(guestlog.pack_samples(odd), odd)
        self.assertEqual(guestlog.unpack_samples(odd), odd)

    def test_loads(self):
        """load records: same listing as results.json keeps it (1, 0, -), times as numbers or None"""
        self.assertEqual([(r["same"], r["nftlab_s"], r["boot"]) for r in self.out["loads"]],
                         [("1", 0.25, "r1-patched-retpoline"), ("-", None, "r1-patched-retpoline")])

    def test_stored_tsv(self):
        """stored runs' TSV files read into the same samples, loads and guest facts"""
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "samples.tsv"), "w") as f:
                f.write("# cell\trep\t...\n%s\t2\t0\t0\t500123\t81234\t0\t81234\t0\t162428.1\t1\tok\n"
                        % cell("T2", "net_port", "pipapo", 10, "0", "-aa")["cell"])
            with open(os.path.join(d, "loads.tsv"), "w") as f:
                f.write("# gid\n" "T1-net_port\tnet_port\t0.500\t0.250\t1\n" "T1-port_net\tnet_port\t0.100\t-\t-\n")
            with open(os.path.join(d, "guest-info.txt"), "w") as f:
                f.write("start=2026-12-01T10:00:00Z\n")
            old = guestlog.read_out(d, "r1-patched-retpoline", "patched-retpoline")
        self.assertEqual(old["samples"], self.out["samples"])
        self.assertEqual([r["same"] for r in old["loads"]], ["1", "-"])
        self.assertEqual(old["guest"], dict(start="2026-12-01T10:00:00Z"))


class Unknown(unittest.TestCase):
    def test_unknown_record(self):
        """a record of an unknown kind is an error, not skipped"""
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, guestlog.RECORDS), "w") as f:
                f.write(json.dumps(dict(record="samples")) + "\n")
            with self.assertRaises(ValueError):
                guestlog.read_out(d, "b")


if __name__ == "__main__":
    sys.exit(tap.run_file(__file__))
