#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of nft_concat_range/nftbench's analysis and report: set-load
table, the base script's parser, paired costs, the A/A noise floor, drift,
steal, and the whole report and validate on synthetic samples of known
cost (synth.py).

TAP; [--tap-start N] [--count-file PATH] as bench-quick chains its tests."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "nft_concat_range"))
import json  # noqa: E402
import random  # noqa: E402
import re  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402

from nftbench import basecmp, loads, runlog  # noqa: E402
from nftbench import tap as taplib  # noqa: E402
from nftbench.analysis import Cells, aa_state, noise_floor  # noqa: E402
from nftbench.drift import drift_text  # noqa: E402
from nftbench.files import write  # noqa: E402
from nftbench.model import TYPES  # noqa: E402
from nftbench.render import header_text, noise_lines  # noqa: E402
from nftbench.report import Report, report  # noqa: E402
from nftbench.tables import ALL_TABLES, TABLES  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from synth import synth_results  # noqa: E402

NCR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "nft_concat_range", "ncr.py")


def main():
    tap, count_file = taplib.from_argv()
    lt = loads.load_table([dict(type="net_port", nft_s=2.0, nftlab_s=0.5, same="1"),
                                 dict(type="net_port", nft_s=4.0, nftlab_s=1.5, same="0")],
                                ["net_port"], {"net_port": 1000})
    tap.ok(lt[0]["nft_s"] == 3.0 and lt[0]["nftlab_s"] == 1.0 and lt[0]["ratio"] == 1.0 / 3 and
           (lt[0]["same"], lt[0]["compared"]) == (1, 2) and
           "DIFFERENT" in loads.render_loads(lt, {"net_port": "net,port"}),
           "load table: medians, ratio, a differing listing is flagged", lt)
    one = loads.render_loads(loads.load_table([dict(type="net_port", nft_s=2.0, nftlab_s=0.5, same="1",
                                                    nftlab_procs=1)], ["net_port"], {"net_port": 1000}),
                             {"net_port": "net,port"})
    nine = loads.render_loads(lt, {"net_port": "net,port"})
    tap.ok("so is nftlab -f with a script" in one and "nine commands" not in one and "nine commands" in nine and
           "nftlab_procs" not in lt[0],
           "load table: one nftlab -f process per load says so; loads the guest did not count (stored runs: one "
           "process per command) keep their text", one)
    log = ("TEST: performance\n  net,port                            61s[ OK ]\n"
           "    baseline (drop from netdev hook):               5000000pps\n"
           "    baseline hash (non-ranged entries):             4000000pps\n"
           "    baseline rbtree (match on first field only):    3000000pps\n"
           "    set with  1000 full, ranged entries:            1000000pps\n"
           "  port,proto                          90s[ OK ]\n"
           "    set with 30000 full, ranged entries:            1000000pps\n"
           "  net6,port,mac,proto               /dev/stdin:16:39-52: Error: Could not process rule\n"
           "    1s                              [SKIP]\n  set not supported\n"
           "  net,mac                           nftlab: guest still running after 600s: killing it\n")
    parsed = basecmp.parse_output(log, [TYPES[t].display for t in TYPES])
    ours = {"drop": [4.9e6, 5.1e6, 5.0e6, 5.2e6], "hash": [4.0e6, 4.1e6, 3.9e6, 4.0e6],
            "rbtree": [2.0e6, 2.1e6, 1.9e6, 2.0e6], "pipapo": [1.0e6, 1.02e6, 0.98e6, 1.0e6]}
    rows = basecmp.compare(parsed, lambda d, c: ours[c],
                           lambda d: {"net,port": 1000, "port,proto": 10000}.get(d))
    v = {(r["type"], r["column"]): r["verdict"] for r in rows}
    tap.ok(parsed["net,port"]["pps"] == {"drop": 5000000, "hash": 4000000, "rbtree": 3000000, "pipapo": 1000000} and
           parsed["net6,port,mac,proto"]["status"] == "SKIP" and "set" not in parsed and
           v[("net,port", "drop")] == "agree" and v[("net,port", "rbtree")] == "DISAGREE" and
           v[("port,proto", "pipapo")].startswith("not the same cell") and
           v[("net6,port,mac,proto", "-")].startswith("not measured") and
           parsed["net,mac"]["status"] == "not finished",
           "base perf script output parsed and compared (agree, DISAGREE, other sizes, SKIP)", v)
    # paired per-lookup cost
    cells = Cells([dict(role="r", samples=[
        dict(cell="d", boot="b", rep=1, valid=True, pps=1e6, knob_req="-", knob="-"),
        dict(cell="x", boot="b", rep=1, valid=True, pps=5e5, knob_req="-", knob="-"),
        dict(cell="d", boot="b", rep=2, valid=True, pps=1e6, knob_req="-", knob="-"),
        dict(cell="x", boot="b", rep=2, valid=False, pps=1e5, knob_req="-", knob="-")])])
    tap.ok(cells.paired_ns("r", "x", "d", 1) == [1000.0] and cells.status("r", "x") == "INVALID 1/2",
           "per-lookup ns paired per repetition; an invalid sample invalidates its cell")
    # timing honesty: a synthetic A/A pair without and with a difference
    for shift, want in ((0.0, "pass"), (0.15, "fail")):
        wd = tempfile.mkdtemp(prefix="ncr-aa-")
        try:
            rng = random.Random(11)
            ss = []
            for rep in range(1, 7):
                for cid, ns in (("T2/net_port/drop/n0/k0", 800.0), ("T2/net_port/drop/n0/k0-aa", 800.0),
                                ("T2/net_port/pipapo/n10/k0", 1300.0),
                                ("T2/net_port/pipapo/n10/k0-aa", 800.0 + 500.0 * (1 + shift))):
                    ns *= 1 + rng.gauss(0, 0.005)
                    ss.append(dict(cell=cid, boot="b", rep=rep, valid=True, pps=1e9 / ns, knob_req="0", knob="0"))
            rep_ = Report(wd, [dict(role="patched-retpoline", samples=ss)], dict(t2_lookups=10))
            rep_.build(["T2"])
            state, text = aa_state(rep_.tables["T2"]["aa"])
            head = header_text({}, rep_.boots, rep_.noise)
            warned = head.startswith("WARNING:") and "A/A" in head.splitlines()[0]
            tap.ok(state == want and warned == (want == "fail") and "noise floor: A/A pair" in head and
                   "over 4 cells" in head,
                   "A/A pair %s a difference: validate state %s, WARNING at the top %s, noise floor line" % (
                       "with" if shift else "without", want, "yes" if want == "fail" else "no"), head)
        finally:
            shutil.rmtree(wd, ignore_errors=True)
    one = dict(verdict="not compared (fewer than 2 valid samples)", a=None, b=None)
    tap.ok(aa_state(one)[0] == "skip" and aa_state(None)[0] == "skip" and
           not any(ln.startswith("WARNING") for ln in noise_lines(noise_floor(one, []))) and
           "no cell has 2 valid samples" in noise_lines(noise_floor(one, []))[0],
           "A/A pair not comparable (one sample per cell): skip, never pass; no warning")
    # drift: a synthetic warm-up (the first sample of every boot 20 % slower)
    # must show at position 0 and nowhere else
    rng = random.Random(5)
    boots = []
    for bi in range(8):
        ss = []
        for i in range(12):
            cid = ("T1/net_port/drop/n0/k-", "T1/net_port/hash/n1/k-")[i % 2]
            ns = (800.0 if i % 2 == 0 else 900.0) * (1.2 if i == 0 else 1.0) * (1 + rng.gauss(0, 0.01))
            ss.append(dict(cell=cid, rep=i // 2 + 1, valid=True, pps=1e9 / ns, type="net_port", backend=cid.split("/")[2],
                           table="T1", boot="r%d-x" % bi))
        boots.append(dict(dir="r%d-x" % bi, role="x", round=bi + 1, samples=ss, guest={}))
    dt = drift_text("synthetic", {}, boots)
    m0 = re.search(r"^  0 +n= +8 +median +([-+0-9.]+)%", dt, re.M)
    m4 = re.search(r"^  >= 4 +n= +64 +median +([-+0-9.]+)%", dt, re.M)
    tap.ok(m0 and m4 and 15 < float(m0.group(1)) < 25 and abs(float(m4.group(1))) < 2,
           "drift: a synthetic warm-up of the first sample of each boot shows at position 0 only", dt[:900])
    # what bench recorded as it ran (runlog): steal per boot, host load,
    # the host and the kernels as they were then, not as they are now
    run = dict(settings=dict(mode="quick", tables=["T1"], rounds=1, reps_per_boot=1, duration="0.2", t2_lookups=10,
                             knob="k", burst="1000", build=False, arch="um", nftlab="not built"),
               host=dict(date="d", cpu="Recorded CPU @ 1.00GHz", nproc=7),
               kernels=[dict(role="patched-retpoline", status="ok", dir="/cache/p",
                             build=dict(commit="resolved", base="6.12.117-1~deb12u1", series="resolved")),
                        dict(role="baseline-retpoline", status="ok", dir="/cache/b",
                             build=dict(commit="rebuilt-later", base="6.12.999", series="other")),
                        dict(role="patched-plain", status="missing", dir=None, build=None)],
               host_load=[dict(time="10:00:00", role="patched-retpoline", load="1.00 0.50 0.25", cc1=0),
                          dict(time="10:05:00", role="baseline-retpoline", load="2.00 1.00 0.50", cc1=3)],
               selftest={"patched-retpoline": "exit 0; output: selftest-patched-retpoline/output.log"})
    boots = [dict(dir="r1-patched-retpoline", role="patched-retpoline", steal_ticks=[5, 1000],
                  build=dict(commit="0123456789abcdef", base="6.12.117-1~deb12u1", series="booted", stamp="s1")),
             dict(dir="r2-patched-retpoline", role="patched-retpoline", steal_ticks=[40, 1000],
                  build=dict(commit="second-boot", series="x")),
             dict(dir="r1-baseline-retpoline", role="baseline-retpoline", steal_ticks=[0, 0])]
    m = runlog.meta_of(run, boots)
    head = header_text(m, [])
    tap.ok(m["steal"] == {"r1-patched-retpoline": 0.5, "r2-patched-retpoline": 4.0} and
           "host steal:  2.2% of the host's CPU time went to other guests during the boots (median; "
           "max 4.0% in r2-patched-retpoline)" in head,
           "runlog: stolen share per boot (none without ticks), median and worst in the header", head)
    k = m["kernels"]
    tap.ok(m["cpu"] == "Recorded CPU @ 1.00GHz" and m["nproc"] == 7 and m["reps_total"] == 1 and
           (k["patched-retpoline"]["commit"], k["patched-retpoline"]["series"], k["patched-retpoline"]["stamp"]) ==
           ("0123456789abcdef", "booted", "s1") and k["baseline-retpoline"]["commit"] == "rebuilt-later" and
           k["patched-plain"] == dict(status=runlog.MISSING, dir="-") and m["base"] == "6.12.999",
           "runlog: the host as recorded, the build its first boot loaded (else the one resolved), missing kernels",
           m)
    tap.ok(m["load_during"] == ["10:00:00 patched-retpoline load 1.00 0.50 0.25, 0 cc1",
                                "10:05:00 baseline-retpoline load 2.00 1.00 0.50, 3 cc1"] and m["builds_running"] and
           m["selftest"] == run["selftest"] and
           "WARNING:     kernel builds (cc1) were running" in head,
           "runlog: host load before every boot, a compiler running during one warns", m["load_during"])
    # the whole report pipeline on synthetic samples with known costs
    wd = tempfile.mkdtemp(prefix="ncr-synth-")
    try:
        model = synth_results(wd)
        rc = report(wd, quiet=True)
        res = json.load(open(os.path.join(wd, "results.json")))
        t1 = res["tables"]["T1"]["rows"][0]["kernels"]
        got = t1["patched-retpoline"]["ns"]["pipapo"]["median"]
        tap.ok(rc == 0 and abs(got - model["T1 pipapo patched"]) < 0.05 * model["T1 pipapo patched"],
               "report on synthetic data: T1 ns per lookup recovered (%.1f vs %.1f)" % (got, model["T1 pipapo patched"]))
        f = res["tables"]["T3"]["fits"]["1"]
        tap.ok(f and abs(f["slope"] - model["T3 slope k1"]) < max(f["slope_half"], 1.0),
               "report on synthetic data: T3 slope recovered (%.2f +/- %.2f vs %.2f)" % (
                   f["slope"] if f else 0, f["slope_half"] if f else 0, model["T3 slope k1"]))
        t2 = res["tables"]["T2"]
        tap.ok(t2["rows"][2]["direct_vs_indirect"].get("proven") is True and "No difference proven" in t2["aa"]["verdict"]
               or "Difference" in t2["aa"]["verdict"],
               "report on synthetic data: T2 verdicts by ministat, A/A row present", t2["aa"]["verdict"])
        t6 = res["tables"]["T6"]
        c0, c1 = t6["rows"][0]["cost"], t6["rows"][1]["cost"]
        tap.ok(c0 and c1 and abs(c0["median"] - model["T6 cost k0"]) < 0.1 * model["T6 cost k0"] and
               abs(c1["median"] - model["T6 cost k1"]) < 0.1 * model["T6 cost k1"] and
               t6["cmp_cost"].get("proven") is True and t6["cmp_cost"]["ministat"]["diff"] < 0,
               "report on synthetic data: T6 update cost per knob recovered, direct < indirect by ministat",
               (c0, c1, t6["cmp_cost"]["verdict"]))
        tap.ok(all(TABLES[t].shape(res["tables"][t]) and not TABLES[t].shape(dict(rows=[], fits={}))
                   for t in ALL_TABLES),
               "table shapes: each table's shape() accepts its figures of the synthetic run, rejects an empty table")
        t1inv = res["tables"]["T1"]["rows"][1]["kernels"]["baseline-retpoline"]["status"]["hash"]
        tap.ok(t1inv.startswith("INVALID"), "report on synthetic data: a cell with a bad counter is INVALID", t1inv)
        text = open(os.path.join(wd, "report.md")).read()
        tap.ok(all(t + ":" in text for t in ALL_TABLES) and "INVALID" in text, "report on synthetic data: report.md tables")
        if shutil.which("gnuplot"):
            tap.ok(all(os.path.isfile(os.path.join(wd, t + ".svg")) for t in ALL_TABLES), "report on synthetic data: SVGs")
        else:
            tap.ok(False, "gnuplot installed (apt-get install gnuplot-nox)")
        v = subprocess.run([sys.executable, NCR, "validate", wd],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        tap.ok(v.returncode != 0 and "not ok" in v.stdout and "INVALID" not in v.stdout,
               "validate flags the invalid synthetic sample", v.stdout[-400:])
        aa_line = [ln for ln in v.stdout.splitlines() if "T2 A/A pair shows no difference" in ln]
        want_ok = t2["aa"].get("proven") is False
        tap.ok(len(aa_line) == 1 and aa_line[0].startswith("ok" if want_ok else "not ok") and "SKIP" not in aa_line[0],
               "validate's A/A line follows the synthetic A/A verdict (%s)" % t2["aa"]["verdict"], aa_line)
        # results.json alone re-renders the report: the base script's
        # output and T0's figures included
        run = runlog.read_run(wd)
        run["selftest"]["patched-retpoline"] = "ran"
        runlog.save(os.path.join(wd, runlog.RUN), run)
        os.makedirs(os.path.join(wd, "selftest-patched-retpoline"))
        write(os.path.join(wd, "selftest-patched-retpoline", "output.log"), log)
        os.makedirs(os.path.join(wd, "t0"))
        write(os.path.join(wd, "t0", "t0.json"), json.dumps(dict(
            run=dict(counts=[1000, 1000, 3000], rounds=1, reps=1, cpu="synthetic"), rows=[], errors={},
            unstable=["synthetic T0 row"])))
        report(wd, quiet=True)
        # (ministat's appendix names the sample files by their path)
        full = open(os.path.join(wd, "report.md")).read().replace(wd, "DIR")
        wd2 = tempfile.mkdtemp(prefix="ncr-stored-")
        try:
            shutil.copy(os.path.join(wd, "results.json"), wd2)
            report(wd2, quiet=True)
            again = open(os.path.join(wd2, "report.md")).read().replace(wd2, "DIR").replace(wd, "DIR")
        finally:
            shutil.rmtree(wd2, ignore_errors=True)
        tap.ok(full == again and "Base tree nft_concat_range_perf.sh" in full and "net,port" in full and
               "T0: per packet, exact" in full and "synthetic T0 row" in full,
               "report: results.json alone re-renders report.md (base script output and T0 included)",
               "%d vs %d characters" % (len(full), len(again)))
    finally:
        shutil.rmtree(wd, ignore_errors=True)
    return taplib.done(tap, count_file)


if __name__ == "__main__":
    sys.exit(main())
