# SPDX-License-Identifier: GPL-2.0
"""The suite's vocabulary: set types, sets, backends, kernel roles, cells.

A set type is one SetType record and a backend one Backend record: adding
either is one entry here (and, for a backend, its lookup in the kernel).
Everything else (generators, plans, tables, the base script's parser)
iterates over these records.
"""
from dataclasses import dataclass
from typing import Optional, Tuple

SCHEMA = "nftlab-bench/3"
TABLE = "nftbench"           # nft table used by the guest (netdev family)
CHAIN = "in"
DEV = "nftb0"                # the dummy device of the plans (guest/run-plan's NFTB_DEV default)
EGRESS_CHAIN = "out"
DEFAULT_T2_LOOKUPS = 10      # amplification for the per-lookup tables


# --------------------------------------------------------------------------
# Set types: the rows of seed 002 (Brivio's table), defined like the TYPE_
# variables of nft_concat_range.sh (perf_spec, perf_dst, perf_entries).
# --------------------------------------------------------------------------
@dataclass(frozen=True)
class SetType:
    name: str
    display: str
    type_spec: str            # key type of the concatenation
    spec: str                 # the packet fields looked up
    fields: Tuple[str, ...]   # generator formats, one per field (generators.FORMAT)
    entries: int
    ipver: int
    start: int
    selftest_spec: Optional[str] = None   # the selftest's spec where ours differs (SPEC_NOTE)

    @property
    def first_type(self):
        return self.type_spec.split(" . ")[0]

    @property
    def first_spec(self):
        return self.spec.split(" . ")[0]


def _types(*records):
    return {r.name: r for r in records}


TYPES = _types(
    SetType("net_port", "net,port", "ipv4_addr . inet_service", "ip daddr . udp dport",
            ("addr4", "port"), entries=1000, ipver=4, start=1),
    SetType("port_net", "port,net", "inet_service . ipv4_addr", "udp dport . ip daddr",
            ("port", "addr4"), entries=100, ipver=4, start=1),
    SetType("net6_port", "net6,port", "ipv6_addr . inet_service", "ip6 daddr . udp dport",
            ("addr6", "port"), entries=1000, ipver=6, start=10),
    SetType("port_proto", "port,proto", "inet_service . inet_proto", "udp dport . ip protocol",
            ("port", "proto"), entries=10000, ipver=4, start=1, selftest_spec="udp dport . meta l4proto"),
    SetType("net6_port_mac", "net6,port,mac", "ipv6_addr . inet_service . ether_addr",
            "ip6 daddr . udp dport . ether daddr", ("addr6", "port", "mac"), entries=10, ipver=6, start=10),
    SetType("net6_port_mac_proto", "net6,port,mac,proto",
            "ipv6_addr . inet_service . ether_addr . inet_proto",
            "ip6 daddr . udp dport . ether daddr . ip6 nexthdr", ("addr6", "port", "mac", "proto"),
            entries=1000, ipver=6, start=10,
            selftest_spec="ip6 daddr . udp dport . ether daddr . meta l4proto"),
    SetType("net_mac", "net,mac", "ipv4_addr . ether_addr", "ip daddr . ether daddr", ("addr4", "mac"),
            entries=1000, ipver=4, start=1),
)
TYPE_ORDER = tuple(TYPES)
# The lab kernels (UML, 6.12.117, baseline and patched) reject `meta l4proto`
# as a field of a lookup in an interval (pipapo) concatenation with
# EOPNOTSUPP, while the hash set accepts it.  The two rows that use it match
# the protocol from the IP header instead (the same value for these packets,
# which carry no extension headers); the report says so.
SPEC_NOTE = ("port,proto and net6,port,mac,proto match the protocol with `ip protocol` / "
             "`ip6 nexthdr` instead of the selftest's `meta l4proto`: the lab kernels reject "
             "`meta l4proto` in pipapo lookups (EOPNOTSUPP).")


