# SPDX-License-Identifier: GPL-2.0
"""What the suite's Python side uses of kernel/: the scripts it runs and
the name of the lab's force-indirect sysctl (owned by
kernel/series/force-indirect-sysctl, which lab patch 0006 registers)."""
import os

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KERNEL_BUILD = os.path.join(TOP, "kernel", "builder", "build")
LAB_RUN = os.path.join(TOP, "kernel", "runner", "lab-run")
KNOB_FILE = os.path.join(TOP, "kernel", "series", "force-indirect-sysctl")


def knob_sysctl():
    with open(KNOB_FILE) as f:
        return f.read().strip()
