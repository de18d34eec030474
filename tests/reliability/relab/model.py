# SPDX-License-Identifier: GPL-2.0
"""The reference model of an nf_tables set: what a lookup must answer.

A set is a list of elements; an element is one closed range per key field
(an exact element is a range of one value) and an expiry flag.  A key is one
value per field.  match() is the definition the kernel's backends are
checked against: a key matches when one element that has not expired holds
every field of the key in its range.  Nothing here knows about nft or
netlink (relab.nftio renders and reads), so the model is tested on its own.

Keys of every set kind are probed with the same packets, an (IPv4
destination, UDP destination port) pair: FIELDS names the part of the
packet each key field is.
"""
import ipaddress
import random
from dataclasses import dataclass, field

# Field name -> (nft type, packet expression, smallest and largest value of
# the universe keys are drawn from).  The universe is small on purpose:
# random probes land in and next to elements often.
FIELDS = {
    "addr": ("ipv4_addr", "ip daddr",
             int(ipaddress.IPv4Address("10.0.0.0")),
             int(ipaddress.IPv4Address("10.0.15.255"))),
    "port": ("inet_service", "udp dport", 1000, 1999),
}
PROBE_FIELDS = ("addr", "port")


@dataclass(frozen=True)
class Kind:
    """One set declaration, named after the backend 6.12 selects for it.

    The backend follows from nft_select_set_ops()'s estimates: a size hint
    and a 4-byte key give hash_fast, a size hint and a longer key hash, no
    size hint (or timeouts) rhash, a 2-byte exact key bitmap, one interval
    field rbtree, intervals over concatenated fields pipapo."""
    name: str
    fields: tuple
    interval: bool = False
    timeout: bool = False
    size: int = 0

    def decl(self):
        types = " . ".join(FIELDS[f][0] for f in self.fields)
        flags = [f for f, on in (("interval", self.interval),
                                 ("timeout", self.timeout)) if on]
        parts = ["type %s;" % types]
        if flags:
            parts.append("flags %s;" % ",".join(flags))
        if self.size:
            parts.append("size %d;" % self.size)
        return " ".join(parts)

    def key_expr(self):
        return " . ".join(FIELDS[f][1] for f in self.fields)


KINDS = (
    Kind("hash_fast", ("addr",), size=65536),
    Kind("hash", ("addr", "port"), size=65536),
    Kind("rhash", ("addr",)),
    Kind("rhash_timeout", ("addr", "port"), timeout=True),
    Kind("bitmap", ("port",)),
    Kind("rbtree", ("addr",), interval=True),
    Kind("rbtree_port", ("port",), interval=True),
    Kind("rbtree_timeout", ("addr",), interval=True, timeout=True),
    Kind("pipapo", ("addr", "port"), interval=True),
    Kind("pipapo_timeout", ("addr", "port"), interval=True, timeout=True),
)


@dataclass(frozen=True)
class Element:
    ranges: tuple          # ((lo, hi), ...) one per field of the kind
    expires: bool = False  # loaded with a timeout short enough to expire

    def holds(self, key):
        return all(lo <= v <= hi for (lo, hi), v in zip(self.ranges, key))


@dataclass
class SetModel:
    kind: Kind
    elements: list = field(default_factory=list)

    def key_of(self, probe):
        """The part of a probe (addr, port) this set's key is made of."""
        return tuple(probe[PROBE_FIELDS.index(f)] for f in self.kind.fields)

    def match(self, probe):
        key = self.key_of(probe)
        return any(not e.expires and e.holds(key) for e in self.elements)

    def overlaps(self, cand):
        # Intervals of one set may not overlap (nft refuses); disjoint first
        # fields are enough for concatenations too.
        lo, hi = cand.ranges[0]
        return any(not (hi < e.ranges[0][0] or lo > e.ranges[0][1])
                   for e in self.elements)


def _range(rng, fname, width):
    lo_u, hi_u = FIELDS[fname][2], FIELDS[fname][3]
    lo = rng.randint(lo_u, hi_u)
    return lo, min(hi_u, lo + rng.randint(0, width))


