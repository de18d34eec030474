#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""ncr.py - plans, statistics and reports of the nftlab performance suite.

Theory of operation
-------------------
The suite measures the cost of nf_tables set lookups the way the base tree's
nft_concat_range.sh performance group does (Brivio's method, seed 002):
pktgen injects one packet over and over into the receive path of a dummy
device (xmit_mode netif_receive) and a netdev ingress chain drops it.  The
packet rate with a rule that looks the packet up in a set, compared with the
rate of a rule that only drops, gives the cost of one lookup:

    ns per lookup = 1e9 / rate(lookup rule) - 1e9 / rate(drop rule)

One lookup is a few percent of the per-packet cost and pktgen rates in the
lab move 10-20 % from run to run, so:

  * every cell is measured many times, interleaved with the cells it is
    compared with (shuffled order per repetition, knob toggles inside one
    boot) and, where two kernels are compared, in alternating boots;
  * the lookup cost is taken per repetition against the drop rate measured
    next to it (paired), then summarised by the median with a
    distribution-free 95 % confidence interval (order statistics);
  * A/B verdicts come from Debian's ministat (Student's t, 95 %), quoted
    verbatim; an A/A pair (same kernel, same configuration) shows the noise
    floor;
  * small costs are amplified: N identical lookup rules per packet, the
    per-lookup cost being the least-squares slope of ns/packet over N.

Every sample carries pktgen's own packet count and the rule counter; a
sample where they differ is invalid and makes its whole cell invalid.

