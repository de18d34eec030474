#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of the kernel report scanner (tests/reliability/splats.py):
which reports fail a debug run.  No kernel.

python3 tests/unit/test_splats.py: TAP (lib/tap.py); -v: unittest's own
runner."""
import io
import json
import os
import runpy
import sys
import tempfile
import unittest
from contextlib import redirect_stdout

HERE = os.path.dirname(os.path.abspath(__file__))
runpy.run_path(os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..", "lib", "bootstrap.py"))
import tap  # noqa: E402
import splats  # noqa: E402

RULE = "[   10.1] " + "=" * 66
PKTGEN_RACE = [RULE, "[   10.1] BUG: KCSAN: data-race in pktgen_if_show / pktgen_xmit",
               "[   10.1] ", "[   10.1] read to 0xffff888003c1e0a0 of 8 bytes by task 90 on cpu 1:",
               "[   10.1]  pktgen_if_show+0x3b/0x9c0", RULE]
NFT_RACE = [RULE, "[   11.2] BUG: KCSAN: data-race in __dev_queue_xmit / pktgen_xmit",
            "[   11.2]  nft_do_chain+0x10/0x200", RULE]


def scan(lines, config_lines):
    """splats.py's exit status, TAP output and reports for a console LINES."""
    with tempfile.TemporaryDirectory() as d:
        log, cfg = os.path.join(d, "console.log"), os.path.join(d, "config")
        with open(log, "w") as f:
            f.write("\n".join(lines) + "\n")
        with open(cfg, "w") as f:
            f.write("\n".join(config_lines) + "\n")
        out = io.StringIO()
        with redirect_stdout(out):
            rc = splats.main(["splats.py", "--config", cfg, log, os.path.join(d, "out")])
        with open(os.path.join(d, "out", "splats.json")) as f:
            return rc, out.getvalue(), json.load(f)["reports"]


class Kcsan(unittest.TestCase):
    def test_race_outside_netfilter_is_kept_not_failed(self):
        """a KCSAN race naming no netfilter function: kept as a splat, the run passes"""
        rc, out, reports = scan(["boot"] + PKTGEN_RACE, ["CONFIG_KCSAN=y"])
        self.assertEqual(rc, 0)
        self.assertEqual([(r["checker"], r["netfilter"]) for r in reports], [("KCSAN", False)])
        self.assertIn("ok 1 - kernel: no KCSAN report", out)
        self.assertIn("(kept, not judged): 1", out)

    def test_race_in_netfilter_fails(self):
        """a KCSAN race with a netfilter frame fails the run, even after one outside it"""
        rc, out, reports = scan(PKTGEN_RACE + NFT_RACE, ["CONFIG_KCSAN=y"])
        self.assertEqual(rc, 1)
        self.assertEqual([r["netfilter"] for r in reports], [False, True])
        self.assertIn("not ok 1 - kernel: no KCSAN report in the guest log (1, first: ", out)

    def test_no_kcsan_line_without_the_option(self):
        """a kernel without CONFIG_KCSAN gets no KCSAN line (it could not fail)"""
        rc, out, _ = scan(["boot"], ["CONFIG_KASAN=y"])
        self.assertEqual(rc, 0)
        self.assertNotIn("no KCSAN report", out)
        self.assertIn("ok 1 - kernel: no KASAN report", out)


UML_BOOT_RCU = ["WARNING: suspicious RCU usage", "kernel/rcu/tree.c:3185 Callback enqueued on offline CPU!!",
                "Call Trace:", " [<60290a4d9>] call_rcu+0x9/0x10", " [<6164b833>] kmemleak_free+0x23/0x30",
                " [<600a992e>] os_start_secondary+0x4e/0x90"]

# the first lines of the stall of docs/results/smp-debug-6.12-20261204T182100Z
# (smp-x86_64-6.12-debug/splats/splat-1.txt)
TCG_BOOT_STALL = (["rcu: INFO: rcu_sched detected stalls on CPUs/tasks:",
                   "rcu: \t(detected by 0, t=6502 jiffies, g=621, q=130680 ncpus=2)"] +
                  [" ? __pfx_schedule+0x10/0x10"] * 36 +
                  ["NMI backtrace for cpu 1",
                   "Stopper: multi_cpu_stop+0x0/0x310 <- __stop_cpus.constprop.0+0xc5/0x120",
                   " multi_cpu_stop+0x143/0x310"])