def new_element(rng, model, expiring):
    """A random element for MODEL that is not in it yet (exact sets) or
    does not overlap it (interval sets); None when 100 tries found none."""
    kind = model.kind
    for _ in range(100):
        if kind.interval:
            # A mix of single values, short and long ranges.
            width = rng.choice((0, 3, 40, 300))
            ranges = tuple(_range(rng, f, width if i == 0 else rng.choice((0, 10, 200)))
                           for i, f in enumerate(kind.fields))
        else:
            ranges = tuple((v, v) for v in (_range(rng, f, 0)[0] for f in kind.fields))
        cand = Element(ranges, expiring and kind.timeout)
        if kind.interval:
            if not model.overlaps(cand):
                return cand
        elif all(e.ranges != cand.ranges for e in model.elements):
            return cand
    return None


def populate(rng, model, count):
    """Adds up to COUNT new elements; a fifth of them expire in timeout sets."""
    added = []
    for _ in range(count):
        e = new_element(rng, model, rng.random() < 0.2)
        if e is None:
            break
        model.elements.append(e)
        added.append(e)
    return added


def probes_for(rng, models, randoms):
    """Probe packets: every element's bounds, their neighbours outside and a
    value inside, each combined with random other fields, and RANDOMS
    packets anywhere in the universe."""
    def rand_probe():
        return tuple(rng.randint(FIELDS[f][2], FIELDS[f][3]) for f in PROBE_FIELDS)

    out = set()
    for m in models:
        for e in m.elements:
            for i, f in enumerate(m.kind.fields):
                lo, hi = e.ranges[i]
                for v in (lo, hi, lo - 1, hi + 1, rng.randint(lo, hi)):
                    if not FIELDS[f][2] <= v <= FIELDS[f][3]:
                        continue
                    # the other fields of the key inside the element, so
                    # that the value of this field decides the match
                    p = list(rand_probe())
                    for j, g in enumerate(m.kind.fields):
                        p[PROBE_FIELDS.index(g)] = (v if j == i else
                                                    rng.randint(*e.ranges[j]))
                    out.add(tuple(p))
    for _ in range(randoms):
        out.add(rand_probe())
    return sorted(out)


def self_test():
    """The model's own checks (run by make check on the host)."""
    failures = []

    def check(cond, what):
        if not cond:
            failures.append(what)

    k = Kind("t", ("addr", "port"), interval=True, timeout=True)
    m = SetModel(k, [Element(((10, 20), (5, 5))), Element(((30, 30), (1, 9)), True)])
    check(m.match((10, 5)) and m.match((20, 5)) and m.match((15, 5)), "range bounds match")
    check(not m.match((9, 5)) and not m.match((21, 5)), "neighbours outside miss")
    check(not m.match((15, 6)), "second field outside misses")
    check(not m.match((30, 5)), "an expired element never matches")
    check(m.overlaps(Element(((20, 25), (0, 0)))), "touching ranges overlap")
    check(not m.overlaps(Element(((21, 25), (0, 0)))), "adjacent ranges do not")
    single = SetModel(Kind("p", ("port",)), [Element(((1000, 1000),))])
    check(single.match((1, 1000)) and not single.match((1, 1001)), "key of a port set is the port")
    rng = random.Random(1)
    models = [SetModel(kd) for kd in KINDS]
    for mm in models:
        populate(rng, mm, 50)
        for a in mm.elements:
            for b in mm.elements:
                if a is not b and mm.kind.interval:
                    check(a.ranges[0][1] < b.ranges[0][0] or a.ranges[0][0] > b.ranges[0][1],
                          "%s: generated intervals are disjoint" % mm.kind.name)
        check(len(mm.elements) == 50, "%s: 50 elements generated" % mm.kind.name)
    probes = probes_for(random.Random(2), models, 100)
    for mm in models:
        hits = sum(mm.match(p) for p in probes)
        check(0 < hits < len(probes), "%s: probes both hit and miss" % mm.kind.name)
    check(probes_for(random.Random(2), models, 100) == probes, "probes depend on the seed only")
    return failures