This program never runs inside the guest: `plan` writes plain files (plan,
nft scripts) that guest/run-plan executes with nothing but bash, nft, ip and
/proc/net/pktgen.  Subcommands: plan, roles, report, validate, drift, selftest.
"""

import argparse
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

import basecmp
import nftlab_load
from stats import (CONFIDENCE, linfit, mean, mean_ci, median, median_ci, parse_ministat_difference,
                   pooled_t, prediction_interval, run_ministat, stdev, t_two_sided)

SCHEMA = "nftlab-bench/1"
TABLE = "nftbench"           # nft table used by the guest (netdev family)
CHAIN = "in"
EGRESS_CHAIN = "out"
DEFAULT_T2_LOOKUPS = 10      # amplification for the per-lookup tables
T3_LOOKUPS = (0, 1, 10, 50, 100)
BACKENDS = ("hash", "rbtree", "pipapo")

# --------------------------------------------------------------------------
# Set types: the rows of seed 002 (Brivio's table), defined like the TYPE_
# variables of nft_concat_range.sh (perf_spec, perf_dst, perf_entries).
# --------------------------------------------------------------------------
TYPES = {
    "net_port": dict(display="net,port", type_spec="ipv4_addr . inet_service",
                     spec="ip daddr . udp dport", fields=("addr4", "port"),
                     entries=1000, ipver=4, start=1),
    "port_net": dict(display="port,net", type_spec="inet_service . ipv4_addr",
                     spec="udp dport . ip daddr", fields=("port", "addr4"),
                     entries=100, ipver=4, start=1),
    "net6_port": dict(display="net6,port", type_spec="ipv6_addr . inet_service",
                      spec="ip6 daddr . udp dport", fields=("addr6", "port"),
                      entries=1000, ipver=6, start=10),
    "port_proto": dict(display="port,proto", type_spec="inet_service . inet_proto",
                       spec="udp dport . ip protocol", fields=("port", "proto"),
                       entries=10000, ipver=4, start=1, selftest_spec="udp dport . meta l4proto"),
    "net6_port_mac": dict(display="net6,port,mac",
                          type_spec="ipv6_addr . inet_service . ether_addr",
                          spec="ip6 daddr . udp dport . ether daddr",
                          fields=("addr6", "port", "mac"), entries=10, ipver=6, start=10),
    "net6_port_mac_proto": dict(display="net6,port,mac,proto",
                                type_spec="ipv6_addr . inet_service . ether_addr . inet_proto",
                                spec="ip6 daddr . udp dport . ether daddr . ip6 nexthdr",
                                fields=("addr6", "port", "mac", "proto"), entries=1000,
                                ipver=6, start=10,
                                selftest_spec="ip6 daddr . udp dport . ether daddr . meta l4proto"),
    "net_mac": dict(display="net,mac", type_spec="ipv4_addr . ether_addr",
                    spec="ip daddr . ether daddr", fields=("addr4", "mac"),
                    entries=1000, ipver=4, start=1),
}
# The lab kernels (UML, 6.12.117, baseline and patched) reject `meta l4proto`
# as a field of a lookup in an interval (pipapo) concatenation with
# EOPNOTSUPP, while the hash set accepts it.  The two rows that use it match
# the protocol from the IP header instead (the same value for these packets,
# which carry no extension headers); the report says so.
SPEC_NOTE = ("port,proto and net6,port,mac,proto match the protocol with `ip protocol` / "
             "`ip6 nexthdr` instead of the selftest's `meta l4proto`: the lab kernels reject "
             "`meta l4proto` in pipapo lookups (EOPNOTSUPP).")
TYPE_ORDER = ("net_port", "port_net", "net6_port", "port_proto", "net6_port_mac",
              "net6_port_mac_proto", "net_mac")


def fmt_addr4(v):
    a = v + (10 << 24) + 5            # 10.0.0.5 + v, as the selftest does
    return "%d.%d.%d.%d" % (a >> 24, (a >> 16) & 255, (a >> 8) & 255, a & 255)


def fmt_addr6(v):
    return "2001:db8::%04x:%04x" % (v // 65536, v % 65536)


def fmt_mac(v):
    return "00:01:%02x:%02x:%02x:%02x" % ((v >> 24) & 255, (v >> 16) & 255,
                                          (v >> 8) & 255, v & 255)


def fmt_port(v):
    return "%d" % (v % 65534 + 1)


def fmt_proto(_v):
    return "udp"                       # test packets are UDP (v4 and v6)


FORMAT = {"addr4": fmt_addr4, "addr6": fmt_addr6, "mac": fmt_mac,
          "port": fmt_port, "proto": fmt_proto}


def entry_bounds(tdef, entries=None):
    """(start, end) of every entry, then the value the test packet carries.

    The selftest's generator: entries + 1 ranges of size one, [s, s + 1],
    each starting two after the previous one, never crossing a port wrap
    (65534); the packet hits the start of the last range."""
    n = tdef["entries"] if entries is None else entries
    start, size = tdef["start"], 1
    out = []
    end = start
    for _ in range(n + 1):
        end = start + size
        if end // 65534 > start // 65534:
            start, end = end, end + 1
        elif start == end:
            end = start + 1
        out.append((start, end))
        start = end + size
    return out, end - 1


def element(tdef, which, s, e):
    parts = []
    for i, f in enumerate(tdef["fields"]):
        fs, fe = FORMAT[f](s), FORMAT[f](e)
        if which == "norange" or f == "proto":
            parts.append(fs)
        else:
            parts.append("%s-%s" % (fs, fe))
        if which == "noconcat":
            break
        del i
    return " . ".join(parts)


def first_type(tdef):
    return tdef["type_spec"].split(" . ")[0]


def first_spec(tdef):
    return tdef["spec"].split(" . ")[0]


def packet(tdef, entries=None):
    """Header fields of the test packet (pktgen parameters)."""
    _, v = entry_bounds(tdef, entries)
    p = {"ipver": tdef["ipver"], "mac": fmt_mac(v), "port": fmt_port(v),
         "size": 80 if tdef["ipver"] == 4 else 100}
    p["addr"] = fmt_addr6(v) if tdef["ipver"] == 6 else fmt_addr4(v)
    return p


def set_defs(tdef, entries=None):
    """The three sets of the selftest, in creation order:
    [(name, key type, interval, [elements in nft syntax])]."""
    bounds, _ = entry_bounds(tdef, entries)
    out = []
    for which, key, interval in (("test", tdef["type_spec"], True),
                                 ("norange", tdef["type_spec"], False),
                                 ("noconcat", first_type(tdef), True)):
        elems = [element(tdef, which, s, e) for s, e in bounds]
        if which == "noconcat" and tdef["fields"][0] == "proto":
            elems = sorted(set(elems))
        out.append((which, key, interval, elems))
    return out


def gen_sets(sets, dev, chunk=500):
    """nft script: table with the SETS of set_defs() and an empty ingress
    chain on DEV.  Deleting a previous table first keeps it atomic."""
    out = ["add table netdev %s" % TABLE, "delete table netdev %s" % TABLE,
           "table netdev %s {" % TABLE,
           "\tcounter test { }"]
    for name, key, interval, _ in sets:
        out.append("\tset %s { type %s;%s }" % (name, key, " flags interval;" if interval else ""))
    out += ["\tchain %s { type filter hook ingress device \"%s\" priority 0; }" % (CHAIN, dev),
            "}"]
    for name, _, _, elems in sets:
        for i in range(0, len(elems), chunk):
            out.append("add element netdev %s %s { %s }" % (TABLE, name, ", ".join(elems[i:i + chunk])))
    return "\n".join(out) + "\n"


def lookup_expr(tdef, backend):
    if backend == "hash":
        return "%s @norange" % tdef["spec"]
    if backend == "rbtree":
        return "%s @noconcat" % first_spec(tdef)
    if backend == "pipapo":
        return "%s @test" % tdef["spec"]
    raise ValueError(backend)


def gen_rules(tdef, backend, nlookups):
    """nft script for one ingress cell: NLOOKUPS rules that look the packet
    up (all match), the last one counting and dropping; 0 = drop only."""
    out = ["flush chain netdev %s %s" % (TABLE, CHAIN)]
    if backend == "drop" or nlookups == 0:
        out.append("add rule netdev %s %s counter name \"test\" drop" % (TABLE, CHAIN))
    else:
        expr = lookup_expr(tdef, backend)
        for _ in range(nlookups - 1):
            out.append("add rule netdev %s %s %s" % (TABLE, CHAIN, expr))
        out.append("add rule netdev %s %s %s counter name \"test\" drop" % (TABLE, CHAIN, expr))
    return "\n".join(out) + "\n"


# T6: the dynset update path (patch 3).  One rhash set that the rule adds
# the packet's source address to (or refreshes it in), pktgen cycling over
# DYNSET_ADDRS source addresses so that the set holds that many elements
# and every packet updates one of them.  burst 1: with a burst, pktgen
# sends the same skb again and the source address would not change.
DYNSET_SET = "dyn"
DYNSET_ADDRS = 1000
DYNSET_SRC = ("10.1.0.0", "10.1.3.231")          # 1000 addresses
DYNSET_PGOPTS = "src_min %s;src_max %s;burst 1" % DYNSET_SRC


def gen_dynset_sets(dev):
    """nft script: the T6 table, an empty rhash dynamic set and the chain."""
    return "\n".join([
        "add table netdev %s" % TABLE, "delete table netdev %s" % TABLE,
        "table netdev %s {" % TABLE, "\tcounter test { }",
        "\tset %s { type ipv4_addr; size 65536; flags dynamic,timeout; timeout 1h; }" % DYNSET_SET,
        "\tchain %s { type filter hook ingress device \"%s\" priority 0; }" % (CHAIN, dev),
        "}"]) + "\n"


def gen_dynset_rules(backend):
    """nft script of a T6 cell: drop only, or update @dyn then drop."""
    out = ["flush chain netdev %s %s" % (TABLE, CHAIN)]
    upd = "update @%s { ip saddr } " % DYNSET_SET if backend == "update" else ""
    out.append("add rule netdev %s %s %scounter name \"test\" drop" % (TABLE, CHAIN, upd))
    return "\n".join(out) + "\n"


def gen_egress(dev, hook):
    """nft script for one egress cell: no table at all (no hook registered)
    or a netdev egress chain with one counting rule that accepts."""
    out = ["add table netdev %s" % TABLE, "delete table netdev %s" % TABLE]
    if hook:
        out += ["table netdev %s {" % TABLE, "\tcounter test { }",
                "\tchain %s { type filter hook egress device \"%s\" priority 0; counter name \"test\" accept; }"
                % (EGRESS_CHAIN, dev), "}"]
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------
# Plans: which cells a boot of a given kernel runs.
# --------------------------------------------------------------------------
# kernel roles -> (variant, flavor)
ROLES = {
    "baseline-retpoline": ("baseline", "retpoline"),
    "patched-retpoline": ("patched", "retpoline"),
    "patched-plain": ("patched", "plain"),
    "baseline-eibrs": ("baseline", "eibrs"),
    "patched-eibrs": ("patched", "eibrs"),
}
TABLE_ROLES = {
    "T1": ("baseline-retpoline", "patched-retpoline"),
    "T2": ("patched-retpoline", "patched-plain"),
    "T3": ("patched-retpoline",),
    "T4": ("baseline-retpoline", "patched-retpoline"),
    "T5": ("baseline-eibrs", "patched-eibrs"),
    "T6": ("patched-retpoline",),
}
ALL_TABLES = ("T1", "T2", "T3", "T4", "T5", "T6")


def groups_for(role, tables, t2n, every=False, types=TYPE_ORDER):
    """[(group, [cell dicts])] for one kernel role.  knob '-' = leave the
    kernel as booted; '0'/'1' = set the force-indirect knob.  EVERY (quick
    mode): every scenario of every table on this one kernel."""
    groups = []

    def runs(table):
        return table in tables and (every or role in TABLE_ROLES[table])

    def ingress(gid, table, tname, cells):
        groups.append((dict(gid=gid, table=table, type=tname, mode="ingress"), cells))

    def cell(table, tname, backend, n, knob, tag=""):
        cid = "%s/%s/%s/n%d/k%s%s" % (table, tname, backend, n, knob, tag)
        return dict(cell=cid, table=table, type=tname, backend=backend, n=n, knob=knob, tag=tag)

    if runs("T1"):
        for t in types:
            ingress("T1-" + t, "T1", t,
                    [cell("T1", t, "drop", 0, "-")] +
                    [cell("T1", t, b, 1, "-") for b in BACKENDS])
    if runs("T2"):
        knobs = ("0", "1") if role == "patched-retpoline" else ("-",)
        if every:
            knobs = ("0", "1")
        cells = []
        for k in knobs:
            cells.append(cell("T2", "net_port", "drop", 0, k))
            cells += [cell("T2", "net_port", b, t2n, k) for b in BACKENDS]
        if knobs == ("0", "1"):
            # A/A: a second, identical series interleaved with the first.
            cells.append(cell("T2", "net_port", "drop", 0, "0", "-aa"))
            cells.append(cell("T2", "net_port", "pipapo", t2n, "0", "-aa"))
        ingress("T2-net_port", "T2", "net_port", cells)
    if runs("T3"):
        ingress("T3-net_port", "T3", "net_port",
                [cell("T3", "net_port", "pipapo", n, k) for k in ("0", "1") for n in T3_LOOKUPS])
    if runs("T4"):
        groups.append((dict(gid="T4-egress", table="T4", type="net_port", mode="egress"),
                       [cell("T4", "net_port", "nohook", 0, "-"),
                        cell("T4", "net_port", "egress", 1, "-")]))
    if runs("T5"):
        ingress("T5-net_port", "T5", "net_port",
                [cell("T5", "net_port", "drop", 0, "-")] +
                [cell("T5", "net_port", b, t2n, "-") for b in BACKENDS])
    if runs("T6"):
        # like T2: knob 0 and 1 interleaved in one boot, each with its own
        # drop cell so that the update cost is paired with the same knob
        ingress("T6-dynset", "T6", "dynset",
                [cell("T6", "dynset", b, n, k) for k in ("0", "1") for b, n in (("drop", 0), ("update", 1))])
    return groups


def write_plan(args):
    tables = parse_tables(args.tables)
    rng = random.Random(args.seed)
    os.makedirs(args.out, exist_ok=True)
    lines = ["# nftlab bench plan: role %s tables %s reps %d duration %s"
             % (args.role, ",".join(tables), args.reps, args.duration)]
    ncells = 0
    for g, cells in groups_for(args.role, tables, args.t2_lookups, args.every):
        dynset = g["type"] == "dynset"
        # T6 sends the net,port test packet (its destination is not looked at)
        tdef = TYPES["net_port" if dynset else g["type"]]
        p = packet(tdef)
        setsf = "-"
        if dynset:
            # nft -f only: nftlab's loader is about the interval sets of T1-T5
            setsf = "sets-dynset.nft"
            write(os.path.join(args.out, setsf), gen_dynset_sets(args.dev))
        elif g["mode"] == "ingress":
            setsf = "sets-%s.nft" % g["type"]
            sets = set_defs(tdef)
            write(os.path.join(args.out, setsf), gen_sets(sets, args.dev))
            cmds, files = nftlab_load.nftlab_commands(TABLE, CHAIN, args.dev, sets, "sets-%s" % g["type"])
            write(os.path.join(args.out, "sets-%s.nftlab" % g["type"]), cmds)
            for name, text in files.items():
                write(os.path.join(args.out, name), text)
        lines.append("group\t%s\t%s\t%s\t%d\t%s\t%s\t%s\t%d\t%s\t%s" % (
            g["gid"], g["mode"], g["type"], p["ipver"], p["addr"], p["port"], p["mac"],
            p["size"], setsf, DYNSET_PGOPTS if dynset else "-"))
        for c in cells:
            if dynset:
                rf = "rules-dynset-%s.nft" % c["backend"]
                write(os.path.join(args.out, rf), gen_dynset_rules(c["backend"]))
            elif c["backend"] in ("nohook", "egress"):
                rf = "rules-egress-%s.nft" % c["backend"]
                write(os.path.join(args.out, rf), gen_egress(args.dev, c["backend"] == "egress"))
            else:
                rf = "rules-%s-%s-n%d.nft" % (g["type"], c["backend"], c["n"])
                write(os.path.join(args.out, rf), gen_rules(tdef, c["backend"], c["n"]))
            c["rules"] = rf
        for rep in range(1, args.reps + 1):
            order = list(cells)
            rng.shuffle(order)
            for c in order:
                lines.append("cell\t%s\t%s\t%s\t%s\t%d" % (g["gid"], c["cell"], c["knob"], c["rules"], rep))
                ncells += 1
    write(os.path.join(args.out, "plan.tsv"), "\n".join(lines) + "\n")
    print(ncells)


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def parse_tables(s):
    tables = [t.strip().upper() for t in s.split(",") if t.strip()]
    for t in tables:
        if t not in ALL_TABLES:
            raise SystemExit("ncr.py: unknown table %s (T1..T6)" % t)
    return tables


def roles_for(tables):
    out = []
    for t in tables:
        for r in TABLE_ROLES[t]:
            if r not in out:
                out.append(r)
    return out


# --------------------------------------------------------------------------
# Reading raw results
# --------------------------------------------------------------------------
SAMPLE_FIELDS = ("cell", "rep", "knob_req", "knob", "usec", "sofar", "errors",
                 "counter", "tx", "pps", "valid", "reason")


def read_boots(resdir):
    """Every boot directory under RESDIR/raw: its meta and its samples."""
    boots = []
    raw = os.path.join(resdir, "raw")
    if not os.path.isdir(raw):
        return boots
    for name in sorted(os.listdir(raw)):
        d = os.path.join(raw, name)
        meta_path = os.path.join(d, "boot.json")
        if not os.path.isfile(meta_path):
            continue
        with open(meta_path) as f:
            meta = json.load(f)
        meta["dir"] = name
        meta["samples"] = []
        meta["guest"] = {}
        gi = os.path.join(d, "out", "guest-info.txt")
        if os.path.isfile(gi):
            for line in open(gi):
                if "=" in line:
                    k, v = line.rstrip("\n").split("=", 1)
                    meta["guest"][k] = v
        meta["loads"] = nftlab_load.read_loads(os.path.join(d, "out", "loads.tsv"), name)
        sp = os.path.join(d, "out", "samples.tsv")
        if os.path.isfile(sp):
            for line in open(sp):
                if line.startswith("#") or not line.strip():
                    continue
                parts = line.rstrip("\n").split("\t")
                if len(parts) < len(SAMPLE_FIELDS):
                    parts += [""] * (len(SAMPLE_FIELDS) - len(parts))
                s = dict(zip(SAMPLE_FIELDS, parts))
                for k in ("rep", "usec", "sofar", "errors", "counter", "tx"):
                    try:
                        s[k] = int(s[k])
                    except ValueError:
                        s[k] = None
                try:
                    s["pps"] = float(s["pps"])
                except ValueError:
                    s["pps"] = None
                s["valid"] = s["valid"] == "1"
                s["boot"] = name
                s["role"] = meta.get("role")
                c = s["cell"].split("/")
                s["table"], s["type"], s["backend"] = c[0], c[1], c[2]
                s["n"] = int(c[3][1:])
                s["tag"] = "-aa" if c[4].endswith("-aa") else ""
                meta["samples"].append(s)
        boots.append(meta)
    return boots


def read_stored(resdir):
    """(meta, boots) from RESDIR/results.json, for a results directory kept
    without its raw/ tree (docs/results/ stores only results.json): the
    samples are listed there boot by boot in the order they ran, so the
    report (and `drift`) can be recomputed from it.  None if absent."""
    path = os.path.join(resdir, "results.json")
    if not os.path.isfile(path):
        return None
    with open(path) as f:
        res = json.load(f)
    boots = []
    by = {}
    for b in res.get("boots", []):
        b = dict(b, samples=[], loads=[])
        by[b["dir"]] = b
        boots.append(b)
    for s in res.get("samples", []):
        if s["boot"] in by:
            by[s["boot"]]["samples"].append(s)
    for r in res.get("load_samples", []):
        if r["boot"] in by:
            by[r["boot"]]["loads"].append(r)
    return res.get("meta", {}), boots


def load_run(resdir):
    """(meta, boots, source) of a results directory: its raw/ tree when
    present, else what its results.json stored."""
    boots = read_boots(resdir)
    if boots or not os.path.isfile(os.path.join(resdir, "results.json")):
        return collect_meta(resdir), boots, "raw"
    meta, boots = read_stored(resdir)
    return meta, boots, "results.json"


# --------------------------------------------------------------------------
# Tables
# --------------------------------------------------------------------------
class Cells:
    """Samples grouped by (role, cell id)."""

    def __init__(self, boots):
        self.by = {}
        self.knob_missing = set()
        for b in boots:
            for s in b["samples"]:
                self.by.setdefault((b["role"], s["cell"]), []).append(s)
                if s["knob_req"] in ("0", "1") and s["knob"] == "missing":
                    self.knob_missing.add(b["role"])

    def get(self, role, cid):
        return self.by.get((role, cid), [])

    def status(self, role, cid):
        ss = self.get(role, cid)
        if not ss:
            return "not measured"
        bad = [s for s in ss if not s["valid"]]
        if bad:
            return "INVALID %d/%d" % (len(bad), len(ss))
        return "ok"

    def pps(self, role, cid):
        return [s["pps"] for s in self.get(role, cid) if s["valid"]]

    def paired_ns(self, role, cid, drop_cid, n):
        """ns per lookup, paired per (boot, rep) with the drop cell."""
        drop = {(s["boot"], s["rep"]): s for s in self.get(role, drop_cid)}
        out = []
        for s in self.get(role, cid):
            d = drop.get((s["boot"], s["rep"]))
            if d is None or not s["valid"] or not d["valid"]:
                continue
            out.append((1e9 / s["pps"] - 1e9 / d["pps"]) / max(n, 1))
        return out


def summary(xs):
    if not xs:
        return None
    ci = median_ci(xs)
    return dict(n=len(xs), median=median(xs), ci=list(ci) if ci else None,
                min=min(xs), max=max(xs), mean=mean(xs),
                mean_ci=mean_ci(xs))


def fmt_num(v, nd=3):
    return "-" if v is None else ("%.*f" % (nd, v))


def fmt_summary(sm, nd=3, scale=1.0):
    if sm is None:
        return "-"
    m = sm["median"] * scale
    if sm["ci"]:
        return "%.*f [%.*f,%.*f]" % (nd, m, nd, sm["ci"][0] * scale, nd, sm["ci"][1] * scale)
    return "%.*f (n=%d, no CI)" % (nd, m, sm["n"])


class Report:
    def __init__(self, resdir, boots, meta):
        self.resdir = resdir
        self.boots = boots
        self.meta = meta
        self.cells = Cells(boots)
        self.tables = {}
        self.ministat = []         # (title, full output)
        self.t2n = meta.get("t2_lookups", DEFAULT_T2_LOOKUPS)
        self.noise = None

    # -- helpers ----------------------------------------------------------
    def status_note(self, role, cid):
        st = self.cells.status(role, cid)
        return "" if st == "ok" else st

    def compare(self, title, a, b, name_a, name_b):
        """ministat on a vs b: dict with verdict line(s) and our own t."""
        res = dict(title=title, a=name_a, b=name_b, na=len(a), nb=len(b))
        if len(a) < 2 or len(b) < 2:
            res["verdict"] = "not compared (fewer than 2 valid samples)"
            return res
        wd = os.path.join(self.resdir, "ministat")
        safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", title)
        verdict, out = run_ministat(a, b, safe + ".a-" + name_a, safe + ".b-" + name_b, wd)
        ours = pooled_t(a, b)
        res["ours"] = ours
        if verdict is None:
            res["verdict"] = "ministat failed: " + out.strip().splitlines()[-1] if out.strip() else "ministat failed"
            return res
        self.ministat.append((title, out))
        if verdict[0].startswith("No difference"):
            res["verdict"] = verdict[0]
            res["proven"] = False
        else:
            d = parse_ministat_difference(verdict)
            res["proven"] = True
            res["ministat"] = dict(diff=d[0], half=d[1], rel=d[2], rel_half=d[3])
            res["verdict"] = "%s: %+.2f%% +/- %.2f%%" % (verdict[0], d[2], d[3])
        return res

    # -- T1 ---------------------------------------------------------------
    def t1(self):
        base, pat = TABLE_ROLES["T1"]
        rows = []
        for t in TYPE_ORDER:
            row = dict(type=t, display=TYPES[t]["display"], entries=TYPES[t]["entries"], kernels={}, verdicts={})
            drop = "T1/%s/drop/n0/k-" % t
            for role in (base, pat):
                k = dict(status={}, mpps={}, ns={})
                for b in ("drop",) + BACKENDS:
                    cid = drop if b == "drop" else "T1/%s/%s/n1/k-" % (t, b)
                    k["status"][b] = self.cells.status(role, cid)
                    sm = summary([p / 1e6 for p in self.cells.pps(role, cid)]) if k["status"][b] == "ok" else None
                    k["mpps"][b] = sm
                    if b != "drop":
                        ok = k["status"][b] == "ok" and k["status"]["drop"] == "ok"
                        k["ns"][b] = summary(self.cells.paired_ns(role, cid, drop, 1)) if ok else None
                row["kernels"][role] = k
            for b in BACKENDS:
                kb, kp = row["kernels"][base], row["kernels"][pat]
                if kb["ns"].get(b) and kp["ns"].get(b):
                    cid = "T1/%s/%s/n1/k-" % (t, b)
                    a = self.cells.paired_ns(base, cid, drop, 1)
                    bb = self.cells.paired_ns(pat, cid, drop, 1)
                    row["verdicts"][b] = self.compare("T1 %s %s ns-per-lookup" % (t, b), a, bb, "baseline", "patched")
                else:
                    row["verdicts"][b] = dict(verdict="not compared: %s" % ("; ".join(
                        "%s %s" % (r, st) for r, st in ((base, kb["status"][b]), (pat, kp["status"][b]))
                        if st != "ok") or "drop cell not valid"))
            rows.append(row)
        # The drop cells of all groups together: the hook entry and one
        # rule without a lookup, the part of the path the lookups share.
        drops = {}
        for role in (base, pat):
            cids = ["T1/%s/drop/n0/k-" % t for t in TYPE_ORDER]
            if all(self.cells.status(role, c) == "ok" for c in cids):
                drops[role] = [1e9 / p for c in cids for p in self.cells.pps(role, c)]
        if len(drops) == 2:
            drop_all = dict(n=len(drops[base]), baseline=summary(drops[base]), patched=summary(drops[pat]),
                            verdict=self.compare("T1 netdev drop ns-per-packet all types",
                                                 drops[base], drops[pat], "baseline", "patched"))
        else:
            drop_all = None
        return dict(title="T1: set lookups, baseline vs patched (retpoline flavor)", rows=rows,
                    roles=[base, pat], drop_all=drop_all)

    # -- T2 ---------------------------------------------------------------
    def t2(self):
        pat, plain = TABLE_ROLES["T2"]
        n = self.t2n
        knob_missing = pat in self.cells.knob_missing
        rows = []
        for b in BACKENDS:
            row = dict(backend=b, n=n, cols={}, status={})
            for col, role, k in (("direct", pat, "0"), ("indirect", pat, "1"), ("plain", plain, "-")):
                cid = "T2/net_port/%s/n%d/k%s" % (b, n, k)
                drop = "T2/net_port/drop/n0/k%s" % k
                st = self.cells.status(role, cid)
                std = self.cells.status(role, drop)
                if st == "ok" and std != "ok":
                    st = "drop cell " + std
                if k in ("0", "1") and knob_missing and st == "ok":
                    st = "knob missing"
                row["status"][col] = st
                row["cols"][col] = summary(self.cells.paired_ns(role, cid, drop, n)) if st == "ok" else None
                row.setdefault("samples", {})[col] = self.cells.paired_ns(role, cid, drop, n) if st == "ok" else []
            d, p, i = row["cols"]["direct"], row["cols"]["plain"], row["cols"]["indirect"]
            row["ratio_direct_plain"] = d["median"] / p["median"] if d and p and p["median"] > 0 else None
            row["goal_met"] = None if row["ratio_direct_plain"] is None else row["ratio_direct_plain"] <= 1.05
            row["direct_vs_plain"] = self.compare("T2 %s direct vs plain" % b, row["samples"]["plain"],
                                                  row["samples"]["direct"], "plain", "direct") if d and p else \
                dict(verdict="not compared (%s)" % ", ".join("%s: %s" % (c, row["status"][c]) for c in ("direct", "plain") if row["status"][c] != "ok"))
            row["direct_vs_indirect"] = self.compare("T2 %s direct vs indirect" % b, row["samples"]["indirect"],
                                                     row["samples"]["direct"], "indirect", "direct") if d and i else \
                dict(verdict="not compared (%s)" % ", ".join("%s: %s" % (c, row["status"][c]) for c in ("direct", "indirect") if row["status"][c] != "ok"))
            del row["samples"]
            rows.append(row)
        # A/A noise floor: pipapo knob 0, two interleaved identical series.
        a = self.cells.paired_ns(pat, "T2/net_port/pipapo/n%d/k0" % n, "T2/net_port/drop/n0/k0", n)
        aa = self.cells.paired_ns(pat, "T2/net_port/pipapo/n%d/k0-aa" % n, "T2/net_port/drop/n0/k0-aa", n)
        st = [self.cells.status(pat, c) for c in ("T2/net_port/pipapo/n%d/k0" % n, "T2/net_port/pipapo/n%d/k0-aa" % n,
                                                  "T2/net_port/drop/n0/k0", "T2/net_port/drop/n0/k0-aa")]
        if all(s == "ok" for s in st):
            aarow = self.compare("T2 A-A pipapo knob0 vs knob0", a, aa, "A", "A2")
            aarow["a"], aarow["b"] = summary(a), summary(aa)
        else:
            aarow = dict(verdict="not measured (%s)" % ", ".join(sorted(set(st))))
        return dict(title="T2: direct vs indirect calls, ns per lookup (%d lookup rules per packet, net,port 1000)" % n,
                    rows=rows, aa=aarow, knob_missing=knob_missing, roles=[pat, plain])

    # -- T3 ---------------------------------------------------------------
    def t3(self):
        pat = TABLE_ROLES["T3"][0]
        knob_missing = pat in self.cells.knob_missing
        out = dict(title="T3: 1 vs 100 lookup rules per packet (pipapo net,port 1000, patched retpoline kernel)",
                   knob_missing=knob_missing, fits={}, points={}, status={}, rows=[])
        for k in ("0", "1"):
            xs, ys = [], []
            st = []
            for n in T3_LOOKUPS:
                cid = "T3/net_port/pipapo/n%d/k%s" % (n, k)
                st.append(self.cells.status(pat, cid))
                for s in self.cells.get(pat, cid):
                    if s["valid"]:
                        xs.append(n)
                        ys.append(1e9 / s["pps"])
            bad = [s for s in st if s != "ok"]
            out["status"][k] = "ok" if not bad else ", ".join(sorted(set(bad)))
            out["points"][k] = list(zip(xs, ys))
            out["fits"][k] = linfit(xs, ys) if not bad else None
        for n in (1, 100):
            r = dict(n=n)
            vals = {}
            for k in ("0", "1"):
                cid = "T3/net_port/pipapo/n%d/k%s" % (n, k)
                ok = self.cells.status(pat, cid) == "ok"
                vals[k] = [p / 1e6 for p in self.cells.pps(pat, cid)] if ok else []
                r["k" + k] = summary(vals[k]) if ok else None
                r["status_k" + k] = self.cells.status(pat, cid)
            if r["k0"] and r["k1"]:
                r["diff_pct"] = (r["k0"]["median"] / r["k1"]["median"] - 1) * 100
                r["cmp"] = self.compare("T3 %d rules Mpps direct vs indirect" % n, vals["1"], vals["0"], "indirect", "direct")
            else:
                r["diff_pct"] = None
                r["cmp"] = dict(verdict="not compared")
            out["rows"].append(r)
        return out

    # -- T4 ---------------------------------------------------------------
    def t4(self):
        base, pat = TABLE_ROLES["T4"]
        rows = []
        hook_ns = {}
        for role in (base, pat):
            r = dict(role=role)
            for b in ("nohook", "egress"):
                cid = "T4/net_port/%s/n%d/k-" % (b, 0 if b == "nohook" else 1)
                r["status_" + b] = self.cells.status(role, cid)
                r[b] = summary([p / 1e6 for p in self.cells.pps(role, cid)]) if r["status_" + b] == "ok" else None
            ok = r["nohook"] and r["egress"]
            hook_ns[role] = self.cells.paired_ns(role, "T4/net_port/egress/n1/k-", "T4/net_port/nohook/n0/k-", 1) if ok else []
            r["hook_ns"] = summary(hook_ns[role])
            rows.append(r)
        if hook_ns[base] and hook_ns[pat]:
            cmp_ = self.compare("T4 egress hook ns baseline vs patched", hook_ns[base], hook_ns[pat], "baseline", "patched")
        else:
            cmp_ = dict(verdict="not compared")
        return dict(title="T4: egress, pktgen queue_xmit on a dummy device", rows=rows, cmp=cmp_, roles=[base, pat])

    # -- T5 ---------------------------------------------------------------
    def t5(self):
        base, pat = TABLE_ROLES["T5"]
        n = self.t2n
        rows = []
        drop = "T5/net_port/drop/n0/k-"
        for b in ("drop",) + BACKENDS:
            r = dict(backend=b)
            vals = {}
            for role in (base, pat):
                cid = drop if b == "drop" else "T5/net_port/%s/n%d/k-" % (b, n)
                st = self.cells.status(role, cid)
                if b != "drop" and st == "ok":
                    st = self.cells.status(role, drop)
                r["status_" + role] = st
                if st != "ok":
                    vals[role] = []
                elif b == "drop":
                    vals[role] = [1e9 / p for p in self.cells.pps(role, cid)]
                else:
                    vals[role] = self.cells.paired_ns(role, cid, drop, n)
                r[role] = summary(vals[role])
            r["cmp"] = self.compare("T5 eibrs %s" % b, vals[base], vals[pat], "baseline", "patched") \
                if vals[base] and vals[pat] else dict(verdict="not compared (%s)" % ", ".join(
                    "%s: %s" % (ro, r["status_" + ro]) for ro in (base, pat) if r["status_" + ro] != "ok"))
            rows.append(r)
        return dict(title="T5: eibrs flavor, baseline vs patched (cost of the static key), net,port 1000, "
                    "%d lookup rules per packet" % n, rows=rows, roles=[base, pat])

    # -- T6 ---------------------------------------------------------------
    def t6(self):
        pat = TABLE_ROLES["T6"][0]
        knob_missing = pat in self.cells.knob_missing
        rows, vals = [], {}
        for k, name in (("0", "direct"), ("1", "indirect")):
            drop, upd = "T6/dynset/drop/n0/k%s" % k, "T6/dynset/update/n1/k%s" % k
            r = dict(knob=k, name=name, status_drop=self.cells.status(pat, drop),
                     status_update=self.cells.status(pat, upd))
            if knob_missing and r["status_update"] == "ok":
                r["status_update"] = "knob missing"
            for b, cid in (("drop", drop), ("update", upd)):
                ok = r["status_" + b] == "ok"
                vals[(k, b)] = [1e9 / x for x in self.cells.pps(pat, cid)] if ok else []
                r[b] = summary(vals[(k, b)])
            ok = r["status_drop"] == "ok" and r["status_update"] == "ok"
            vals[(k, "cost")] = self.cells.paired_ns(pat, upd, drop, 1) if ok else []
            r["cost"] = summary(vals[(k, "cost")])
            rows.append(r)

        def cmp_(what, title):
            a, b = vals[("1", what)], vals[("0", what)]
            if a and b:
                return self.compare(title, a, b, "indirect", "direct")
            return dict(verdict="not compared (%s)" % ", ".join(
                "knob %s %s: %s" % (r["knob"], what, r.get("status_update" if what != "drop" else "status_drop"))
                for r in rows if not vals[(r["knob"], what)]))
        return dict(title="T6: dynset, 'update @%s { ip saddr }' on an rhash set (%d source addresses, pktgen "
                    "burst 1), patched retpoline kernel, knob 0 vs 1" % (DYNSET_SET, DYNSET_ADDRS),
                    rows=rows, knob_missing=knob_missing, roles=[pat],
                    cmp_packet=cmp_("update", "T6 dynset update ns-per-packet direct vs indirect"),
                    cmp_cost=cmp_("cost", "T6 dynset update cost direct vs indirect"),
                    cmp_drop=cmp_("drop", "T6 drop ns-per-packet knob0 vs knob1"))

    def build(self, tables):
        for t in tables:
            self.tables[t] = getattr(self, t.lower())()
        self.noise = noise_floor(self.tables.get("T2", {}).get("aa"), self.boots)


# --------------------------------------------------------------------------
# Timing honesty: what the run itself says about its noise.  The nominal CIs
# of one cell assume independent samples; the A/A pair (the same cell twice,
# interleaved in one boot) is the only direct test of that assumption, so a
# "Difference" there means every verdict of the run is suspect and the report
# must say so at the top, not in a table row.
# --------------------------------------------------------------------------
def aa_state(aa):
    """('fail' | 'skip' | 'pass', text) for the T2 A/A comparison dict
    (Report.t2()["aa"]); None = T2 not in the run.  'skip' when it could
    not be compared (quick runs have one sample per cell): a skip is never
    a pass."""
    if aa is None:
        return "skip", "T2 (the A/A pair) not in this run"
    v = aa.get("verdict", "?")
    if aa.get("proven") is True:
        return "fail", "A/A pair (pipapo knob 0 twice, interleaved) shows a difference: %s" % v
    if aa.get("proven") is False:
        o = aa.get("ours") or {}
        return "pass", "A/A pair shows no difference (%+.2f%% +/- %.2f%%, %s)" % (
            o.get("rel", float("nan")), o.get("rel_half", float("nan")), v)
    return "skip", "A/A pair not compared: %s" % v


def noise_floor(aa, boots):
    """The noise the run observed: the A/A difference with its CI and the
    spread of same-cell samples (coefficient of variation of ns/packet of
    every (kernel, cell) with at least 2 valid samples)."""
    by = {}
    for b in boots:
        for s in b["samples"]:
            if s["valid"] and s["pps"]:
                by.setdefault((b.get("role"), s["cell"]), []).append(1e9 / s["pps"])
    cvs = sorted(stdev(v) / mean(v) * 100 for v in by.values() if len(v) >= 2)
    state, text = aa_state(aa)
    out = dict(aa_state=state, aa_text=text, cells=len(cvs))
    if aa and aa.get("ours"):
        out["aa_rel"], out["aa_rel_half"] = aa["ours"]["rel"], aa["ours"]["rel_half"]
    if cvs:
        out["cv_median"] = median(cvs)
        out["cv_p90"] = cvs[min(len(cvs) - 1, int(math.ceil(0.9 * len(cvs))) - 1)]
        out["cv_max"] = cvs[-1]
    return out


def noise_lines(noise):
    """Header lines: a WARNING when the A/A pair differs, then the noise
    floor as observed."""
    if not noise:
        return []
    out = []
    if noise["aa_state"] == "fail":
        out.append("WARNING:     %s: this run's noise is larger than its confidence intervals say; "
                   "treat every verdict below as unproven" % noise["aa_text"])
    if "aa_rel" in noise:
        aa = "A/A pair %+.2f%% +/- %.2f%% (ns per lookup, 95%% CI)" % (noise["aa_rel"], noise["aa_rel_half"])
    else:
        aa = noise["aa_text"]
    if noise.get("cells"):
        spread = ("same-cell spread: coefficient of variation of ns/packet median %.1f%%, 90th percentile "
                  "%.1f%%, max %.1f%% over %d cells" % (noise["cv_median"], noise["cv_p90"], noise["cv_max"],
                                                        noise["cells"]))
    else:
        spread = "same-cell spread: no cell has 2 valid samples"
    out.append("noise floor: %s; %s" % (aa, spread))
    return out


# --------------------------------------------------------------------------
# Rendering
# --------------------------------------------------------------------------
def render_table(header, rows):
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    sep = "-+-".join("-" * w for w in widths)

    def line(r):
        return " | ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip()
    return "\n".join([line(header), sep] + [line(r) for r in rows])


def cell_text(st, sm, nd=3, scale=1.0):
    if st != "ok":
        return st
    return fmt_summary(sm, nd, scale)


def render_t1(t):
    base, pat = t["roles"]
    out = [t["title"], "", "Mpps, median [95% CI of the median]:", ""]
    hdr = ["type, entries", "kernel", "netdev drop", "hash (no ranges)", "rbtree (single field)", "pipapo"]
    rows = []
    for r in t["rows"]:
        for role in (base, pat):
            k = r["kernels"][role]
            rows.append(["%s %d" % (r["display"], r["entries"]) if role == base else "",
                         role.split("-")[0]] +
                        [cell_text(k["status"][b], k["mpps"][b]) for b in ("drop",) + BACKENDS])
    out.append(render_table(hdr, rows))
    d = t.get("drop_all")
    if d:
        out += ["", "netdev drop, all types together (%d samples per kernel), ns per packet: baseline %s, patched %s"
                % (d["n"], cell_text("ok", d["baseline"], 1), cell_text("ok", d["patched"], 1)),
                "  ministat -c 95 (patched - baseline): %s" % d["verdict"]["verdict"]]
    out += ["", "Note: " + SPEC_NOTE]
    out += ["", "ns per lookup = 1e9/rate - 1e9/drop rate (paired per repetition), median [95% CI];",
            "verdict: ministat -c 95 on the per-lookup samples, patched vs baseline:", ""]
    hdr = ["type, entries", "backend", "baseline ns", "patched ns", "verdict (patched - baseline)"]
    rows = []
    for r in t["rows"]:
        for i, b in enumerate(BACKENDS):
            kb, kp = r["kernels"][base], r["kernels"][pat]
            rows.append(["%s %d" % (r["display"], r["entries"]) if i == 0 else "", b,
                         cell_text(kb["status"][b], kb["ns"].get(b), 1),
                         cell_text(kp["status"][b], kp["ns"].get(b), 1),
                         r["verdicts"][b]["verdict"]])
    out.append(render_table(hdr, rows))
    return "\n".join(out)


def render_t2(t):
    out = [t["title"], ""]
    if t["knob_missing"]:
        out += ["The patched retpoline kernel has no force-indirect knob: direct/indirect not measured.", ""]
    hdr = ["backend", "direct (knob 0)", "indirect (knob 1)", "plain kernel", "direct/plain", "goal <= 1.05x"]
    rows = []
    for r in t["rows"]:
        rows.append([r["backend"]] + [cell_text(r["status"][c], r["cols"][c], 1) for c in ("direct", "indirect", "plain")] +
                    [fmt_num(r["ratio_direct_plain"], 3),
                     "-" if r["goal_met"] is None else ("met (medians)" if r["goal_met"] else "NOT met")])
    out.append(render_table(hdr, rows))
    out += ["", "ministat -c 95:"]
    for r in t["rows"]:
        out.append("  %-7s direct vs indirect: %s" % (r["backend"], r["direct_vs_indirect"]["verdict"]))
        out.append("  %-7s direct vs plain:    %s" % (r["backend"], r["direct_vs_plain"]["verdict"]))
    aa = t["aa"]
    out.append("  A/A noise floor (pipapo, knob 0 vs knob 0, interleaved): %s" % aa["verdict"])
    if aa.get("a"):
        out.append("    A: %s ns   A2: %s ns" % (fmt_summary(aa["a"], 1), fmt_summary(aa["b"], 1)))
    return "\n".join(out)


def render_t3(t):
    out = [t["title"], ""]
    if t["knob_missing"]:
        out += ["The kernel has no force-indirect knob: both columns ran the kernel's default path.", ""]
    hdr = ["lookup rules", "indirect (knob 1) Mpps", "direct (knob 0) Mpps", "diff (medians)", "ministat -c 95 (direct - indirect)"]
    rows = []
    for r in t["rows"]:
        rows.append([str(r["n"]), cell_text(r["status_k1"], r["k1"]), cell_text(r["status_k0"], r["k0"]),
                     "-" if r["diff_pct"] is None else "%+.1f%%" % r["diff_pct"], r["cmp"]["verdict"]])
    out.append(render_table(hdr, rows))
    out += ["", "per-lookup cost: least-squares slope of ns/packet over N in %s, 95%% CI (Student's t, n-2 df):"
            % ", ".join(str(n) for n in T3_LOOKUPS)]
    for k, name in (("1", "indirect (knob 1)"), ("0", "direct (knob 0)")):
        f = t["fits"][k]
        if f:
            out.append("  %-18s %.2f +/- %.2f ns per lookup (intercept %.1f ns, n=%d)" % (name, f["slope"], f["slope_half"], f["intercept"], f["n"]))
        else:
            out.append("  %-18s not fitted (%s)" % (name, t["status"][k]))
    f0, f1 = t["fits"]["0"], t["fits"]["1"]
    if f0 and f1:
        d = f0["slope"] - f1["slope"]
        h = math.hypot(f0["slope_half"], f1["slope_half"])
        out.append("  direct - indirect: %+.2f +/- %.2f ns per lookup (CIs combined in quadrature)%s" %
                   (d, h, "" if abs(d) > h else ": no difference proven at 95% confidence"))
    return "\n".join(out)


def render_t4(t):
    out = [t["title"], "", "Mpps median [95% CI]; hook cost = 1e9/rate(egress) - 1e9/rate(no hook), paired:", ""]
    hdr = ["kernel", "no egress hook", "egress chain, 1 rule", "hook cost ns"]
    rows = []
    for r in t["rows"]:
        rows.append([r["role"].split("-")[0], cell_text(r["status_nohook"], r["nohook"]),
                     cell_text(r["status_egress"], r["egress"]),
                     fmt_summary(r["hook_ns"], 1) if r["hook_ns"] else "-"])
    out.append(render_table(hdr, rows))
    out += ["", "hook cost, ministat -c 95 (patched - baseline): " + t["cmp"]["verdict"]]
    return "\n".join(out)


def render_t5(t):
    base, pat = t["roles"]
    out = [t["title"], "", "drop row: ns per packet; lookup rows: ns per lookup (paired against drop); median [95% CI]", ""]
    hdr = ["cell", "baseline eibrs", "patched eibrs", "ministat -c 95 (patched - baseline)"]
    rows = []
    for r in t["rows"]:
        rows.append([r["backend"], cell_text(r["status_" + base], r[base], 1),
                     cell_text(r["status_" + pat], r[pat], 1), r["cmp"]["verdict"]])
    out.append(render_table(hdr, rows))
    return "\n".join(out)


def render_t6(t):
    out = [t["title"], ""]
    if t["knob_missing"]:
        out += ["The patched retpoline kernel has no force-indirect knob: direct/indirect not measured.", ""]
    out += ["ns per packet, median [95% CI]; update cost = ns/packet(update) - ns/packet(drop), paired per "
            "repetition with the drop cell of the same knob:", ""]
    hdr = ["knob", "drop only", "update @%s + drop" % DYNSET_SET, "update cost"]
    rows = []
    for r in t["rows"]:
        rows.append(["%s (knob %s)" % (r["name"], r["knob"]), cell_text(r["status_drop"], r["drop"], 1),
                     cell_text(r["status_update"], r["update"], 1),
                     fmt_summary(r["cost"], 1) if r["cost"] else "-"])
    out.append(render_table(hdr, rows))
    out += ["", "ministat -c 95 (direct - indirect):",
            "  ns per packet, update rule: %s" % t["cmp_packet"]["verdict"],
            "  update cost (paired):       %s" % t["cmp_cost"]["verdict"],
            "  ns per packet, drop only:   %s" % t["cmp_drop"]["verdict"]]
    return "\n".join(out)


RENDER = {"T1": render_t1, "T2": render_t2, "T3": render_t3, "T4": render_t4, "T5": render_t5, "T6": render_t6}


def header_text(meta, boots, noise=None):
    warn = [ln for ln in noise_lines(noise) if ln.startswith("WARNING")]
    lines = warn + ["nftlab performance suite: nft_concat_range/bench (%s)" % meta.get("mode", "?"),
             "date:        %s" % meta.get("date", "?"),
             "base:        %s" % (meta.get("base") or "unknown (no BUILD-INFO)"),
             "CPU:         %s (%s CPUs on the host; guests run on one)" % (meta.get("cpu", "?"), meta.get("nproc", "?"))]
    if meta.get("arch", "um") == "um":
        lines.append("target:      um (User-mode Linux lab kernels)")
    else:
        lines.append("target:      %s under QEMU TCG: a functional run; its rates are emulation speed, "
                     "not performance figures" % meta["arch"])
    for role, k in sorted(meta.get("kernels", {}).items()):
        lines.append("kernel:      %-19s %s" % (role, k.get("status") if k.get("status") != "ok" else
                                                 "%s (commit %s)" % (k.get("dir", "?"), (k.get("commit") or "?")[:12])))
    series = {k.get("series") for k in meta.get("kernels", {}).values() if k.get("series") is not None}
    for s in sorted(series):
        lines.append("series:      %s" % (s or "(none: lab patches only)"))
    lines += ["repetitions: %s per cell (%s boots x %s interleaved repetitions per boot), %s s per sample" % (
        meta.get("reps_total"), meta.get("rounds"), meta.get("reps_per_boot"), meta.get("duration")),
        "confidence:  95% (medians with order-statistics CIs; A/B verdicts by ministat, Student's t)",
        "packets:     pktgen xmit_mode netif_receive on a dummy device, netdev ingress chain, burst %s" % meta.get("burst", "?"),
        "knob:        %s" % meta.get("knob", "?")]
    loads = meta.get("load_during", [])
    if loads:
        lines.append("host load:   %s" % "; ".join(loads))
    steal = meta.get("steal")
    if steal:
        worst = max(steal, key=steal.get)
        lines.append("host steal:  %.1f%% of the host's CPU time went to other guests during the boots (median; "
                     "max %.1f%% in %s)" % (median(list(steal.values())), steal[worst], worst))
    if meta.get("builds_running"):
        lines.append("WARNING:     kernel builds (cc1) were running during the measurement: timings are unreliable")
    inval = sum(1 for b in boots for s in b["samples"] if not s["valid"])
    total = sum(len(b["samples"]) for b in boots)
    lines.append("samples:     %d, of which %d invalid (counters did not match or pktgen failed)" % (total, inval))
    lines += [ln for ln in noise_lines(noise) if not ln.startswith("WARNING")]
    failed = [b for b in boots if b.get("status") not in (None, 0, "0")]
    for b in failed:
        lines.append("boot failed: %s (%s, exit %s)" % (b["dir"], b.get("role"), b.get("status")))
    return "\n".join(lines)


def invalid_details(boots, limit=20):
    out = []
    for b in boots:
        for s in b["samples"]:
            if not s["valid"]:
                out.append("  %s %s rep %s: %s (sofar %s counter %s)" % (b["role"], s["cell"], s["rep"], s["reason"], s["sofar"], s["counter"]))
    if len(out) > limit:
        out = out[:limit] + ["  ... %d more" % (len(out) - limit)]
    return out


def gnuplot_svg(resdir, name, title, data, script_body):
    """Writes NAME.dat and NAME.gp, runs gnuplot to NAME.svg."""
    dat = os.path.join(resdir, name + ".dat")
    gp = os.path.join(resdir, name + ".gp")
    svg = os.path.join(resdir, name + ".svg")
    write(dat, data)
    # (backquotes in a gnuplot string are shell command substitution)
    write(gp, "set terminal svg size %d,600 dynamic font 'sans,11'\nset output '%s'\nset title \"%s\"\n%s\n"
          % (1200 if name == "T1" else 900, svg, title.replace('"', "'").replace("`", "'"), script_body.replace("@DAT@", dat)))
    if not shutil.which("gnuplot"):
        return "gnuplot not installed"
    r = subprocess.run(["gnuplot", gp], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0 or not os.path.isfile(svg):
        return "gnuplot failed: " + r.stdout.strip()[-300:]
    return None


def err_bar(sm, scale=1.0):
    if not sm:
        return ("NaN", "NaN", "NaN")
    lo, hi = sm["ci"] if sm["ci"] else (sm["min"], sm["max"])
    return ("%.4f" % (sm["median"] * scale), "%.4f" % (lo * scale), "%.4f" % (hi * scale))


HIST = ("set style data histograms\nset style histogram errorbars gap 2 lw 1\n"
        "set style fill solid 0.6 border -1\nset xtics rotate by -35\nset grid ytics\nset key outside top center horizontal\n"
        "set yrange [0:*]\n")


NODATA = ("unset border\nunset tics\nunset key\nset label 'no valid samples for this table' at graph 0.5,0.5 center\n"
          "plot [0:1][0:1] -1 notitle")


def hist_body(lines, titles, ylabel, extra=""):
    """Clustered bars with error bars; series without any value are left
    out (gnuplot refuses an all-undefined series)."""
    rows = [ln.split() for ln in lines if not ln.startswith("#")]
    plots_ = []
    for i, title in enumerate(titles):
        col = 2 + 3 * i
        has = any(len(r) > col and r[-(len(titles) - i) * 3] != "NaN" for r in rows)
        if has:
            plots_.append("'@DAT@' using %d:%d:%d%s title '%s'" % (
                col, col + 1, col + 2, ":xtic(1)" if not plots_ else "", title))
    if not plots_:
        return NODATA
    return HIST + extra + "set ylabel '%s'\nplot %s" % (ylabel, ", ".join(plots_))


def plots(rep):
    errs = {}
    r = rep.resdir
    for t, tab in rep.tables.items():
        if t == "T1":
            base, pat = tab["roles"]
            lines = ["# label baseline lo hi patched lo hi"]
            for row in tab["rows"]:
                for b in BACKENDS:
                    vb = err_bar(row["kernels"][base]["ns"].get(b))
                    vp = err_bar(row["kernels"][pat]["ns"].get(b))
                    lines.append('"%s/%s" %s %s' % (row["display"], b, " ".join(vb), " ".join(vp)))
            body = hist_body(lines, ("baseline", "patched"), "ns per lookup (median, 95% CI)",
                             "set bmargin 10\nset rmargin 8\n")
        elif t == "T2":
            lines = ["# backend direct lo hi indirect lo hi plain lo hi"]
            for row in tab["rows"]:
                lines.append("%s %s" % (row["backend"], " ".join(" ".join(err_bar(row["cols"][c])) for c in ("direct", "indirect", "plain"))))
            body = hist_body(lines, ("direct (knob 0)", "indirect (knob 1)", "plain kernel"), "ns per lookup (median, 95% CI)")
        elif t == "T3":
            lines = ["# knob N ns_per_packet"]
            for k in ("0", "1"):
                for x, y in tab["points"][k]:
                    lines.append("%s %d %.3f" % (k, x, y))
            fits = []
            for k, name in (("0", "direct (knob 0)"), ("1", "indirect (knob 1)")):
                f = tab["fits"][k]
                if f:
                    fits.append("%.6f + %.6f*x lw 2 title '%s fit: %.1f +/- %.1f ns/lookup'" % (
                        f["intercept"], f["slope"], name, f["slope"], f["slope_half"]))
            pts = []
            for k, name, pt in (("0", "direct (knob 0)", 7), ("1", "indirect (knob 1)", 6)):
                if tab["points"][k]:
                    pts.append("'@DAT@' using ($1==%s?$2:1/0):3 with points pt %d title '%s'" % (k, pt, name))
            body = NODATA if not pts else (
                "set xlabel 'lookup rules per packet'\nset ylabel 'ns per packet'\nset grid\nset key top left\n"
                "plot " + ", ".join(pts + fits))
        elif t == "T4":
            lines = ["# kernel nohook lo hi egress lo hi"]
            for row in tab["rows"]:
                lines.append("%s %s %s" % (row["role"].split("-")[0], " ".join(err_bar(row["nohook"])), " ".join(err_bar(row["egress"]))))
            body = hist_body(lines, ("no egress hook", "egress chain, 1 rule"), "Mpps (median, 95% CI)")
        elif t == "T5":
            lines = ["# cell baseline lo hi patched lo hi"]
            for row in tab["rows"]:
                lines.append("%s %s %s" % (row["backend"], " ".join(err_bar(row[tab["roles"][0]])), " ".join(err_bar(row[tab["roles"][1]]))))
            body = hist_body(lines, ("baseline eibrs", "patched eibrs"), "ns (drop: per packet; others: per lookup)")
        elif t == "T6":
            lines = ["# what direct lo hi indirect lo hi"]
            for what, label in (("drop", "drop"), ("update", "update+drop"), ("cost", "update-cost")):
                lines.append("%s %s" % (label, " ".join(" ".join(err_bar(r[what])) for r in tab["rows"])))
            body = hist_body(lines, ("direct (knob 0)", "indirect (knob 1)"), "ns per packet (median, 95% CI)")
        else:
            continue
        e = gnuplot_svg(r, t, tab["title"], "\n".join(lines) + "\n", body)
        if e:
            errs[t] = e
    return errs


def read_kv(path):
    out = {}
    if os.path.isfile(path):
        for line in open(path):
            if "=" in line:
                k, v = line.rstrip("\n").split("=", 1)
                out[k] = v
    return out


def cpu_model():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


def collect_meta(resdir):
    """run.env, kernels.tsv, load.tsv and the kernels' BUILD-INFO."""
    env = read_kv(os.path.join(resdir, "run.env"))
    meta = dict(mode=env.get("mode", "?"), tables=parse_tables(env.get("tables", ",".join(ALL_TABLES))),
                rounds=int(env.get("rounds", 0) or 0), reps_per_boot=int(env.get("reps_per_boot", 0) or 0),
                duration=env.get("duration"), t2_lookups=int(env.get("t2_lookups", DEFAULT_T2_LOOKUPS)),
                knob=env.get("knob"), burst=env.get("burst"), date=env.get("date"), nftlab=env.get("nftlab"),
                arch=env.get("arch", "um"),
                cpu=cpu_model(), nproc=os.cpu_count(), kernels={}, load_during=[], builds_running=False,
                confidence=CONFIDENCE,
                selftest={k[len("selftest_"):]: v for k, v in env.items() if k.startswith("selftest_")})
    meta["reps_total"] = meta["rounds"] * meta["reps_per_boot"]
    kt = os.path.join(resdir, "kernels.tsv")
    if os.path.isfile(kt):
        for line in open(kt):
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 3:
                continue
            role, st, d = parts[:3]
            k = dict(status="ok" if st == "ok" else "not available (not built; run without --no-build)", dir=d)
            bi = os.path.join(d, "BUILD-INFO")
            if st == "ok" and os.path.isfile(bi):
                info = {}
                for bl in open(bi):
                    if ": " in bl:
                        kk, vv = bl.rstrip("\n").split(": ", 1)
                        info[kk] = vv
                k.update(commit=info.get("commit"), series=info.get("series", ""), base=info.get("base"),
                         built=info.get("built"), name=info.get("name"))
                if info.get("base"):
                    meta["base"] = info["base"]
            meta["kernels"][role] = k
    st = os.path.join(resdir, "steal.tsv")
    if os.path.isfile(st):
        # bench: per boot, the host's stolen and total CPU ticks during it
        meta["steal"] = {}
        for line in open(st):
            parts = line.rstrip("\n").split("\t")
            if len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit() and int(parts[2]) > 0:
                meta["steal"][parts[0]] = 100.0 * int(parts[1]) / int(parts[2])
    lt = os.path.join(resdir, "load.tsv")
    if os.path.isfile(lt):
        for line in open(lt):
            parts = line.rstrip("\n").split("\t")
            if len(parts) == 4:
                meta["load_during"].append("%s %s load %s, %s cc1" % tuple(parts))
                if parts[3].isdigit() and int(parts[3]) > 0:
                    meta["builds_running"] = True
    return meta


