#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of t0.py compare (nft_concat_range/nftbench/t0compare.py)
(TAP): runs of two bases side by side, the lookup less its drop cell,
ranges, the patched kernel shown with knob 0 only.  No kernel, no QEMU."""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "nft_concat_range"))
from nftbench import tap as taplib  # noqa: E402
from nftbench import t0compare  # noqa: E402

tap, count_file = taplib.from_argv()


def row(cell, variant, mitigation, knob, insns, thunks):
    return dict(cell=cell, variant=variant, mitigation=mitigation, knob=knob, kernel_insns=insns,
                indirect_thunks=thunks)


def store(top, name, run, rows):
    d = os.path.join(top, name)
    os.makedirs(os.path.join(d, "t0"))
    with open(os.path.join(d, "t0", "t0.json"), "w") as f:
        json.dump(dict(run=run, rows=rows), f)
    return d


def line_of(text, start, section=0):
    """The SECTION-th table row of TEXT that starts with START."""
    rows = [ln for ln in text.splitlines() if ln.startswith(start)]
    return [c.strip() for c in rows[section].split("|")]


top = tempfile.mkdtemp()
old = store(top, "t0-old", dict(rounds=1, reps=2), [
    row("T0/net_port/drop/n0/k-", "baseline", "retpoline", "-", "503", "2"),
    row("T0/net_port/rbtree/n1/k-", "baseline", "retpoline", "-", "2556", "2"),
    row("T0/net_port/drop/n0/k0", "patched", "retpoline", "0", "516", "0"),
    row("T0/net_port/rbtree/n1/k0", "patched", "retpoline", "0", "922", "0"),
    row("T0/net_port/rbtree/n1/k1", "patched", "retpoline", "1", "999999", "9")])
new = store(top, "t0-new", dict(rounds=2, reps=1, base="7.3", base_version="linux-source-7.3 7.3.4-1~bpo13+1",
                                nft="host"), [
    row("T0/net_port/drop/n0/k-", "baseline", "retpoline", "-", "500..502", "2"),
    row("T0/net_port/rbtree/n1/k-", "baseline", "retpoline", "-", "1600", "12"),
    row("T0/net_port/drop/n0/k--10k", "baseline", "retpoline", "-", "500", "2"),
    row("T0/net_port/rbtree/n1/k--10k", "baseline", "retpoline", "-", "1800", "16")])
text = t0compare.compare([old, new])

hdr = line_of(text, "scenario")
tap.ok(hdr[2:] == ["6.12 baseline", "6.12 patched", "7.3 baseline"],
       "one column per base and kernel, in the order of the runs", hdr)
r = line_of(text, "rbtree n1  ")
tap.ok(r[2:] == ["2556 / 2", "922 / 0", "1600 / 12"], "a cell's instructions / thunks in every column", r)
tap.ok("999999" not in text, "the patched kernel's forced-indirect runs (knob 1) are left out")
r = line_of(text, "rbtree n1  ", 1)
tap.ok(r[2:] == ["2053 / 0", "406 / 0", "1098..1100 / 10"],
       "the lookup alone is the cell less its group's drop cell; a range stays a range", r)
r = line_of(text, "rbtree n1 10k", 1)
tap.ok(r[2:] == ["-", "-", "1300 / 14"], "a cell of the larger set is paired with the drop cell of its own group", r)
tap.ok("linux-source-7.3 7.3.4-1~bpo13+1" in text and "linux-source-6.12" in text,
       "each run's base is named")
text = t0compare.compare([old, new], lookups=["rbtree"])
r = line_of(text, "  rbtree n1 10k")
tap.ok(r[2:] == ["-", "-", "1300 / 14"] and "rbtree n1  " in text and "drop" not in text
       and "t0-old, t0-new" in text,
       "--lookups rbtree: the lookup table of that backend alone, naming the runs", text)
try:
    t0compare.compare([old, new], lookups=["pipapo"])
    missing = None
except SystemExit as e:
    missing = str(e)
tap.ok(missing and "no cell of backend(s) pipapo" in missing, "--lookups of a backend no run counted fails", missing)

# A delta counts only where the ranges of at least 3 boots each do not overlap.
three = dict(rounds=3, reps=1)
a = store(top, "t0-a", three, [
    row("T0/net_port/hash/n1/k-", "baseline", "retpoline", "-", "1015", "2"),
    row("T0/ct/ct/n1/k-", "baseline", "retpoline", "-", "3818.50..3872.37", "6"),
    row("T0/net_port/drop/n0/k-", "baseline", "retpoline", "-", "503", "2")])
b = store(top, "t0-b", three, [
    row("T0/net_port/hash/n1/k0", "patched", "retpoline", "0", "1029", "0"),
    row("T0/ct/ct/n1/k0", "patched", "retpoline", "0", "3843.43..3932.59", "3"),
    row("T0/net_port/drop/n0/k0", "patched", "retpoline", "0", "503", "0")])
one = store(top, "t0-one", dict(rounds=1, reps=2), [
    row("T0/net_port/hash/n1/k0", "patched", "retpoline", "0", "1029", "0")])
text = t0compare.compare([a, b])
tap.ok("a delta counts only where the two ranges do not overlap" in text, "the delta table says what counts", text)
r = line_of(text, "hash n1  ", 2)
tap.ok(r[2:] == ["+14"], "disjoint ranges of 3 boots each: the delta counts, unmarked", r)
r = line_of(text, "conntrack + nft", 1)
tap.ok(r[2:] == ["-28.94..+114.09 (not proven: overlap)"], "overlapping ranges: the delta is not proven", r)
r = line_of(text, "drop (hook only)", 1)
tap.ok(r[2:] == ["0 (same)"], "the same count in both kernels is no delta", r)
b2 = store(top, "t0-b2", dict(rounds=3, reps=1), [
    dict(row("T0/net_port/hash/n1/k0", "patched", "retpoline", "0", "1029", "0"), boots=1)])
for runs, why in (([a, one], "a run of one boot"), ([a, b2], "a cell counted in one boot of a 3-boot run")):
    r = line_of(t0compare.compare(runs), "hash n1  ", 2)
    tap.ok(r[2:] == ["+14 (not proven: 1 boot)"], "%s: even a delta of disjoint counts is not proven" % why, r)

# Two runs of one base: their patched kernels carry different parts of the
# series, each named by the run (t0.py run --label).
p12 = store(top, "t0-p12", dict(three, base="7.3", labels={"patched": "7.3 1-2"}), [
    row("T0/net_port/hash/n1/k0", "patched", "retpoline", "0", "1029", "0")])
p123 = store(top, "t0-p123", dict(three, base="7.3", labels={"patched": "7.3 1-3"}), [
    row("T0/net_port/hash/n1/k0", "patched", "retpoline", "0", "1001", "0")])
text = t0compare.compare([p12, p123])
hdr = line_of(text, "scenario")
tap.ok(hdr[2:] == ["7.3 1-2", "7.3 1-3"], "a run's --label names its kernel's column", hdr)
r = line_of(text, "hash n1  ", 2)
tap.ok(r[2:] == ["-28"], "labelled kernels of one base and variant get a delta of their own", r)
# --cells: one patch's own figure, its kernel against the one before it.
text = t0compare.compare([p12, p123], backends=["hash"])
hdr = line_of(text, "  scenario")
r = line_of(text, "  hash n1")
tap.ok(hdr[2:] == ["7.3 1-2", "7.3 1-3", "delta"] and r[2:] == ["1029 / 0", "1001 / 0", "-28"]
       and "t0-p12, t0-p123" in text,
       "--cells hash: the per-packet rows of that backend, the delta, the runs named", text)
text = t0compare.compare([a, b], backends=["hash"])
tap.ok("drop" not in text and "conntrack" not in text, "--cells leaves out the cells of other backends", text)
try:
    t0compare.compare([p12, p123], backends=["rbtree"])
    missing = None
except SystemExit as e:
    missing = str(e)
tap.ok(missing and "no cell of backend(s) rbtree" in missing, "--cells of a backend no run counted fails", missing)
sys.exit(taplib.done(tap, count_file))
