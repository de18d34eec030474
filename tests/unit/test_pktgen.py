#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of the guest's pktgen driver (tests/reliability/relab/pktgen.py):
how it takes devices off a pktgen thread.  No kernel: a directory stands
in for /proc/net/pktgen.

python3 tests/unit/test_pktgen.py: TAP (lib/tap.py); -v: unittest's own
runner."""
import os
import runpy
import sys
import tempfile
import unittest
from unittest import mock

runpy.run_path(os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..", "lib", "bootstrap.py"))
import tap  # noqa: E402
from relab import pktgen  # noqa: E402


def thread_file(running="", stopped="", result="NA"):
    return "Running: %s\nStopped: %s\nResult: %s\n" % (running, stopped, result)


class FakeThread:
    """kpktgend_0 as a file: a write of rem_device_all empties its lists
    only after POLLS more reads, as the kernel thread does at a later
    wake-up."""

    def __init__(self, pgdir, devices, polls):
        self.path = os.path.join(pgdir, "kpktgend_0")
        self.devices, self.polls, self.writes = devices, polls, []
        self.show()

    def show(self):
        with open(self.path, "w") as f:
            f.write(thread_file(stopped="".join(d + " " for d in self.devices),
                                result="OK: rem_device_all" if self.writes else "NA"))


class TestRemoveDevices(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        patcher = mock.patch.object(pktgen, "PG", self.tmp.name)
        patcher.start()
        self.addCleanup(patcher.stop)
        self.addCleanup(self.tmp.cleanup)

    def fake(self, devices, polls):
        th = FakeThread(self.tmp.name, devices, polls)
        real_devices = pktgen.thread_devices

        def pgset(dev, cmd):
            th.writes.append((dev, cmd))
            th.show()

        def devices(thread):
            if th.writes and th.polls == 0:
                th.devices = []
                th.show()
            th.polls -= 1
            return real_devices(thread)
        return th, mock.patch.multiple(pktgen, pgset=pgset, thread_devices=devices)

    def test_lists_parsed(self):
        """thread_devices: the running and the stopped devices, in order"""
        with open(os.path.join(self.tmp.name, "kpktgend_0"), "w") as f:
            f.write(thread_file("a0 ", "b0 c0 ", "OK: add_device=c0"))
        self.assertEqual(pktgen.thread_devices("kpktgend_0"), ["a0", "b0", "c0"])

    def test_unreadable_lists_refused(self):
        """thread_devices: a file without the two lists is an error, not an empty thread"""
        with open(os.path.join(self.tmp.name, "kpktgend_0"), "w") as f:
            f.write("Result: NA\n")
        with self.assertRaises(RuntimeError):
            pktgen.thread_devices("kpktgend_0")

    def test_empty_thread_not_asked(self):
        """remove_devices: no rem_device_all on an empty thread (its flag would take the next device added)"""
        th, patch = self.fake([], polls=0)
        with patch:
            pktgen.remove_devices("kpktgend_0")
        self.assertEqual(th.writes, [])

    def test_waits_for_the_thread(self):
        """remove_devices: returns only once the thread's lists are empty"""
        th, patch = self.fake(["rsoak0"], polls=3)
        with patch:
            pktgen.remove_devices("kpktgend_0")
        self.assertEqual(th.writes, [("kpktgend_0", "rem_device_all")])
        self.assertEqual(th.devices, [])
        self.assertLess(th.polls, 0)

    def test_timeout(self):
        """remove_devices: a device that stays is an error naming it"""
        th, patch = self.fake(["rsoak0"], polls=10**9)
        with patch, self.assertRaisesRegex(RuntimeError, "rsoak0 still there"):
            pktgen.remove_devices("kpktgend_0", timeout=0.05)


if __name__ == "__main__":
    sys.exit(tap.run_file(__file__))