def base_selftest(resdir, meta, cells):
    """{role: (status, comparison rows)} for every kernel the base tree's
    perf script ran on (bench --selftest), against our T1 cells."""
    out = {}
    by_display = {TYPES[t]["display"]: t for t in TYPES}

    def ours(disp, col):
        t = by_display[disp]
        cid = "T1/%s/drop/n0/k-" % t if col == "drop" else "T1/%s/%s/n1/k-" % (t, col)
        return cells.pps(role, cid) if cells.status(role, cid) == "ok" else []

    def entries(disp):
        return TYPES[by_display[disp]]["entries"] if disp in by_display else None

    for role, status in sorted(meta.get("selftest", {}).items()):
        log = os.path.join(resdir, "selftest-%s" % role, "output.log")
        if not os.path.isfile(log):
            # docs/results/ keeps the output beside results.json, without the tree
            log = os.path.join(resdir, "selftest-%s.log" % role)
        rows = []
        if os.path.isfile(log):
            parsed = basecmp.parse_output(open(log, errors="replace").read(), by_display)
            rows = basecmp.compare(parsed, ours, entries, [TYPES[t]["display"] for t in TYPE_ORDER])
        out[role] = (status, rows)
    return out


def do_report(args):
    resdir = args.resdir
    meta, boots, _ = load_run(resdir)
    write(os.path.join(resdir, "run.json"), json.dumps(meta, indent=1, sort_keys=True) + "\n")
    tables = meta.get("tables", list(ALL_TABLES))
    rep = Report(resdir, boots, meta)
    rep.build(tables)
    plot_errs = plots(rep)
    texts = [header_text(meta, boots, rep.noise), ""]
    # T0 (exact counts) is t0.py's: its rendered table goes first as it is.
    t0md = os.path.join(resdir, "t0", "t0.md")
    if os.path.isfile(t0md):
        texts += [line for line in open(t0md).read().splitlines() if not line.startswith("```")] + [""]
    for t in tables:
        texts += [RENDER[t](rep.tables[t]), ""]
        if t in plot_errs:
            texts += ["(no SVG: %s)" % plot_errs[t], ""]
    loads = nftlab_load.load_table([r for b in boots for r in b["loads"]], TYPE_ORDER,
                                   {t: TYPES[t]["entries"] for t in TYPES})
    if loads:
        texts += [nftlab_load.render_loads(loads, {t: TYPES[t]["display"] for t in TYPES}), ""]
    inv = invalid_details(boots)
    if inv:
        texts += ["Invalid samples (their cells are reported INVALID, never used):"] + inv + [""]
    base_rows = base_selftest(resdir, meta, rep.cells)
    if base_rows:
        texts += [basecmp.render(base_rows), ""]
    report = "\n".join(texts)
    appendix = ["", "Appendix: ministat outputs", ""]
    for title, out in rep.ministat:
        appendix += ["$ ministat -c 95  # " + title, out.rstrip(), ""]
    write(os.path.join(resdir, "report.md"), "```\n" + report + "\n```\n" + "\n```\n" + "\n".join(appendix) + "\n```\n")
    results = dict(schema=SCHEMA, meta=meta, tables=rep.tables, loads=loads, noise=rep.noise,
                   base_selftest={k: dict(status=v[0], rows=v[1]) for k, v in base_rows.items()},
                   boots=[{k: v for k, v in b.items() if k not in ("samples", "loads")} for b in boots],
                   load_samples=[r for b in boots for r in b["loads"]],
                   samples=[s for b in boots for s in b["samples"]],
                   svg={t: (t + ".svg") for t in tables if t not in plot_errs})
    write(os.path.join(resdir, "results.json"), json.dumps(results, indent=1, sort_keys=True, default=str) + "\n")
    if not args.quiet:
        print(report)
    return 0


