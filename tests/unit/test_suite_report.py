#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of nft_concat_range/nftbench's analysis and report: set-load
table, the base script's parser, paired costs, the A/A noise floor, drift,
steal, and the whole report and validate on synthetic samples of known
cost (synth.py).

python3 tests/unit/test_suite_report.py: TAP (lib/tap.py,
nested in bench-quick's stream); -v: unittest's own runner."""
import json
import os
import random
import re
import runpy
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
runpy.run_path(os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..", "lib", "bootstrap.py"))
import tap  # noqa: E402
from nftbench import basecmp, loads, runlog  # noqa: E402
from nftbench.analysis import Cells, aa_state, noise_floor  # noqa: E402
from nftbench.drift import drift_text  # noqa: E402
from nftbench.files import write  # noqa: E402
from nftbench.model import TYPES  # noqa: E402
from nftbench.render import header_text, noise_lines  # noqa: E402
from nftbench.report import Report, report  # noqa: E402
from nftbench.tables import ALL_TABLES, TABLES  # noqa: E402
from synth import synth_results  # noqa: E402

BENCH = os.path.join(HERE, "..", "..", "nft_concat_range", "bench")
# the base tree's nft_concat_range_perf.sh as it prints: finished, skipped
# and unfinished types
BASE_LOG = ("TEST: performance\n  net,port                            61s[ OK ]\n"
            "    baseline (drop from netdev hook):               5000000pps\n"
            "    baseline hash (non-ranged entries):             4000000pps\n"
            "    baseline rbtree (match on first field only):    3000000pps\n"
            "    set with  1000 full, ranged entries:            1000000pps\n"
            "  port,proto                          90s[ OK ]\n"
            "    set with 30000 full, ranged entries:            1000000pps\n"
            "  net6,port,mac,proto               /dev/stdin:16:39-52: Error: Could not process rule\n"
            "    1s                              [SKIP]\n  set not supported\n"
            "  net,mac                           nftlab: guest still running after 600s: killing it\n")


def read(path):
    with open(path) as f:
        return f.read()


def aa_report(shift):
    """aa_state() and the header of a T2 report of an A/A pair whose second
    lookup cell costs SHIFT more (0: none)."""
    wd = tempfile.mkdtemp(prefix="bench-aa-")
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
        state, _ = aa_state(rep_.tables["T2"]["aa"])
        return state, header_text({}, rep_.boots, rep_.noise)
    finally:
        shutil.rmtree(wd, ignore_errors=True)


class Analysis(unittest.TestCase):
    LOADS = [dict(type="net_port", nft_s=2.0, nftlab_s=0.5, same="1"),
             dict(type="net_port", nft_s=4.0, nftlab_s=1.5, same="0")]

    def test_load_table(self):
        """load table: medians, ratio, a differing listing is flagged"""
        lt = loads.load_table(self.LOADS, ["net_port"], {"net_port": 1000})
        self.assertEqual(lt[0]["nft_s"], 3.0)
        self.assertEqual(lt[0]["nftlab_s"], 1.0)
        self.assertEqual(lt[0]["ratio"], 1.0 / 3)
        self.assertEqual((lt[0]["same"], lt[0]["compared"]), (1, 2))
        self.assertIn("DIFFERENT", loads.render_loads(lt, {"net_port": "net,port"}))

    def test_load_processes(self):
        """load table: one nftlab -f process per load says so; loads the guest did not count (stored runs: one process per command) keep their text"""
        one = loads.render_loads(loads.load_table([dict(type="net_port", nft_s=2.0, nftlab_s=0.5, same="1",
                                                        nftlab_procs=1)], ["net_port"], {"net_port": 1000}),
                                 {"net_port": "net,port"})
        lt = loads.load_table(self.LOADS, ["net_port"], {"net_port": 1000})
        nine = loads.render_loads(lt, {"net_port": "net,port"})
        self.assertIn("so is nftlab -f with a script", one)
        self.assertNotIn("nine commands", one)
        self.assertIn("nine commands", nine)
        self.assertNotIn("nftlab_procs", lt[0])

    def test_base_output(self):
        """base perf script output parsed and compared (agree, DISAGREE, other sizes, SKIP)"""
        parsed = basecmp.parse_output(BASE_LOG, [TYPES[t].display for t in TYPES])
        ours = {"drop": [4.9e6, 5.1e6, 5.0e6, 5.2e6], "hash": [4.0e6, 4.1e6, 3.9e6, 4.0e6],
                "rbtree": [2.0e6, 2.1e6, 1.9e6, 2.0e6], "pipapo": [1.0e6, 1.02e6, 0.98e6, 1.0e6]}
        rows = basecmp.compare(parsed, lambda d, c: ours[c],
                               lambda d: {"net,port": 1000, "port,proto": 10000}.get(d))
        v = {(r["type"], r["column"]): r["verdict"] for r in rows}
        self.assertEqual(parsed["net,port"]["pps"],
                         {"drop": 5000000, "hash": 4000000, "rbtree": 3000000, "pipapo": 1000000})
        self.assertEqual(parsed["net6,port,mac,proto"]["status"], "SKIP")
        self.assertNotIn("set", parsed)
        self.assertEqual(v[("net,port", "drop")], "agree")
        self.assertEqual(v[("net,port", "rbtree")], "DISAGREE")
        self.assertTrue(v[("port,proto", "pipapo")].startswith("not the same cell"), v[("port,proto", "pipapo")])
        self.assertTrue(v[("net6,port,mac,proto", "-")].startswith("not measured"), v[("net6,port,mac,proto", "-")])
        self.assertEqual(parsed["net,mac"]["status"], "not finished")

    def test_paired(self):
        """per-lookup ns paired per repetition; an invalid sample invalidates its cell"""
        cells = Cells([dict(role="r", samples=[
            dict(cell="d", boot="b", rep=1, valid=True, pps=1e6, knob_req="-", knob="-"),
            dict(cell="x", boot="b", rep=1, valid=True, pps=5e5, knob_req="-", knob="-"),
            dict(cell="d", boot="b", rep=2, valid=True, pps=1e6, knob_req="-", knob="-"),
            dict(cell="x", boot="b", rep=2, valid=False, pps=1e5, knob_req="-", knob="-")])])
        self.assertEqual(cells.paired_ns("r", "x", "d", 1), [1000.0])
        self.assertEqual(cells.status("r", "x"), "INVALID 1/2")

    def test_boot_best(self):
        """estimator boot-best: one value per boot, its fastest valid sample; per-lookup ns pairs the bests of a boot; an invalid sample still invalidates its cell"""
        def smp(cell, boot, rep, pps, valid=True):
            return dict(cell=cell, boot=boot, rep=rep, valid=valid, pps=pps, knob_req="-", knob="-")
        boots = [dict(role="r", samples=[smp("d", "b1", 1, 1e6), smp("x", "b1", 1, 4e5),
                                         smp("d", "b1", 2, 8e5), smp("x", "b1", 2, 5e5),
                                         smp("d", "b2", 1, 9e5), smp("x", "b2", 1, 5e5),
                                         smp("d", "b2", 2, 1e6), smp("x", "b2", 2, 9e5, valid=False)])]
        cells = Cells(boots, "boot-best")
        self.assertEqual(cells.pps("r", "d"), [1e6, 1e6])
        self.assertEqual(cells.pps("r", "x"), [5e5, 5e5])
        # b1: the best x (rep 2) less the best d (rep 1), not rep with rep
        self.assertEqual(cells.paired_ns("r", "x", "d", 1), [1000.0, 1000.0])
        self.assertEqual(cells.status("r", "x"), "INVALID 1/4")
        self.assertEqual(Cells(boots).pps("r", "d"), [1e6, 8e5, 9e5, 1e6])
        with self.assertRaises(ValueError):
            Cells(boots, "fastest")
        noise = noise_floor(None, cells)
        self.assertEqual((noise["estimator"], noise["cells"], noise["cv_median"]), ("boot-best", 2, 0.0))
        self.assertIn("of the boots' bests", noise_lines(noise)[0])
        self.assertNotIn("estimator", noise_floor(None, Cells(boots)))

    def test_aa_same(self):
        """A/A pair without a difference: validate state pass, WARNING at the top no, noise floor line"""
        state, head = aa_report(0.0)
        self.assertEqual(state, "pass")
        self.assertFalse(head.startswith("WARNING:") and "A/A" in head.splitlines()[0], head)
        self.assertIn("noise floor: A/A pair", head)
        self.assertIn("over 4 cells", head)

    def test_aa_different(self):
        """A/A pair with a difference: validate state fail, WARNING at the top yes, noise floor line"""
        # timing honesty: the pair's second cell costs 15 % more
        state, head = aa_report(0.15)
        self.assertEqual(state, "fail")
        self.assertTrue(head.startswith("WARNING:"), head)
        self.assertIn("A/A", head.splitlines()[0])
        self.assertIn("noise floor: A/A pair", head)
        self.assertIn("over 4 cells", head)

    def test_aa_not_comparable(self):
        """A/A pair not comparable (one sample per cell): skip, never pass; no warning"""
        one = dict(verdict="not compared (fewer than 2 valid samples)", a=None, b=None)
        self.assertEqual(aa_state(one)[0], "skip")
        self.assertEqual(aa_state(None)[0], "skip")
        lines = noise_lines(noise_floor(one, Cells([])))
        self.assertEqual([ln for ln in lines if ln.startswith("WARNING")], [])
        self.assertIn("no cell has 2 valid samples", lines[0])

    def test_drift(self):
        """drift: a synthetic warm-up of the first sample of each boot shows at position 0 only"""
        # the first sample of every boot 20 % slower
        rng = random.Random(5)
        boots = []
        for bi in range(8):
            ss = []
            for i in range(12):
                cid = ("T1/net_port/drop/n0/k-", "T1/net_port/hash/n1/k-")[i % 2]
                ns = (800.0 if i % 2 == 0 else 900.0) * (1.2 if i == 0 else 1.0) * (1 + rng.gauss(0, 0.01))
                ss.append(dict(cell=cid, rep=i // 2 + 1, valid=True, pps=1e9 / ns, type="net_port",
                               backend=cid.split("/")[2], table="T1", boot="r%d-x" % bi))
            boots.append(dict(dir="r%d-x" % bi, role="x", round=bi + 1, samples=ss, guest={}))
        dt = drift_text("synthetic", {}, boots)
        m0 = re.search(r"^  0 +n= +8 +median +([-+0-9.]+)%", dt, re.M)
        m4 = re.search(r"^  >= 4 +n= +64 +median +([-+0-9.]+)%", dt, re.M)
        self.assertIsNotNone(m0, dt[:900])
        self.assertIsNotNone(m4, dt[:900])
        self.assertTrue(15 < float(m0.group(1)) < 25, m0.group(0))
        self.assertLess(abs(float(m4.group(1))), 2, m4.group(0))


class Runlog(unittest.TestCase):
    """What bench recorded as it ran (runlog): steal per boot, host load,
    the host and the kernels as they were then, not as they are now."""

    @classmethod
    def setUpClass(cls):
        # (not "run": TestCase.run is the method that runs a test)
        cls.recorded = dict(
            settings=dict(mode="quick", tables=["T1"], rounds=1, reps_per_boot=1, duration="0.2", t2_lookups=10,
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
        cls.m = runlog.meta_of(cls.recorded, boots)
        cls.head = header_text(cls.m, [])

    def test_steal(self):
        """runlog: stolen share per boot (none without ticks), median and worst in the header"""
        self.assertEqual(self.m["steal"], {"r1-patched-retpoline": 0.5, "r2-patched-retpoline": 4.0})
        self.assertIn("host steal:  2.2% of the host's CPU time went to other guests during the boots (median; "
                      "max 4.0% in r2-patched-retpoline)", self.head)

    def test_host_and_kernels(self):
        """runlog: the host as recorded, the build its first boot loaded (else the one resolved), missing kernels"""
        m, k = self.m, self.m["kernels"]
        self.assertEqual(m["cpu"], "Recorded CPU @ 1.00GHz")
        self.assertEqual(m["nproc"], 7)
        self.assertEqual(m["reps_total"], 1)
        self.assertEqual((k["patched-retpoline"]["commit"], k["patched-retpoline"]["series"],
                          k["patched-retpoline"]["stamp"]), ("0123456789abcdef", "booted", "s1"))
        self.assertEqual(k["baseline-retpoline"]["commit"], "rebuilt-later")
        self.assertEqual(k["patched-plain"], dict(status=runlog.MISSING, dir="-"))
        self.assertEqual(m["base"], "6.12.999")

    def test_host_load(self):
        """runlog: host load before every boot, a compiler running during one warns"""
        self.assertEqual(self.m["load_during"], ["10:00:00 patched-retpoline load 1.00 0.50 0.25, 0 cc1",
                                                 "10:05:00 baseline-retpoline load 2.00 1.00 0.50, 3 cc1"])
        self.assertTrue(self.m["builds_running"])
        self.assertEqual(self.m["selftest"], self.recorded["selftest"])
        self.assertIn("WARNING:     kernel builds (cc1) were running", self.head)


class Synthetic(unittest.TestCase):
    """The whole report pipeline on synthetic samples with known costs
    (synth.py), reported once; the tests only read what it wrote."""

    @classmethod
    def setUpClass(cls):
        cls.wd = tempfile.mkdtemp(prefix="bench-synth-")
        cls.model = synth_results(cls.wd)
        cls.rc = report(cls.wd, quiet=True)
        with open(os.path.join(cls.wd, "results.json")) as f:
            cls.res = json.load(f)
        v = subprocess.run([sys.executable, BENCH, "validate", cls.wd],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        cls.validate_rc, cls.validate_out = v.returncode, v.stdout

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.wd, ignore_errors=True)

    def test_t1(self):
        """report on synthetic data: T1 ns per lookup recovered"""
        self.assertEqual(self.rc, 0)
        got = self.res["tables"]["T1"]["rows"][0]["kernels"]["patched-retpoline"]["ns"]["pipapo"]["median"]
        want = self.model["T1 pipapo patched"]
        self.assertLess(abs(got - want), 0.05 * want, "%.1f vs %.1f" % (got, want))

    def test_t3(self):
        """report on synthetic data: T3 slope recovered"""
        f = self.res["tables"]["T3"]["fits"]["1"]
        self.assertTrue(f)
        want = self.model["T3 slope k1"]
        self.assertLess(abs(f["slope"] - want), max(f["slope_half"], 1.0),
                        "%.2f +/- %.2f vs %.2f" % (f["slope"], f["slope_half"], want))

    def test_t2(self):
        """report on synthetic data: T2 verdicts by ministat, A/A row present"""
        t2 = self.res["tables"]["T2"]
        self.assertIs(t2["rows"][2]["direct_vs_indirect"].get("proven"), True, t2["rows"][2]["direct_vs_indirect"])
        # ministat's verdict, verbatim: no difference, or the difference
        self.assertRegex(t2["aa"]["verdict"], r"^(No difference proven|Difference)")

    def test_t6(self):
        """report on synthetic data: T6 update cost per knob recovered, direct < indirect by ministat"""
        t6 = self.res["tables"]["T6"]
        c0, c1 = t6["rows"][0]["cost"], t6["rows"][1]["cost"]
        self.assertTrue(c0)
        self.assertTrue(c1)
        self.assertLess(abs(c0["median"] - self.model["T6 cost k0"]), 0.1 * self.model["T6 cost k0"], c0)
        self.assertLess(abs(c1["median"] - self.model["T6 cost k1"]), 0.1 * self.model["T6 cost k1"], c1)
        self.assertIs(t6["cmp_cost"].get("proven"), True, t6["cmp_cost"].get("verdict"))
        self.assertLess(t6["cmp_cost"]["ministat"]["diff"], 0)

    def test_shapes(self):
        """table shapes: each table's shape() accepts its figures of the synthetic run, rejects an empty table"""
        for t in ALL_TABLES:
            with self.subTest(table=t):
                self.assertTrue(TABLES[t].shape(self.res["tables"][t]))
                self.assertFalse(TABLES[t].shape(dict(rows=[], fits={})))

    def test_invalid(self):
        """report on synthetic data: a cell with a bad counter is INVALID"""
        t1inv = self.res["tables"]["T1"]["rows"][1]["kernels"]["baseline-retpoline"]["status"]["hash"]
        self.assertTrue(t1inv.startswith("INVALID"), t1inv)

    def test_report_md(self):
        """report on synthetic data: report.md tables"""
        text = read(os.path.join(self.wd, "report.md"))
        self.assertEqual([t for t in ALL_TABLES if t + ":" not in text], [])
        self.assertIn("INVALID", text)

    def test_svgs(self):
        """report on synthetic data: SVGs"""
        # no gnuplot is a failure, not a skip: make deps installs it
        self.assertTrue(shutil.which("gnuplot"), "gnuplot installed (apt-get install gnuplot-nox)")
        self.assertEqual([t for t in ALL_TABLES if not os.path.isfile(os.path.join(self.wd, t + ".svg"))], [])

    def test_validate(self):
        """validate flags the invalid synthetic sample"""
        self.assertNotEqual(self.validate_rc, 0, self.validate_out[-400:])
        self.assertIn("not ok", self.validate_out)
        self.assertNotIn("INVALID", self.validate_out)

    def test_validate_aa(self):
        """validate's A/A line follows the synthetic A/A verdict"""
        aa = self.res["tables"]["T2"]["aa"]
        aa_line = [ln for ln in self.validate_out.splitlines() if "T2 A/A pair shows no difference" in ln]
        self.assertEqual(len(aa_line), 1, self.validate_out[-400:])
        self.assertTrue(aa_line[0].startswith("ok" if aa.get("proven") is False else "not ok"),
                        (aa_line[0], aa["verdict"]))
        self.assertNotIn("SKIP", aa_line[0])

    def test_report_boot_best(self):
        """report --estimator boot-best: refused with 2 boots per kernel; on 6, recorded, said in the header, T1's per-lookup cost recovered from the boots' bests; --estimator samples undoes it"""
        with self.assertRaises(SystemExit) as e:
            report(self.wd, quiet=True, estimator="boot-best")
        self.assertIn("needs 6 boots per kernel", str(e.exception))
        with self.assertRaises(SystemExit):
            report(self.wd, quiet=True, estimator="fastest")
        wd = tempfile.mkdtemp(prefix="bench-bootbest-")
        try:
            synth_results(wd, rounds=6)
            self.assertEqual(report(wd, quiet=True, estimator="boot-best"), 0)
            with open(os.path.join(wd, "results.json")) as f:
                res = json.load(f)
            self.assertEqual(res["meta"]["estimator"], "boot-best")
            self.assertEqual(res["noise"]["estimator"], "boot-best")
            text = read(os.path.join(wd, "report.md"))
            self.assertIn("estimator:   each boot's fastest sample", text)
            ns = res["tables"]["T1"]["rows"][0]["kernels"]["patched-retpoline"]["ns"]["pipapo"]
            self.assertEqual(ns["n"], 6)
            self.assertTrue(ns["ci"])
            self.assertIn("paired per boot (the two bests of a boot)", text)
            want = self.model["T1 pipapo patched"]
            self.assertLess(abs(ns["median"] - want), 0.1 * want, "%.1f vs %.1f" % (ns["median"], want))
            # recorded: a plain re-render keeps the estimator
            self.assertEqual(report(wd, quiet=True), 0)
            self.assertEqual(read(os.path.join(wd, "report.md")), text)
            self.assertEqual(report(wd, quiet=True, estimator="samples"), 0)
            self.assertEqual(report(wd, quiet=True), 0)
            text = read(os.path.join(wd, "report.md"))
            self.assertNotIn("estimator:", text)
            self.assertIn("paired per repetition", text)
        finally:
            shutil.rmtree(wd, ignore_errors=True)
        self.assertNotIn("estimator:", read(os.path.join(self.wd, "report.md")))

    def test_rerender(self):
        """report: results.json alone re-renders report.md (base script output and T0 included)"""
        # in a copy: the base script's output and T0's figures added
        wd = tempfile.mkdtemp(prefix="bench-rerender-")
        wd2 = tempfile.mkdtemp(prefix="bench-stored-")
        try:
            shutil.copytree(self.wd, wd, dirs_exist_ok=True)
            run = runlog.read_run(wd)
            run["selftest"]["patched-retpoline"] = "ran"
            runlog.save(os.path.join(wd, runlog.RUN), run)
            os.makedirs(os.path.join(wd, "selftest-patched-retpoline"))
            write(os.path.join(wd, "selftest-patched-retpoline", "output.log"), BASE_LOG)
            os.makedirs(os.path.join(wd, "t0"))
            write(os.path.join(wd, "t0", "t0.json"), json.dumps(dict(
                run=dict(counts=[1000, 1000, 3000], rounds=1, reps=1, cpu="synthetic"), rows=[], errors={},
                unstable=["synthetic T0 row"])))
            report(wd, quiet=True)
            # (ministat's appendix names the sample files by their path)
            full = read(os.path.join(wd, "report.md")).replace(wd, "DIR")
            shutil.copy(os.path.join(wd, "results.json"), wd2)
            report(wd2, quiet=True)
            again = read(os.path.join(wd2, "report.md")).replace(wd2, "DIR").replace(wd, "DIR")
        finally:
            shutil.rmtree(wd, ignore_errors=True)
            shutil.rmtree(wd2, ignore_errors=True)
        self.assertEqual(full, again)
        self.assertIn("Base tree nft_concat_range_perf.sh", full)
        self.assertIn("net,port", full)
        self.assertIn("T0: per packet, exact", full)
        self.assertIn("synthetic T0 row", full)


if __name__ == "__main__":
    sys.exit(tap.run_file(__file__))
