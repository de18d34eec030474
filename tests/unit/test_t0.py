#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of T0's analysis (nft_concat_range/nftbench/tables/t0.py) and
runner (t0run.py) (TAP): snapshots to per-packet counts, boots to rows,
exactness across rounds, call-site parsing.  No kernel, no QEMU."""
import contextlib
import io
import json
import os
import sys
import tempfile
from fractions import Fraction

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "nft_concat_range"))
from nftbench import tap as taplib  # noqa: E402
from nftbench import generators, lab, model, t0run  # noqa: E402
from nftbench.tables import t0  # noqa: E402

tap, count_file = taplib.from_argv()
ok = tap.ok


def snap(seq, packets, insns, calls):
    return dict(mark="pktgen_if_show", seq=seq,
                counters=dict(packets=[packets, packets], leaves=[packets, 0], kernel_insns=[10 * insns, insns],
                              indirect_calls=[0, 0], indirect_jumps=[5, 0]),
                calls={k: [v + 100, v] for k, v in calls.items()})


def boot_snaps(per_packet_insns, per_run_extra, counts, thunks=0, extra_last_thunks=0):
    """Snapshots of a boot running one cell: reads between runs, one run
    per count, each run costing COUNT * per-packet + a fixed extra."""
    snaps, p, i, c, seq = [], 0, 0, 0, 0
    snaps.append(snap(seq, p, i, {"__x86_indirect_thunk_rax": c}))
    for cnt in counts:
        seq += 1
        snaps.append(snap(seq, p, i, {"__x86_indirect_thunk_rax": c}))   # read before the run
        p += cnt
        i += cnt * per_packet_insns + per_run_extra
        c += cnt * thunks + (extra_last_thunks if cnt is counts[-1] else 0)
        seq += 1
        snaps.append(snap(seq, p, i, {"__x86_indirect_thunk_rax": c}))   # result read
    return snaps


counts = [2000, 2000, 12000]
runs = t0.runs_from_snapshots(boot_snaps(1234, 777, counts))
ok([r["packets"] for r in runs] == counts, "runs_from_snapshots: one run per interval with packets")
pp = t0.per_packet(runs[1], runs[2])
ok(pp["kernel_insns"] == Fraction(1234), "per_packet: slope cancels what a run costs once")
ok(t0.fmt(Fraction(1234)) == "1234" and t0.fmt(Fraction(2469, 2)) == "1234.50", "fmt: integers exact, else 2 decimals")


def write_boot(root, name, variant, rnd, per_packet_insns, extra, thunks, status=0, sofar=None, extra_last=0,
               tsv=False, cell=("net_port", "hash", "0")):
    """A boot directory as t0run leaves it; TSV: the guest's output as
    before records.jsonl (samples.tsv, the stored T0 runs).  CELL: the
    (type, backend, knob) of the one cell it counts."""
    ctype, backend, knob = cell
    bdir = os.path.join(root, "t0", "raw", name)
    os.makedirs(os.path.join(bdir, "out"))
    json.dump(dict(name=name, variant=variant, mitigation="retpoline", round=rnd, kernel="-", status=status,
                   counts=counts), open(os.path.join(bdir, "boot.json"), "w"))
    with open(os.path.join(bdir, "counts.jsonl"), "w") as f:
        for s in boot_snaps(per_packet_insns, extra, counts, thunks, extra_last):
            f.write(json.dumps(s) + "\n")
    if tsv:
        with open(os.path.join(bdir, "out", "samples.tsv"), "w") as f:
            f.write("# header\n")
            for c in counts:
                f.write("T0/net_port/hash/n1/k0\t1\t0\t0\t100\t%d\t0\t%d\t0\t1.0\t1\tok\n" % (sofar or c, c))
    else:
        with open(os.path.join(bdir, "out", "records.jsonl"), "w") as f:
            f.write(json.dumps(dict(record="guest", start="2026-12-01T00:00:00Z")) + "\n")
            for c in counts:
                f.write(json.dumps(dict(record="sample", cell=dict(table="T0", type=ctype, backend=backend, n=1,
                                                                   tag=""),
                                        knob_req=knob, rep=1, knob=knob, usec=100, sofar=sofar or c, errors=0,
                                        counter=c, tx=0, pps=1.0, valid=True, reason="ok")) + "\n")
    with open(os.path.join(bdir, "syms.txt"), "w") as f:
        f.write("thunk ffffffff81000000 20 __x86_indirect_thunk_rax\n")
    return bdir


with tempfile.TemporaryDirectory() as d:
    write_boot(d, "patched-retpoline-r1", "patched", 1, 1500, 300, 2)
    write_boot(d, "patched-retpoline-r2", "patched", 2, 1500, 9999, 2)
    json.dump(dict(quick=True, rounds=2, variants=["patched"], mitigations=["retpoline"], counts=counts),
              open(os.path.join(d, "t0", "run.json"), "w"))
    res = t0.analyse(d)
    row = res["rows"][0] if res["rows"] else {}
    ok(not res["errors"] and row.get("kernel_insns") == "1500" and row.get("indirect_thunks") == "2",
       "analyse: per-packet instructions and thunks of a cell")
    ok(row.get("identical") is True and not res["unstable"],
       "analyse: rounds that differ only in what a run costs once are identical per packet")

def two_rounds(insns2, thunks2, extra_last=0):
    """analyse() of two boots, the second with other per-packet figures."""
    with tempfile.TemporaryDirectory() as d:
        write_boot(d, "patched-retpoline-r1", "patched", 1, 1500, 0, 2)
        write_boot(d, "patched-retpoline-r2", "patched", 2, insns2, 0, thunks2, extra_last=extra_last)
        json.dump(dict(quick=True, rounds=2, variants=["patched"], mitigations=["retpoline"], counts=counts),
                  open(os.path.join(d, "t0", "run.json"), "w"))
        return t0.analyse(d)


with tempfile.TemporaryDirectory() as d, tempfile.TemporaryDirectory() as d2:
    for root, tsv in ((d, False), (d2, True)):
        write_boot(root, "patched-retpoline-r1", "patched", 1, 1500, 300, 2, tsv=tsv)
        json.dump(dict(quick=True, rounds=1, variants=["patched"], mitigations=["retpoline"], counts=counts),
                  open(os.path.join(root, "t0", "run.json"), "w"))
    new, old = t0.analyse(d), t0.analyse(d2)
    ok(new["rows"] and new == old and new["rows"][0]["cell"] == "T0/net_port/hash/n1/k0",
       "analyse: a boot's records.jsonl and the samples.tsv of stored runs give the same rows", (new, old))

res = two_rounds(1500, 3)
ok(res["unstable"] and res["rows"] and res["rows"][0]["identical"] is False,
   "analyse: a round that counts other thunks is reported NOT EXACT")
res = two_rounds(1500, 2, extra_last=1)
ok(res["unstable"] and res["rows"] and res["rows"][0]["identical"] is False,
   "analyse: one thunk more in 2000 packets is NOT EXACT (compared unrounded)")
res = two_rounds(1503, 2)
row = res["rows"][0] if res["rows"] else {}
ok(not res["unstable"] and row.get("identical") is True and row.get("insns_identical") is False
   and row.get("kernel_insns") == "1500..1503" and row.get("insns_spread") == 3.0,
   "analyse: instructions that move between rounds are shown as a range with their spread")

with tempfile.TemporaryDirectory() as d:
    write_boot(d, "patched-retpoline-r1", "patched", 1, 1500, 0, 2, sofar=1999)
    json.dump(dict(quick=True, rounds=1, variants=["patched"], mitigations=["retpoline"], counts=counts),
              open(os.path.join(d, "t0", "run.json"), "w"))
    res = t0.analyse(d)
    ok(bool(res["errors"]) and not res["rows"], "analyse: a run whose counted packets differ from pktgen's is an error")

line = "ffffffff8123abcd:\te8 2e 41 00 00       \tcall   ffffffff8123fd00 <netif_receive_skb>"
m = t0run.CALL_RE.match(line)
ok(m is not None and m.group(3) == "netif_receive_skb" and len(m.group(2).split()) == 5,
   "CALL_RE: address, length and target of a direct call in objdump -d -w output")
ok(t0run.CALL_RE.match("ffffffff8123abcd:\tff d0                \tcall   *%rax") is None,
   "CALL_RE: an indirect call is not a site")

def knobs_of(variant, knob):
    return {c["cell"].split("/")[4][:2] for _, cells in t0.scenarios(variant, False, knob) for c in cells}


ok(knobs_of("patched", None) == {"k0", "k1", "k-"} and knobs_of("baseline", None) == {"k-"},
   "scenarios: a patched kernel runs the cells with the lab knob at 0 and 1 (egress: no knob), unless told otherwise")
ok(knobs_of("patched", False) == {"k-"},
   "scenarios: a patched kernel without the lab knob (7.3) runs every cell once, as a baseline does")
with tempfile.TemporaryDirectory() as d:
    with open(os.path.join(d, "config"), "w") as f:
        f.write("CONFIG_NF_TABLES=y\nCONFIG_NFT_LAB_FORCE_INDIRECT=y\n")
    with_knob = lab.has_knob(d)
    with open(os.path.join(d, "config"), "w") as f:
        f.write("CONFIG_NF_TABLES=y\n# CONFIG_NFT_LAB_FORCE_INDIRECT is not set\n")
    ok(with_knob and not lab.has_knob(d) and not lab.has_knob(os.path.join(d, "none")),
       "lab.has_knob: the kernel's config says whether it has the lab knob")


# --------------------------------------------------------------------------
# Exact means exact (#26): the plan, boots, ranges, validate.
# --------------------------------------------------------------------------
def plan_sets(d, name):
    """{set: [elements]} of the sets file NAME of plan directory D."""
    out = {}
    for line in open(os.path.join(d, name)):
        w = line.split()
        if line.startswith("add element"):
            out.setdefault(w[4], []).extend(e.strip() for e in line.split("{", 1)[1].rsplit("}", 1)[0].split(","))
        elif line.startswith("\tset "):
            out.setdefault(w[1], [])
    return out


with tempfile.TemporaryDirectory() as d:
    t0.write_plan(d, "baseline", False)
    sets = plan_sets(d, "sets-net_port.nft")
    pk = generators.packet(model.TYPES["net_port"])
    ok(sets.get("norange") == ["%s . %s" % (pk["addr"], pk["port"])],
       "write_plan: the hash cell's set holds the packet's key alone (a one-element bucket chain whatever the seed)",
       {k: len(v) for k, v in sets.items()})
    ok(len(sets.get("test", ())) == 1001 and len(sets.get("noconcat", ())) == 1001,
       "write_plan: the rbtree and pipapo sets keep the selftest's 1001 elements")
    plan = open(os.path.join(d, "plan.tsv")).read()
    ok("T0-seed" not in plan and "sets-net_port-probe.nft" not in os.listdir(d),
       "write_plan: no seed probe unless asked for")

with tempfile.TemporaryDirectory() as d:
    t0.write_plan(d, "baseline", False, reps=2, only=["drop", "hash", "ct"], probe=3)
    lines = [ln.split("\t") for ln in open(os.path.join(d, "plan.tsv")).read().splitlines()]
    groups = [ln for ln in lines if ln[0] == "group"]
    cells = [(ln[1], json.loads(ln[6])) for ln in lines if ln[0] == "cell"]
    probe = [g for g in groups if g[1].startswith("T0-seed")]
    ok(len(probe) == 3 and all(g[9] == "sets-net_port-probe.nft" for g in probe)
       and list(plan_sets(d, "sets-net_port-probe.nft")) == ["norange"]
       and len(plan_sets(d, "sets-net_port-probe.nft")["norange"]) == 1001,
       "write_plan --seed-probe 3: three groups, each creating the 1001-element hash set anew", probe)
    pcells = [(gid, c) for gid, c in cells if gid.startswith("T0-seed")]
    prep = [ln[4] for ln in lines if ln[0] == "cell" and ln[1].startswith("T0-seed")]
    ok(len(pcells) == 3 and all(c["backend"] == "hash" and c["tag"] == t0.PROBE_TAG for _, c in pcells)
       and prep == ["1", "2", "3"] and t0.ranged("T0/net_port/hash/n1/k-" + t0.PROBE_TAG),
       "write_plan --seed-probe: one pass per probe group, numbered after it; its cells are measured ranges",
       (pcells, prep))
    ok({c["backend"] for _, c in cells} == {"drop", "hash", "ct"} and not any(g[1] == "T0-dynset" for g in groups),
       "write_plan --cells: only the cells of the backends asked for, groups without one left out")
    ok(list(plan_sets(d, "sets-net_port.nft")) == ["norange"],
       "write_plan --cells: the group's sets file creates only the sets its cells look up")
    ok(not t0.ranged("T0/net_port/hash/n1/k-") and not t0.ranged("T0/net_port/drop/n0/k-")
       and t0.ranged("T0/dynset/dynset/n1/k-") and t0.ranged("T0/ct/ct/n1/k-") and t0.ranged("T0/ct/ctonly/n1/k0"),
       "ranged: the hash and drop cells must not move between boots, the dynset and conntrack cells are measured")
try:
    t0.cell_backends("drop,hash,nosuch")
    bad = None
except Exception as e:
    bad = str(e)
ok(bad and "nosuch" in bad and t0.cell_backends("drop,ct") == "drop,ct",
   "t0.py run --cells: a backend T0 has no cell of is refused", bad)


def boots_run(per_boot, cell=("net_port", "hash", "-"), quick=False, variant="baseline"):
    """report() and validate() of one boot per entry of PER_BOOT
    (instructions per packet of that boot) of CELL alone: (t0.json,
    validate's exit status, validate's TAP, t0.md)."""
    d = tempfile.mkdtemp()
    for i, insns in enumerate(per_boot, 1):
        write_boot(d, "%s-retpoline-r%d" % (variant, i), variant, i, insns, 0, 2, cell=cell)
    json.dump(dict(quick=quick, rounds=len(per_boot), reps=1, variants=[variant], mitigations=["retpoline"],
                   counts=counts, cells=[cell[1]]), open(os.path.join(d, "t0", "run.json"), "w"))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        t0.report(d, quiet=True)
        rc = t0.validate(d)
    res = json.load(open(os.path.join(d, "t0", "t0.json")))
    md = open(os.path.join(d, "t0", "t0.md")).read()
    return res, rc, out.getvalue(), md


res, rc, out, md = boots_run([1015, 1015, 1015])
row = res["rows"][0] if res["rows"] else {}
ok(rc == 0 and row.get("boots") == 3 and row.get("insns_by_boot") == {"1": "1015", "2": "1015", "3": "1015"},
   "validate: a hash cell counting the same in three boots passes; t0.json keeps each boot's figure", out + str(row))
res, rc, out, md = boots_run([1015, 1056, 1015])
row = res["rows"][0] if res["rows"] else {}
ok(rc != 0 and "not ok" in out and row.get("kernel_insns") == "1015..1056" and "| MOVED" in md,
   "validate: a hash cell reading 1015 in two boots and 1056 in one fails (the rhash seed is not an excuse)", out)
res, rc, out, md = boots_run([1015, 1015])
ok(rc != 0 and "not ok" in out and "at least 3 boots" in out,
   "validate: a run of fewer than 3 boots per kernel fails: one boot cannot show the next one's count", out)
res, rc, out, md = boots_run([1015, 1015], quick=True)
ok(rc == 0 and "# SKIP quick run" in out, "validate: a quick run (make check's, one boot) skips the boot count", out)
res, rc, out, md = boots_run([3421, 3640, 3500], cell=("ct", "ctonly", "-"))
row = res["rows"][0] if res["rows"] else {}
ok(rc == 0 and row.get("ranged") is True and row.get("kernel_insns") == "3421..3640" and "| range" in md
   and "b1 3421 b2 3640 b3 3500" in md,
   "validate: a conntrack cell moving between boots passes, reported as its min..max with each boot's figure",
   out + md)
with tempfile.TemporaryDirectory() as d:
    res, _, _, _ = boots_run([1015, 1015, 1015])
    res["rows"][0]["insns_by_boot"]["2"] = "1056"
    os.makedirs(os.path.join(d, "t0"))
    json.dump(res, open(os.path.join(d, "t0", "t0.json"), "w"))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = t0.validate(d)
    ok(rc != 0 and "not ok" in out.getvalue() and "span what each of its boots counted" in out.getvalue(),
       "validate: a t0.json reporting less than the range its boots counted fails", out.getvalue())

sys.exit(taplib.done(tap, count_file))