# --------------------------------------------------------------------------
# Drift: why samples of one cell differ within a boot.  Every valid sample
# is expressed as its deviation from the median ns/packet of its own cell
# (same kernel, same cell over all boots), so cells of different cost can be
# pooled; the deviations are then grouped by what could cause a drift:
# warm-up (position in the boot, first sample after a group's sets were
# loaded), order (the repetition, the cell that ran just before), the boot
# (round, host load at its start) and time.  The samples of a boot are in
# results.json in the order they ran, so stored runs without raw/ qualify.
# --------------------------------------------------------------------------
def load_for_drift(path):
    """(name, meta, boots) of a results directory or of a results .json."""
    if os.path.isfile(path):
        with open(path) as f:
            res = json.load(f)
        d = tempfile.mkdtemp(prefix="ncr-drift-")
        try:
            write(os.path.join(d, "results.json"), json.dumps(res))
            meta, boots = read_stored(d)
        finally:
            shutil.rmtree(d, ignore_errors=True)
        return path, meta, boots
    meta, boots, _ = load_run(path)
    return path, meta, boots


def boot_loads(meta, boots):
    """{boot dir: 1-minute host load before it}: bench's load.tsv has one
    row per boot in the order they ran, so the k-th row of a kernel role
    belongs to its k-th round."""
    rows = {}
    for ln in meta.get("load_during", []):
        m = re.match(r"\S+ (\S+) load (\S+)", ln)
        if m:
            rows.setdefault(m.group(1), []).append(float(m.group(2)))
    out = {}
    for b in sorted(boots, key=lambda b: b.get("round", 0)):
        lst = rows.get(b.get("role"), [])
        k = sum(1 for x in out if x.startswith("r") and x.split("-", 1)[1] == b.get("role"))
        if k < len(lst):
            out[b["dir"]] = lst[k]
    return out


