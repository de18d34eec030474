# SPDX-License-Identifier: GPL-2.0
"""pktgen on the receive path of a dummy device, for the guest programs
that look up sets while others change them (soak.py, stress.py).

kpktgend_0 is bound to CPU 0: with several vCPUs, a program that pins
itself elsewhere changes sets on another CPU while pktgen looks up."""
import contextlib
import ipaddress
import os
import re
import subprocess
import threading
import time

PG = "/proc/net/pktgen"


def pgset(dev, cmd):
    # pgctrl drops the last byte of a write: it must be the newline
    with open(os.path.join(PG, dev), "w") as f:
        f.write(cmd + "\n")
    # the result line of pktgen may end in bytes of an older, longer one
    with open(os.path.join(PG, dev), "rb") as f:
        res = f.read().decode(errors="replace")
    if "Result: OK" not in res and dev != "pgctrl":
        raise RuntimeError("pktgen %s: %r: %s" % (dev, cmd, res.split("Result:")[-1].strip()))


def thread_devices(thread):
    """The devices of pktgen thread THREAD, running or stopped."""
    with open(os.path.join(PG, thread), "rb") as f:
        text = f.read().decode(errors="replace")
    m = re.search(r"Running: (.*)\nStopped: (.*)\n", text)
    if not m:
        raise RuntimeError("pktgen %s: no device lists in %r" % (thread, text))
    return (m.group(1) + " " + m.group(2)).split()


def remove_devices(thread, timeout=10.0):
    """Take every device off THREAD, and wait until it is done.

    "rem_device_all" only sets a flag, which the thread acts on at its
    next wake-up, after the write has returned: a device added before
    then is removed with the old ones (a soak run lost its device so,
    with ENOENT on /proc/net/pktgen/DEV).  So the flag is set only when
    there is a device to remove, and the list is polled until empty."""
    if not thread_devices(thread):
        return
    pgset(thread, "rem_device_all")
    deadline = time.monotonic() + timeout
    while True:
        left = thread_devices(thread)
        if not left:
            return
        if time.monotonic() > deadline:
            raise RuntimeError("pktgen %s: devices %s still there %gs after rem_device_all" %
                               (thread, " ".join(left), timeout))
        time.sleep(0.02)


@contextlib.contextmanager
def receive_device(dev, netdev_table):
    """A dummy device DEV, up, for pktgen to send into, for the time of the
    with block.  On the way out, even after an error, the netdev table
    NETDEV_TABLE, whose chains hook DEV, is deleted first, then DEV."""
    # one left behind by an interrupted run
    subprocess.run(["ip", "link", "del", dev], stderr=subprocess.DEVNULL)
    try:
        subprocess.run(["ip", "link", "add", dev, "type", "dummy"], check=True)
        subprocess.run(["ip", "link", "set", dev, "up"], check=True)
        yield
    finally:
        subprocess.run(["nft", "delete", "table", "netdev", netdev_table], stderr=subprocess.DEVNULL)
        subprocess.run(["ip", "link", "del", dev], stderr=subprocess.DEVNULL)


def ensure_loaded():
    if not os.path.exists(os.path.join(PG, "pgctrl")):
        subprocess.run(["modprobe", "pktgen"], stderr=subprocess.DEVNULL)


class Pktgen:
    """pktgen on DEV's receive path (xmit_mode netif_receive), UDP, run in
    a thread between start() and stop()."""

    THREAD = "kpktgend_0"

    def __init__(self, dev):
        self.dev = dev
        remove_devices(self.THREAD)
        pgset(self.THREAD, "add_device %s" % dev)
        for c in ("count 0", "pkt_size 60", "delay 0", "burst 8",
                  "xmit_mode netif_receive", "dst_mac 02:00:00:00:00:01"):
            pgset(dev, c)

    def target(self, addr_lo, addr_hi, port_lo, port_hi):
        for c in ("dst_min %s" % ipaddress.IPv4Address(addr_lo),
                  "dst_max %s" % ipaddress.IPv4Address(addr_hi),
                  "udp_dst_min %d" % port_lo, "udp_dst_max %d" % port_hi):
            pgset(self.dev, c)

    def start(self):
        pgset(self.dev, "count 0")
        self.t = threading.Thread(target=pgset, args=("pgctrl", "start"))
        self.t.start()

    def stop(self):
        with open(os.path.join(PG, "pgctrl"), "w") as f:
            f.write("stop\n")
        self.t.join()

    def sent(self):
        with open(os.path.join(PG, self.dev), "rb") as f:
            m = re.search(rb"pkts-sofar: (\d+)", f.read())
        return int(m.group(1))

    def release(self):
        remove_devices(self.THREAD)
