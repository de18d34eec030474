# SPDX-License-Identifier: GPL-2.0
"""nft scripts for the reference model's sets, and reading sets back.

Everything goes through the nft binary (the one the selftests use), one
`nft -f` per transaction, so what the kernel sees is what users send."""
import ipaddress
import json
import subprocess

from .model import FIELDS


class NftError(Exception):
    pass


def run(script, check=True):
    """Applies SCRIPT as one transaction; returns (status, stderr)."""
    p = subprocess.run(["nft", "-f", "-"], input=script, text=True,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if check and p.returncode != 0:
        raise NftError("nft -f failed (%d): %s\n--- script head:\n%s" %
                       (p.returncode, p.stderr.strip(), script[:2000]))
    return p.returncode, p.stderr


def value(fname, v):
    if FIELDS[fname][0] == "ipv4_addr":
        return str(ipaddress.IPv4Address(v))
    return str(v)


def element(kind, e, timeout=None):
    parts = []
    for f, (lo, hi) in zip(kind.fields, e.ranges):
        parts.append(value(f, lo) if lo == hi else "%s-%s" % (value(f, lo), value(f, hi)))
    s = " . ".join(parts)
    if timeout is not None:
        s += " timeout %s" % timeout
    return s


def elements_cmd(verb, family, table, setname, kind, elems, expire_timeout="1s"):
    """One `add|delete element` command; an expiring element gets
    EXPIRE_TIMEOUT (adds only)."""
    items = [element(kind, e, expire_timeout if (verb == "add" and e.expires) else None)
             for e in elems]
    if not items:
        return ""
    return "%s element %s %s %s { %s }\n" % (verb, family, table, setname, ", ".join(items))


def table_sets(family, table):
    """{set name: [element, ...]} of a table, from one `nft -j list table`
    (nft reads every set of the table to list one of them anyway)."""
    p = subprocess.run(["nft", "-j", "list", "table", family, table],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        raise NftError("nft -j list table %s %s: %s" % (family, table, p.stderr.strip()))
    return {obj["set"]["name"]: obj["set"].get("elem", [])
            for obj in json.loads(p.stdout)["nftables"] if "set" in obj}


def addr_port_pairs(elems):
    """The (addr, port) pairs of the elements of an ipv4_addr . inet_service set."""
    out = set()
    for el in elems:
        if isinstance(el, dict) and "elem" in el:
            el = el["elem"]["val"]
        a, p = el["concat"]
        out.add((int(ipaddress.IPv4Address(a)), int(p)))
    return out