def iso_s(t):
    m = re.match(r"\d+-\d+-\d+T(\d+):(\d+):(\d+)", t or "")
    return int(m.group(1)) * 3600 + int(m.group(2)) * 60 + int(m.group(3)) if m else None


def drift_rows(boots):
    """One dict per valid sample: its deviation (ns/packet over its cell's
    median, minus 1) and the candidate causes."""
    cellv = {}
    for b in boots:
        for s in b["samples"]:
            if s["valid"] and s["pps"]:
                cellv.setdefault((b["role"], s["cell"]), []).append(1e9 / s["pps"])
    med = {k: median(v) for k, v in cellv.items()}
    rows = []
    for b in boots:
        ss = b["samples"]
        t0, t1 = iso_s(b.get("guest", {}).get("start")), iso_s(b.get("guest", {}).get("end"))
        prev, gpos = None, 0
        for i, s in enumerate(ss):
            gid = s["cell"].split("/")[0] + "/" + s["type"]
            if prev is None or prev["cell"].split("/")[0] + "/" + prev["type"] != gid:
                gpos = 0
                prev_cell = None
            else:
                gpos += 1
                prev_cell = (b["role"], prev["cell"])
            prev = s
            if not (s["valid"] and s["pps"]):
                continue
            key = (b["role"], s["cell"])
            r = dict(boot=b["dir"], role=b["role"], round=b.get("round"), cell=s["cell"], i=i, n=len(ss),
                     rep=s["rep"], gpos=gpos, dev=1e9 / s["pps"] / med[key] - 1, backend=s["backend"],
                     table=s["table"])
            if prev_cell in med:
                r["prev_ratio"] = med[prev_cell] / med[key]
            if t0 is not None and t1 is not None and t1 > t0:
                # linear in the sample's position: the boot's samples take
                # about the same time each (set loading aside)
                r["t"] = (t1 - t0) * i / max(len(ss), 1)
            rows.append(r)
    return rows


