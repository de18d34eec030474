# SPDX-License-Identifier: GPL-2.0
"""Sets, packets and nft scripts, generated with the selftest's method.

nft_concat_range.sh's generator, reimplemented (and checked by the unit
tests): entries + 1 ranges [s, s + 1], two apart, from the type's start
value, never crossing a port wrap; the test packet hits the last entry.
"""
from .model import (BACKENDS, CHAIN, DYNSET_SET, EGRESS_CHAIN, SET_BY_NAME, SETS, TABLE)


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
    n = tdef.entries if entries is None else entries
    start, size = tdef.start, 1
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


def element(tdef, set_name, s, e):
    """One element of set SET_NAME (a Set of model.SETS) in nft syntax."""
    st = SET_BY_NAME[set_name]
    fields = tdef.fields if st.concat else tdef.fields[:1]
    parts = []
    for f in fields:
        fs, fe = FORMAT[f](s), FORMAT[f](e)
        # a protocol is one value, never a range
        parts.append("%s-%s" % (fs, fe) if st.interval and f != "proto" else fs)
    return " . ".join(parts)


def packet(tdef, entries=None):
    """Header fields of the test packet (pktgen parameters)."""
    _, v = entry_bounds(tdef, entries)
    p = {"ipver": tdef.ipver, "mac": fmt_mac(v), "port": fmt_port(v),
         "size": 80 if tdef.ipver == 4 else 100}
    p["addr"] = fmt_addr6(v) if tdef.ipver == 6 else fmt_addr4(v)
    return p


def set_defs(tdef, entries=None):
    """The three sets of the selftest, in creation order:
    [(name, key type, interval, [elements in nft syntax])]."""
    bounds, _ = entry_bounds(tdef, entries)
    out = []
    for st in SETS:
        elems = [element(tdef, st.name, s, e) for s, e in bounds]
        if not st.concat and tdef.fields[0] == "proto":
            elems = sorted(set(elems))
        out.append((st.name, tdef.type_spec if st.concat else tdef.first_type, st.interval, elems))
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
    st = SET_BY_NAME[BACKENDS[backend].set]
    return "%s @%s" % (tdef.spec if st.concat else tdef.first_spec, st.name)


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


def gen_ingress_table(dev, objects=()):
    """nft script: the table (created anew) with the counter, OBJECTS (lines
    inside the table) and an empty ingress chain on DEV."""
    return "\n".join([
        "add table netdev %s" % TABLE, "delete table netdev %s" % TABLE,
        "table netdev %s {" % TABLE, "\tcounter test { }"] + ["\t" + o for o in objects] + [
        "\tchain %s { type filter hook ingress device \"%s\" priority 0; }" % (CHAIN, dev),
        "}"]) + "\n"


def gen_dynset_sets(dev):
    """nft script: the dynset table, an empty rhash dynamic set and the chain."""
    return gen_ingress_table(dev, ["set %s { type ipv4_addr; size 65536; flags dynamic,timeout; timeout 1h; }"
                                   % DYNSET_SET])


def gen_dynset_rules(backend):
    """nft script of a dynset cell: drop only, or update @dyn then drop."""
    out = ["flush chain netdev %s %s" % (TABLE, CHAIN)]
    upd = "update @%s { ip saddr } " % DYNSET_SET if backend == "update" else ""
    out.append("add rule netdev %s %s %scounter name \"test\" drop" % (TABLE, CHAIN, upd))
    return "\n".join(out) + "\n"


# The conntrack scenarios (T0 and T7): conntrack's own hooks next to
# nf_tables chains.  The group's table counts every packet at netdev
# ingress (the count that validates a sample); each cell then sets up the
# IP layer behind it.  The packet has no route and is dropped after
# prerouting, before conntrack confirms it, so every packet that goes
# through conntrack allocates and frees one conntrack entry.
CT_TABLE = "nftbench_ct"
# cell backend: the hook of the ip table's chain that tests ct state, None
# for no ip table.  A chain at any hook registers all of conntrack's hooks
# of the family; pktgen's packets never reach the output hook, so with
# "ctonly" conntrack's defrag (-400) and conntrack (-200) hooks run at
# prerouting with no nf_tables chain beside them.  The group's sets file is
# gen_ingress_table().
CT_HOOKS = {"ctbase": None, "ctonly": "output", "ct": "prerouting"}
# The groups' pktgen options: conntrack attaches its entry to the skb, and
# within a burst pktgen would send the same skb again.
CT_PGOPTS = "burst 1"


def gen_ct_rules(backend):
    """nft script of a conntrack cell: count, then on to the IP layer, with
    the ip table of CT_HOOKS[BACKEND] (created anew) or none."""
    out = ["flush chain netdev %s %s" % (TABLE, CHAIN),
           "add rule netdev %s %s counter name \"test\" accept" % (TABLE, CHAIN),
           "add table ip %s" % CT_TABLE, "delete table ip %s" % CT_TABLE]
    hook = CT_HOOKS[backend]
    if hook:
        out += ["table ip %s {" % CT_TABLE,
                "\tchain c { type filter hook %s priority 0; ct state new,established accept; }" % hook,
                "}"]
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