# the first lines of the stall of 2026-12-07's smp-debug run on the 6.12
# KASAN kernel: the same boot point, the grace-period kthread's side
TCG_BOOT_STARVED = ["rcu: INFO: rcu_sched detected stalls on CPUs/tasks:",
                    "rcu: \t(detected by 0, t=6502 jiffies, g=565, q=140795 ncpus=2)",
                    "rcu: All QSes seen, last rcu_sched kthread activity 6502 (4294900381-4294893879), "
                    "jiffies_till_next_fqs=1, root ->qsmask 0x0",
                    "rcu: rcu_sched kthread starved for 6502 jiffies! g565 f0x2 RCU_GP_WAIT_FQS(5) "
                    "->state=0x0 ->cpu=0",
                    "rcu: RCU grace-period kthread stack dump:",
                    " rcu_gp_fqs_loop+0x1c0/0xa00",
                    "CPU: 0 UID: 0 PID: 1 Comm: swapper/0 Not tainted 6.12.117+ #1",
                    " really_probe+0x1d0/0x830"]


class Known(unittest.TestCase):
    def test_known_report_is_todo(self):
        """a report listed in KNOWN: its checker's line is a TODO with the reason, the run passes"""
        rc, out, reports = scan(UML_BOOT_RCU, ["CONFIG_PROVE_RCU=y"])
        self.assertEqual(rc, 0)
        self.assertIn("os_start_secondary", reports[0]["known"])
        self.assertIn("not ok 1 - kernel: no RCU report in the guest log # TODO 7.3 UML SMP boot", out)

    def test_other_report_of_the_checker_still_fails(self):
        """another RCU report beside the known one fails the run"""
        rc, out, _ = scan(UML_BOOT_RCU + ["WARNING: suspicious RCU usage",
                                          "net/netfilter/nf_tables_api.c:123 suspicious rcu_dereference_check()"],
                          ["CONFIG_PROVE_RCU=y"])
        self.assertEqual(rc, 1)
        self.assertIn("not ok 1 - kernel: no RCU report in the guest log (1, first: ", out)
        self.assertNotIn("# TODO", out)


    def test_boot_stall_in_stop_machine_is_todo(self):
        """the TCG boot stall (a CPU in stop_machine()'s multi_cpu_stop) is known"""
        rc, out, reports = scan(TCG_BOOT_STALL, ["CONFIG_PROVE_RCU=y"])
        self.assertEqual(rc, 0)
        self.assertIn("refined TSC", reports[0]["known"])
        self.assertIn("# TODO x86_64 debug kernel under QEMU TCG", out)

    def test_boot_stall_starved_kthread_is_todo(self):
        """the same TCG boot stall reported as the grace-period kthread starved, all QSes seen, is known"""
        rc, out, reports = scan(TCG_BOOT_STARVED, ["CONFIG_PROVE_RCU=y"])
        self.assertEqual(rc, 0)
        self.assertIn("kthread starved", reports[0]["known"])
        self.assertIn("# TODO x86_64 debug kernel under QEMU TCG", out)

    def test_starved_kthread_with_a_cpu_holding_the_grace_period_fails(self):
        """a starved grace-period kthread while a CPU still holds the grace period is not known"""
        held = [line.replace("All QSes seen", "rcu: \t1-...!: (0 ticks this GP)") for line in TCG_BOOT_STARVED]
        rc, out, _ = scan(held, ["CONFIG_PROVE_RCU=y"])
        self.assertEqual(rc, 1)
        self.assertNotIn("# TODO", out)

    def test_boot_stall_patterns_after_boot_still_fail(self):
        """either shape of the boot stall once the kernel started init (a test's stop_machine()) is not known"""
        for name, stall in (("multi_cpu_stop", TCG_BOOT_STALL), ("kthread starved", TCG_BOOT_STARVED)):
            with self.subTest(name):
                rc, out, _ = scan(["Freeing unused kernel image (initmem) memory: 3120K"] + stall,
                                  ["CONFIG_PROVE_RCU=y"])
                self.assertEqual(rc, 1)
                self.assertNotIn("# TODO", out)

    def test_known_pattern_naming_netfilter_still_fails(self):
        """a report that matches KNOWN but names a netfilter function is not known"""
        rc, out, _ = scan(TCG_BOOT_STALL + [" nft_rbtree_commit+0x1/0x2"], ["CONFIG_PROVE_RCU=y"])
        self.assertEqual(rc, 1)
        self.assertNotIn("# TODO", out)


class Kasan(unittest.TestCase):
    def test_any_kasan_report_fails(self):
        """a KASAN report fails the run wherever it is"""
        rc, _, reports = scan(["BUG: KASAN: slab-use-after-free in pktgen_xmit+0x1/0x2"],
                              ["CONFIG_KASAN=y"])
        self.assertEqual(rc, 1)
        self.assertEqual(reports[0]["checker"], "KASAN")


if __name__ == "__main__":
    sys.exit(tap.run_file(__file__))