def drift_text(name, meta, boots):
    rows = drift_rows(boots)
    if not rows:
        return "%s: no valid samples" % name
    loads = boot_loads(meta, boots)
    out = ["%s: %d valid samples in %d boots (%s, %s reps per boot, %s s per sample)" % (
        name, len(rows), len(boots), meta.get("mode"), meta.get("reps_per_boot"), meta.get("duration")),
        "deviation = ns/packet / median ns/packet of the same cell (kernel, cell) - 1, + is slower;",
        "median [95% CI of the median, order statistics] and mean, in %", ""]

    def group(title, keyf):
        g = {}
        for r in rows:
            k = keyf(r)
            if k is not None:
                g.setdefault(k, []).append(r["dev"] * 100)
        out.append(title)
        for k in sorted(g, key=lambda x: (isinstance(x, str), x)):
            v = g[k]
            ci = median_ci(v)
            out.append("  %-28s n=%4d  median %+6.2f%% %-18s mean %+6.2f%%" % (
                k, len(v), median(v), "[%+.1f, %+.1f]" % ci if ci else "(no CI)", mean(v)))

    group("position in the boot (sample index, 0 = first of the boot):",
          lambda r: "%d" % r["i"] if r["i"] < 4 else ">= 4")
    group("position in the boot (fifths of its samples):", lambda r: "fifth %d" % (5 * r["i"] // r["n"] + 1))
    group("time since the boot started (estimated from its position):",
          lambda r: None if "t" not in r else ("%3d-%3d s" % (60 * (r["t"] // 60), 60 * (r["t"] // 60) + 60)
                                               if r["t"] < 240 else ">= 240 s"))
    group("first sample after the group's sets were loaded:", lambda r: "first of group" if r["gpos"] == 0
          else "later")
    group("repetition within the boot:", lambda r: "rep %d" % r["rep"])
    group("cell that ran just before (its median over this cell's):",
          lambda r: None if "prev_ratio" not in r else ("heavier (> 1.3x)" if r["prev_ratio"] > 1.3 else
                                                        "lighter (< 0.77x)" if r["prev_ratio"] < 0.77
                                                        else "similar"))
    group("boot round (order of the boots, wall clock):", lambda r: "round %s" % r["round"])
    steal = meta.get("steal") or {}
    if steal:
        group("host CPU steal during the boot:",
              lambda r: None if r["boot"] not in steal else ("steal < 1%" if steal[r["boot"]] < 1 else
                                                             "steal 1-5%" if steal[r["boot"]] < 5 else "steal >= 5%"))
    if loads:
        group("host 1-minute load before the boot:",
              lambda r: None if r["boot"] not in loads else "load %.1f-%.1f" % (
                  math.floor(loads[r["boot"]] * 5) / 5, math.floor(loads[r["boot"]] * 5) / 5 + 0.2))
    # variance between boots vs within, per cell
    share, null = [], []
    by = {}
    for r in rows:
        by.setdefault((r["role"], r["cell"]), {}).setdefault(r["boot"], []).append(r["dev"])
    for bb in by.values():
        xs = [x for v in bb.values() for x in v]
        if len(bb) < 2 or len(xs) < 3:
            continue
        m = mean(xs)
        tot = sum((x - m) ** 2 for x in xs)
        if tot > 0:
            share.append(sum(len(v) * (mean(v) - m) ** 2 for v in bb.values()) / tot)
            # E[SS between / SS total] = (boots - 1) / (samples - 1) when
            # the boot does not matter (one-way ANOVA under the null)
            null.append((len(bb) - 1) / (len(xs) - 1))
    out.append("")
    if share:
        out.append("between-boot share of a cell's variance: mean %.2f (median %.2f) over %d cells; "
                   "%.2f expected if the boot did not matter" % (mean(share), median(share), len(share), mean(null)))
    # serial correlation of the deviations within a boot
    corr = []
    for lag in (1, 2, 3, 5, 10):
        xs, ys = [], []
        for b in boots:
            dv = {r["i"]: math.log1p(r["dev"]) for r in rows if r["boot"] == b["dir"]}
            for i, x in dv.items():
                if i + lag in dv:
                    xs.append(x)
                    ys.append(dv[i + lag])
        if len(xs) > 2:
            corr.append("lag %d: %+.2f (n=%d)" % (lag, pearson(xs, ys), len(xs)))
    out.append("serial correlation of log deviations within a boot: " + ", ".join(corr))
    # lookup sample vs its paired drop sample, by their distance in the boot
    pos = {(r["boot"], r["cell"], r["rep"]): r for r in rows}
    pairs = {}
    for r in rows:
        if r["backend"] not in BACKENDS + ("update",):
            continue
        c = r["cell"].split("/")
        d = pos.get((r["boot"], "%s/%s/drop/n0/%s" % (c[0], c[1], c[4]), r["rep"]))
        if d:
            k = min(abs(d["i"] - r["i"]), 4)
            pairs.setdefault(k, []).append((math.log1p(r["dev"]), math.log1p(d["dev"])))
    pc = ["%s%d: %+.2f (n=%d)" % (">=" if k == 4 else "", k, pearson([a for a, _ in v], [b for _, b in v]), len(v))
          for k, v in sorted(pairs.items()) if len(v) > 2]
    if pc:
        out.append("correlation of a lookup sample with its paired drop sample, by distance: " + ", ".join(pc))
    return "\n".join(out)


def pearson(xs, ys):
    mx, my = mean(xs), mean(ys)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    return sxy / math.sqrt(sxx * syy) if sxx > 0 and syy > 0 else float("nan")


def do_drift(args):
    texts = []
    runs = [load_for_drift(p) for p in args.paths]
    for r in runs:
        texts.append(drift_text(*r))
    if len(runs) > 1:
        # all runs together: each keeps its own cell medians (the role is
        # prefixed with the run), host load is per run and left out
        pooled = []
        for k, (_, _, boots) in enumerate(runs):
            for b in boots:
                pooled.append(dict(b, dir="%d:%s" % (k, b["dir"]), role="%d:%s" % (k, b.get("role")),
                                   samples=[dict(s_, boot="%d:%s" % (k, s_["boot"])) for s_ in b["samples"]]))
        texts.append(drift_text("all %d runs pooled" % len(runs), dict(mode="mixed", reps_per_boot="-",
                                                                       duration="-"), pooled))
    print("\n\n".join(texts))
    return 0


# --------------------------------------------------------------------------
# Validation of a results directory (bench-quick): TAP lines.
# --------------------------------------------------------------------------
class Tap:
    def __init__(self, start=0):
        self.n = start
        self.failed = 0

    def ok(self, cond, desc, diag=None):
        self.n += 1
        print("%s %d - %s" % ("ok" if cond else "not ok", self.n, desc))
        if not cond:
            self.failed += 1
            if diag:
                for line in str(diag).splitlines()[:15]:
                    print("# " + line)
        sys.stdout.flush()
        return cond

    def skip(self, desc, why):
        self.n += 1
        print("ok %d - %s # SKIP %s" % (self.n, desc, why))


def expected_cells(role, tables, t2n, every=False):
    return {c["cell"] for _, cells in groups_for(role, tables, t2n, every) for c in cells}


def do_validate(args):
    tap = Tap(args.tap_start)
    resdir = args.resdir
    try:
        with open(os.path.join(resdir, "results.json")) as f:
            res = json.load(f)
    except (OSError, ValueError) as e:
        tap.ok(False, "results.json readable", e)
        write(args.count_file, "%d %d\n" % (tap.n, tap.failed)) if args.count_file else None
        return 1
    meta = res.get("meta", {})
    tables = meta.get("tables", [])
    t2n = meta.get("t2_lookups", DEFAULT_T2_LOOKUPS)
    keys_ok = all(k in res for k in ("schema", "meta", "tables", "boots", "samples", "svg"))
    tap.ok(keys_ok and res["schema"] == SCHEMA, "results.json schema %s with meta, tables, boots, samples, svg" % SCHEMA)
    sample_keys = set(SAMPLE_FIELDS) | {"boot", "role", "table", "type", "backend", "n", "tag"}
    bad = [s for s in res.get("samples", []) if not sample_keys <= set(s)]
    tap.ok(res.get("samples") and not bad, "every sample has the %d sample fields" % len(sample_keys),
           "%d samples, %d incomplete" % (len(res.get("samples", [])), len(bad)))
    roles = [b.get("role") for b in res.get("boots", [])]
    for role in sorted(set(roles)):
        got = {s["cell"] for s in res["samples"] if s["role"] == role}
        want = expected_cells(role, tables, t2n, meta.get("mode") == "quick")
        tap.ok(got == want, "%s: every planned cell measured (%d cells)" % (role, len(want)),
               "missing: %s\nextra: %s" % (sorted(want - got)[:8], sorted(got - want)[:8]))
        ss = [s for s in res["samples"] if s["role"] == role]
        inval = [s for s in ss if not s["valid"]]
        tap.ok(ss and not inval, "%s: all %d samples valid (pktgen sofar == rule counter)" % (role, len(ss)),
               "\n".join("%s rep %s: %s" % (s["cell"], s["rep"], s["reason"]) for s in inval))
        pos = [s for s in ss if s["valid"] and not (s["pps"] and s["pps"] > 0 and s["sofar"] and s["sofar"] > 0)]
        tap.ok(not pos, "%s: valid samples have packets and a positive rate" % role)
        km = [s for s in ss if s["knob_req"] in ("0", "1")]
        if km:
            missing = [s for s in km if s["knob"] == "missing"]
            if missing:
                tap.skip("%s: force-indirect knob toggled (%d samples)" % (role, len(km)),
                         "knob %s missing in this kernel" % meta.get("knob"))
            else:
                wrong = [s for s in km if s["knob"] != s["knob_req"]]
                tap.ok(not wrong, "%s: force-indirect knob read back as requested (%d samples)" % (role, len(km)))
    lrows = res.get("load_samples", [])
    if any(r["nftlab_s"] is not None for r in lrows) or meta.get("nftlab", "not built") != "not built":
        groups = [r for r in lrows if r["type"] in TYPES]
        tap.ok(groups and all(r["nft_s"] is not None and r["nftlab_s"] is not None for r in groups),
               "sets of every group loaded with nft -f and with nftlab, both timed (%d loads)" % len(groups))
        tap.ok(groups and all(r["same"] == "1" for r in groups),
               "nftlab's tables list the same ruleset as nft's (order-independent digest)",
               "\n".join("%s %s: same=%s" % (r["boot"], r["gid"], r["same"]) for r in groups if r["same"] != "1"))
    else:
        tap.skip("sets loaded with nftlab as well as nft -f", "nftlab not built (make userspace)")
    # Timing honesty: a proven A/A difference fails the run's validation;
    # an A/A that could not be compared is a skip, with its reason.
    if "T2" in tables:
        state, text = aa_state(res["tables"].get("T2", {}).get("aa"))
        if state == "skip":
            tap.skip("T2 A/A pair shows no difference (noise floor)", text)
        else:
            tap.ok(state == "pass", "T2 A/A pair shows no difference (noise floor): %s" % text, text)
    shapes = {"T1": lambda t: len(t["rows"]) == len(TYPE_ORDER) and all(
                  set(r["kernels"]) == set(TABLE_ROLES["T1"]) for r in t["rows"]),
              "T2": lambda t: [r["backend"] for r in t["rows"]] == list(BACKENDS) and "aa" in t,
              "T3": lambda t: [r["n"] for r in t["rows"]] == [1, 100] and set(t["fits"]) == {"0", "1"},
              "T4": lambda t: [r["role"] for r in t["rows"]] == list(TABLE_ROLES["T4"]),
              "T5": lambda t: [r["backend"] for r in t["rows"]] == ["drop"] + list(BACKENDS),
              "T6": lambda t: [r["knob"] for r in t["rows"]] == ["0", "1"] and
              all(k in t for k in ("cmp_packet", "cmp_cost", "cmp_drop"))}
    for t in tables:
        tab = res["tables"].get(t)
        tap.ok(tab is not None and shapes[t](tab), "%s table shape" % t)
    rpt = os.path.join(resdir, "report.md")
    text = open(rpt).read() if os.path.isfile(rpt) else ""
    tap.ok(all(("%s:" % t) in text for t in tables) and "base:" in text and "CPU:" in text,
           "report.md has the header and every table")
    for t in tables:
        p = os.path.join(resdir, t + ".svg")
        tap.ok(os.path.isfile(p) and "<svg" in open(p).read(2000), "%s.svg written by gnuplot" % t)
    if args.count_file:
        write(args.count_file, "%d %d\n" % (tap.n, tap.failed))
    return 1 if tap.failed else 0


# --------------------------------------------------------------------------
# Unit tests of the statistics and generators: TAP lines.
# --------------------------------------------------------------------------
def do_selftest(args):
    tap = Tap(args.tap_start)
    close = lambda a, b, tol: abs(a - b) <= tol * max(1.0, abs(b))  # noqa: E731

    tap.ok(median([3, 1, 2]) == 2 and median([4, 1, 3, 2]) == 2.5, "median of odd and even samples")
    tap.ok(median_ci(list(range(1, 6))) is None, "median CI: none for n=5 at 95%")
    tap.ok(median_ci(list(range(1, 7))) == (1, 6), "median CI: n=6 -> [x(1), x(6)]")
    # n=10: k=2 gives coverage 1-2*P(B<=1) = 0.9785; k=3 gives 0.891 -> [x(2), x(9)]
    tap.ok(median_ci(list(range(1, 11))) == (2, 9), "median CI: n=10 -> [x(2), x(9)]")
    tap.ok(median_ci(list(range(1, 21))) == (6, 15), "median CI: n=20 -> [x(6), x(15)]")
    known = {1: 12.706, 2: 4.303, 5: 2.571, 10: 2.228, 30: 2.042, 100: 1.984}
    tap.ok(all(close(t_two_sided(df), v, 5e-4) for df, v in known.items()),
           "Student's t quantiles (97.5%) match the table for df 1..100",
           {df: t_two_sided(df) for df in known})
    xs = [10.0, 12.0, 11.0, 13.0, 9.0]
    tap.ok(close(mean_ci(xs), 2.776 * stdev(xs) / math.sqrt(5), 1e-3), "mean CI half width = t(4) s / sqrt(n)")
    f = linfit([0, 1, 2, 3, 4], [1.0, 3.0, 5.0, 7.0, 9.0])
    tap.ok(close(f["slope"], 2.0, 1e-12) and close(f["intercept"], 1.0, 1e-12) and f["slope_half"] < 1e-9,
           "slope fit: exact line")
    # y = 3 + 0.5 x + noise; reference values computed by hand (numpy-free)
    x = [0, 1, 10, 50, 100] * 3
    noise = [0.3, -0.2, 0.1, -0.4, 0.2, -0.1, 0.25, -0.3, 0.35, -0.15, 0.05, 0.0, -0.25, 0.4, -0.2]
    y = [3 + 0.5 * a + e for a, e in zip(x, noise)]
    f = linfit(x, y)
    n = len(x)
    mx = sum(x) / n
    sxx = sum((a - mx) ** 2 for a in x)
    b = sum((a - mx) * (c - sum(y) / n) for a, c in zip(x, y)) / sxx
    tap.ok(close(f["slope"], b, 1e-12) and f["slope"] - f["slope_half"] < 0.5 < f["slope"] + f["slope_half"],
           "slope fit: noisy line, CI covers the true slope", f)
    # ministat agreement on several data sets
    if shutil.which("ministat"):
        rng = random.Random(4)
        wd = tempfile.mkdtemp(prefix="ncr-selftest-")
        agree, details = True, []
        sets = []
        for i in range(6):
            na, nb = rng.randint(5, 14), rng.randint(5, 14)
            shift = (0, 0.5, 2.0, 5.0, -3.0, 0.1)[i]
            a = [100 + rng.gauss(0, 2) for _ in range(na)]
            bb = [100 + shift + rng.gauss(0, 2) for _ in range(nb)]
            sets.append((a, bb))
        for i, (a, bb) in enumerate(sets):
            verdict, out = run_ministat(a, bb, "a%d" % i, "b%d" % i, wd)
            ours = pooled_t(a, bb)
            if verdict is None:
                agree = False
                details.append("ministat output unparsed: " + out[-200:])
                continue
            proven = verdict[0].startswith("Difference")
            if proven != ours["proven"] and abs(abs(ours["diff"]) - ours["half"]) > 1e-3 * ours["half"]:
                agree = False
                details.append("set %d: ministat %s, ours proven=%s" % (i, verdict[0], ours["proven"]))
            if proven:
                d = parse_ministat_difference(verdict)
                if not (close(d[0], ours["diff"], 1e-4) and close(d[1], ours["half"], 2e-3) and
                        close(d[2], ours["rel"], 1e-4) and close(d[3], ours["rel_half"], 2e-3)):
                    agree = False
                    details.append("set %d: ministat %s ours %s" % (i, d, ours))
        shutil.rmtree(wd, ignore_errors=True)
        nproven = sum(1 for a, bb in sets if pooled_t(a, bb)["proven"])
        tap.ok(agree and 0 < nproven < len(sets),
               "own pooled Student's t agrees with ministat -c 95 (verdicts, difference, CI) on 6 data sets",
               "\n".join(details) or "need both verdicts among the sets")
        verdict, _ = run_ministat([1, 2, 3, 4, 5], [2, 3, 4, 5, 9], "x", "y", tempfile.mkdtemp(prefix="ncr-"))
        tap.ok(verdict == ["No difference proven at 95.0% confidence"], "ministat verdict quoted verbatim", verdict)
    else:
        tap.ok(False, "ministat installed (apt-get install ministat)")
    # generators, against the selftest's method
    b, v = entry_bounds(TYPES["net_port"])
    tap.ok(len(b) == 1001 and b[0] == (1, 2) and b[1] == (3, 4) and v == b[-1][0],
           "generator: entries+1 ranges [s, s+1] two apart; packet hits the last one")
    tap.ok(element(TYPES["net_port"], "test", 1, 2) == "10.0.0.6-10.0.0.7 . 2-3" and
           element(TYPES["net_port"], "norange", 1, 2) == "10.0.0.6 . 2" and
           element(TYPES["net_port"], "noconcat", 1, 2) == "10.0.0.6-10.0.0.7",
           "generator: element formats as in nft_concat_range.sh (test, norange, noconcat)")
    tap.ok(element(TYPES["net6_port_mac_proto"], "test", 10, 11) ==
           "2001:db8::0000:000a-2001:db8::0000:000b . 11-12 . 00:01:00:00:00:0a-00:01:00:00:00:0b . udp",
           "generator: IPv6, MAC and proto fields")
    b, _ = entry_bounds(dict(TYPES["net_port"], entries=40000))
    tap.ok(all((s // 65534) == (e // 65534) for s, e in b), "generator: no range crosses a port wrap")
    r = gen_rules(TYPES["net_port"], "pipapo", 3)
    tap.ok(r.count("@test") == 3 and r.count("drop") == 1 and r.startswith("flush chain"),
           "rules: N lookup rules, the last one counts and drops")
    tap.ok("counter name \"test\" drop" in gen_rules(TYPES["net_port"], "drop", 0), "rules: drop-only cell")
    sets = set_defs(TYPES["net_port"])
    cmds, files = nftlab_load.nftlab_commands(TABLE, CHAIN, "d0", sets, "sets-x")
    nft = gen_sets(sets, "d0")
    tap.ok(cmds.count("\nset\tadd") == 3 and
           sorted(files) == ["sets-x-noconcat.elems", "sets-x-norange.elems", "sets-x-test.elems"] and
           all(e in nft for e in files["sets-x-test.elems"].splitlines()) and
           len(files["sets-x-norange.elems"].splitlines()) == 1001,
           "nftlab load: 3 sets, element files with the elements of the nft script")
    lt = nftlab_load.load_table([dict(type="net_port", nft_s=2.0, nftlab_s=0.5, same="1"),
                                 dict(type="net_port", nft_s=4.0, nftlab_s=1.5, same="0")],
                                ["net_port"], {"net_port": 1000})
    tap.ok(lt[0]["nft_s"] == 3.0 and lt[0]["nftlab_s"] == 1.0 and lt[0]["ratio"] == 1.0 / 3 and
           (lt[0]["same"], lt[0]["compared"]) == (1, 2) and
           "DIFFERENT" in nftlab_load.render_loads(lt, {"net_port": "net,port"}),
           "load table: medians, ratio, a differing listing is flagged", lt)
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
    parsed = basecmp.parse_output(log, [TYPES[t]["display"] for t in TYPES])
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
    lo, hi = prediction_interval([1.0, 2.0, 3.0])
    tap.ok(abs(hi - (2 + t_two_sided(2) * math.sqrt(4.0 / 3))) < 1e-9 and abs(lo + hi - 4) < 1e-9,
           "prediction interval mean +/- t s sqrt(1 + 1/n)", (lo, hi))
    p = packet(TYPES["net6_port"])
    tap.ok(p["ipver"] == 6 and p["addr"] == fmt_addr6(2010) and p["size"] == 100, "packet fields of net6,port", p)
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
    wd = tempfile.mkdtemp(prefix="ncr-steal-")
    try:
        write(os.path.join(wd, "steal.tsv"), "r1-a\t5\t1000\nr1-b\t40\t1000\nr2-a\t0\t0\n")
        m = collect_meta(wd)
        head = header_text(m, [])
        tap.ok(m["steal"] == {"r1-a": 0.5, "r1-b": 4.0} and
               "host steal:  2.2% of the host's CPU time went to other guests during the boots (median; "
               "max 4.0% in r1-b)" in head, "steal.tsv: stolen share per boot, median and worst in the header", head)
    finally:
        shutil.rmtree(wd, ignore_errors=True)
    # the whole report pipeline on synthetic samples with known costs
    wd = tempfile.mkdtemp(prefix="ncr-synth-")
    try:
        model = synth_results(wd)
        rc = do_report(argparse.Namespace(resdir=wd, quiet=True))
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
        t1inv = res["tables"]["T1"]["rows"][1]["kernels"]["baseline-retpoline"]["status"]["hash"]
        tap.ok(t1inv.startswith("INVALID"), "report on synthetic data: a cell with a bad counter is INVALID", t1inv)
        text = open(os.path.join(wd, "report.md")).read()
        tap.ok(all(t + ":" in text for t in ALL_TABLES) and "INVALID" in text, "report on synthetic data: report.md tables")
        if shutil.which("gnuplot"):
            tap.ok(all(os.path.isfile(os.path.join(wd, t + ".svg")) for t in ALL_TABLES), "report on synthetic data: SVGs")
        else:
            tap.ok(False, "gnuplot installed (apt-get install gnuplot-nox)")
        v = subprocess.run([sys.executable, os.path.abspath(__file__), "validate", wd],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        tap.ok(v.returncode != 0 and "not ok" in v.stdout and "INVALID" not in v.stdout,
               "validate flags the invalid synthetic sample", v.stdout[-400:])
        aa_line = [ln for ln in v.stdout.splitlines() if "T2 A/A pair shows no difference" in ln]
        want_ok = t2["aa"].get("proven") is False
        tap.ok(len(aa_line) == 1 and aa_line[0].startswith("ok" if want_ok else "not ok") and "SKIP" not in aa_line[0],
               "validate's A/A line follows the synthetic A/A verdict (%s)" % t2["aa"]["verdict"], aa_line)
    finally:
        shutil.rmtree(wd, ignore_errors=True)
    if args.count_file:
        write(args.count_file, "%d %d\n" % (tap.n, tap.failed))
    return 1 if tap.failed else 0


def synth_results(wd):
    """A results directory with samples drawn from a known cost model:
    ns/packet = drop + n * lookup (per backend, kernel, knob) + noise."""
    rng = random.Random(7)
    drop_ns = 800.0
    cost = {("baseline", "-"): 60.0, ("patched", "-"): 50.0, ("patched", "0"): 50.0,
            ("patched", "1"): 65.0, ("plain", "-"): 48.0}
    write(os.path.join(wd, "run.env"), "mode=default\ntables=%s\nrounds=2\nreps_per_boot=4\n"
          "duration=0.5\nt2_lookups=10\nknob=net.netfilter.nft_force_indirect_calls\nburst=1000\n"
          "date=synthetic\n" % ",".join(ALL_TABLES))
    kt = []
    for role in ROLES:
        kt.append("%s\tok\t%s" % (role, wd))
        for rnd in (1, 2):
            d = os.path.join(wd, "raw", "r%d-%s" % (rnd, role))
            os.makedirs(os.path.join(d, "out"))
            write(os.path.join(d, "boot.json"), json.dumps(dict(role=role, round=rnd, kernel=wd, status=0)))
            lines = []
            variant, flavor = ROLES[role]
            key = "plain" if flavor == "plain" else variant
            for g, cells in groups_for(role, list(ALL_TABLES), DEFAULT_T2_LOOKUPS):
                for rep in range(1, 5):
                    for c in cells:
                        k = c["knob"]
                        per = cost.get((key, k), cost.get((key, "-")))
                        ns = drop_ns + c["n"] * per * (1.0 if c["backend"] != "rbtree" else 1.3)
                        ns *= 1 + rng.gauss(0, 0.002)
                        pps = 1e9 / ns
                        sofar = int(pps * 0.5)
                        bad = role == "baseline-retpoline" and c["cell"] == "T1/port_net/hash/n1/k-" and rep == 2
                        lines.append("\t".join(str(x) for x in (
                            c["cell"], rep, k, k, 500000, sofar, 0, sofar - (1 if bad else 0), 0, "%.1f" % pps,
                            0 if bad else 1, "counter %d != sent %d" % (sofar - 1, sofar) if bad else "ok")))
            write(os.path.join(d, "out", "samples.tsv"), "\n".join(lines) + "\n")
    write(os.path.join(wd, "kernels.tsv"), "\n".join(kt) + "\n")
    return {"T1 pipapo patched": cost[("patched", "-")], "T3 slope k1": cost[("patched", "1")],
            "T6 cost k0": cost[("patched", "0")], "T6 cost k1": cost[("patched", "1")]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("plan", help="write a boot's plan and nft scripts")
    p.add_argument("--role", required=True, choices=sorted(ROLES))
    p.add_argument("--tables", default=",".join(ALL_TABLES))
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--duration", default="1")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--dev", default="nftb0")
    p.add_argument("--t2-lookups", type=int, default=DEFAULT_T2_LOOKUPS)
    p.add_argument("--every", action="store_true", help="every scenario on this kernel (quick)")
    p.add_argument("--out", required=True)
    p = sub.add_parser("roles", help="kernel roles the tables need")
    p.add_argument("--tables", default=",".join(ALL_TABLES))
    p = sub.add_parser("report", help="results.json, report.md and SVGs of a results dir")
    p.add_argument("resdir")
    p.add_argument("--quiet", action="store_true")
    p = sub.add_parser("validate", help="TAP checks of a results dir")
    p.add_argument("resdir")
    p.add_argument("--tap-start", type=int, default=0)
    p.add_argument("--count-file")
    p = sub.add_parser("drift", help="why samples of one cell differ within a boot (stored runs)")
    p.add_argument("paths", nargs="+", help="results directories or results .json files")
    p = sub.add_parser("selftest", help="TAP unit tests of the statistics")
    p.add_argument("--tap-start", type=int, default=0)
    p.add_argument("--count-file")
    args = ap.parse_args()
    if args.cmd == "plan":
        write_plan(args)
        return 0
    if args.cmd == "roles":
        for r in roles_for(parse_tables(args.tables)):
            print("%s %s %s" % ((r,) + ROLES[r]))
        return 0
    if args.cmd == "report":
        return do_report(args)
    if args.cmd == "validate":
        return do_validate(args)
    if args.cmd == "drift":
        return do_drift(args)
    return do_selftest(args)


if __name__ == "__main__":
    sys.exit(main())