# --------------------------------------------------------------------------
# Sets and backends.  The selftest creates three sets per type; which
# backend nf_tables picks follows from the set's shape (concatenation,
# intervals), so a backend is named by the set it looks up.
# --------------------------------------------------------------------------
@dataclass(frozen=True)
class Set:
    name: str
    concat: bool       # every field of the type, else the first only
    interval: bool     # ranges (flags interval)


SETS = (Set("test", concat=True, interval=True),          # creation order, as the selftest
        Set("norange", concat=True, interval=False),
        Set("noconcat", concat=False, interval=True))
SET_BY_NAME = {s.name: s for s in SETS}


@dataclass(frozen=True)
class Backend:
    name: str
    set: str           # the set of SETS its lookups go to
    label: str         # T1's column header
    base_line: str     # regex of the base perf script's rate line (basecmp)


def _backends(*records):
    return {r.name: r for r in records}


# Iterating BACKENDS gives the names, in the tables' column order.
BACKENDS = _backends(
    Backend("hash", "norange", "hash (no ranges)", r"baseline hash \(non-ranged entries\):\s+(\d+)pps"),
    Backend("rbtree", "noconcat", "rbtree (single field)",
            r"baseline rbtree \(match on first field only\):\s+(\d+)pps"),
    Backend("pipapo", "test", "pipapo", r"set with\s+(\d+) full, ranged entries:\s+(\d+)pps"),
)


# --------------------------------------------------------------------------
# Kernel roles -> (variant, flavor)
# --------------------------------------------------------------------------
ROLES = {
    "baseline-retpoline": ("baseline", "retpoline"),
    "patched-retpoline": ("patched", "retpoline"),
    "patched-plain": ("patched", "plain"),
    "baseline-eibrs": ("baseline", "eibrs"),
    "patched-eibrs": ("patched", "eibrs"),
}


# --------------------------------------------------------------------------
# T6's dynset update path (patch 3), shared with T0.  One rhash set that the
# rule adds the packet's source address to (or refreshes it in), pktgen
# cycling over DYNSET_ADDRS source addresses so that the set holds that many
# elements and every packet updates one of them.
# --------------------------------------------------------------------------
DYNSET_SET = "dyn"
DYNSET_ADDRS = 1000
DYNSET_SRC = "src_min 10.1.0.0;src_max 10.1.%d.%d" % ((DYNSET_ADDRS - 1) // 256, (DYNSET_ADDRS - 1) % 256)


# --------------------------------------------------------------------------
# Cells: one measured configuration of a group.  The plan carries a cell's
# CELL_FIELDS to the guest as named fields and its knob on its own; the
# guest writes both back with every sample.  The ID names a cell inside
# the host's analysis (and in results.json), never on its way to the guest.
# --------------------------------------------------------------------------
CELL_FIELDS = ("table", "type", "backend", "n", "tag")


def cell_id(table, tname, backend, n, knob, tag=""):
    return "%s/%s/%s/n%d/k%s%s" % (table, tname, backend, n, knob, tag)


def fields_cell_id(fields, knob):
    """The ID of the cell whose CELL_FIELDS are FIELDS, with knob KNOB."""
    return cell_id(fields["table"], fields["type"], fields["backend"], fields["n"], knob, fields["tag"])


def cell(table, tname, backend, n, knob, tag=""):
    return dict(cell=cell_id(table, tname, backend, n, knob, tag), table=table, type=tname, backend=backend,
                n=n, knob=knob, tag=tag)


def drop_cell_id(cid):
    """The drop-only cell a lookup cell CID is paired with: same table,
    type, knob and tag."""
    table, tname, _, _, knob_tag = cid.split("/")
    return "%s/%s/drop/n0/%s" % (table, tname, knob_tag)


def parse_cell_id(cid):
    """The fields a sample's cell ID encodes (table, type, backend, n, tag)."""
    c = cid.split("/")
    # c[4] is "k" + the one-character knob + the tag
    return dict(table=c[0], type=c[1], backend=c[2], n=int(c[3][1:]), tag=c[4][2:])
