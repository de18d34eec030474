#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of nft_concat_range/nftbench's generators and plans: sets,
elements and packets as nft_concat_range.sh makes them, rules, the
nftlab side of a load.

TAP; [--tap-start N] [--count-file PATH] as bench-quick chains its tests."""
import json
import os
import shlex
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "nft_concat_range"))
import re  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
from dataclasses import replace  # noqa: E402

from nftbench import loads  # noqa: E402
from nftbench import tap as taplib  # noqa: E402
from nftbench.generators import (CT_HOOKS, element, entry_bounds, fmt_addr6, gen_ct_rules, gen_rules,  # noqa: E402
                                 gen_sets, lookup_expr, packet, set_defs)
from nftbench.model import CHAIN, TABLE, TYPES, fields_cell_id  # noqa: E402
from nftbench.plans import expected_cells, write_plan  # noqa: E402
from nftbench.tables import ALL_TABLES, TABLES  # noqa: E402


def main():
    tap, count_file = taplib.from_argv()
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
    b, _ = entry_bounds(replace(TYPES["net_port"], entries=40000))
    tap.ok(all((s // 65534) == (e // 65534) for s, e in b), "generator: no range crosses a port wrap")
    r = gen_rules(TYPES["net_port"], "pipapo", 3)
    tap.ok(r.count("@test") == 3 and r.count("drop") == 1 and r.startswith("flush chain"),
           "rules: N lookup rules, the last one counts and drops")
    tap.ok("counter name \"test\" drop" in gen_rules(TYPES["net_port"], "drop", 0), "rules: drop-only cell")
    sets = set_defs(TYPES["net_port"])
    script, files = loads.nftlab_script(TABLE, CHAIN, "d0", sets, "sets-x")
    nft = gen_sets(sets, "d0")
    # nftlab -f splits its lines as a shell does (nftlab(8), SCRIPTS)
    cmds = [shlex.split(ln) for ln in script.splitlines() if not ln.startswith("#")]
    tap.ok([c[:2] for c in cmds] == [["table", "add"], ["counter", "add"]] + [["set", "add"]] * 3 +
           [["chain", "add"]] + [["element", "add"]] * 3 and
           cmds[2] == ["set", "add", "netdev", TABLE, "test", "--type", "ipv4_addr . inet_service", "--flags",
                       "interval"] and
           sorted(c[-1] for c in cmds[6:]) == sorted(files) ==
           ["sets-x-noconcat.elems", "sets-x-norange.elems", "sets-x-test.elems"] and
           all(e in nft for e in files["sets-x-test.elems"].splitlines()) and
           len(files["sets-x-norange.elems"].splitlines()) == 1001,
           "nftlab load: one script of the table, its counter, 3 sets (types quoted), the chain and 3 element "
           "files with the elements of the nft script", cmds[:3])
    p = packet(TYPES["net6_port"])
    tap.ok(p["ipver"] == 6 and p["addr"] == fmt_addr6(2010) and p["size"] == 100, "packet fields of net6,port", p)
    # a backend record names the set its lookups go to (model.BACKENDS)
    tap.ok([lookup_expr(TYPES["net_port"], b) for b in ("hash", "rbtree", "pipapo")] ==
           ["ip daddr . udp dport @norange", "ip daddr @noconcat", "ip daddr . udp dport @test"],
           "lookups: hash on the set without ranges, rbtree on the first field, pipapo on the ranged concatenation")
    with tempfile.TemporaryDirectory() as d:
        n = write_plan("patched-retpoline", list(ALL_TABLES), 2, "1", 1, "d0", 10, True, d)
        plan = [ln.split("\t") for ln in open(os.path.join(d, "plan.tsv")) if not ln.startswith("#")]
        cells = [f for f in plan if f[0] == "cell"]
        groups = {f[1]: f for f in plan if f[0] == "group"}
        want = expected_cells("patched-retpoline", list(ALL_TABLES), 10, every=True)
        # cell GID KNOB RULES REP CHECKS FIELDS
        got = {fields_cell_id(json.loads(f[6]), f[2]) for f in cells}
        tap.ok(n == len(cells) == 2 * len(want) and got == want and
               all(os.path.isfile(os.path.join(d, f[3])) for f in cells) and
               all(os.path.isfile(os.path.join(d, g[9])) for g in groups.values() if g[9] != "-") and
               groups["T6-dynset"][10].strip() == TABLES["T6"].PGOPTS and
               groups["T7-ct"][10].strip() == TABLES["T7"].PGOPTS,
               "plan (quick): every table's cells twice, each with its rules file; sets files; T6's and T7's pktgen "
               "options", (n, len(cells), len(want)))
        # every table a cell's script may create is one the guest deletes
        listed = {(f[1], f[2].strip()) for f in plan if f[0] == "table"}
        made = set()
        for name in os.listdir(d):
            if name.endswith(".nft"):
                made |= set(re.findall(r"^(?:add )?table (\w+) (\w+)", open(os.path.join(d, name)).read(), re.M))
        tap.ok(made and made <= listed, "plan: the tables the scripts create are the plan's table lines",
               (sorted(made), sorted(listed)))
        checks = {(groups[f[1]][2], json.loads(f[6])["backend"], f[5]) for f in cells}
        tap.ok({c for m, _, c in checks if m == "ingress"} == {"counter"} and
               {(b, c) for m, b, c in checks if m == "egress"} ==
               {("nohook", "tx,nocounter,noerrors"), ("egress", "counter,tx,noerrors")},
               "plan: ingress samples check the rule counter; egress ones tx_packets and pktgen's errors, the "
               "counter where the hook has one and its absence where not", sorted(checks))
    ct = {b: gen_ct_rules(b) for b in CT_HOOKS}
    tap.ok("hook" not in ct["ctbase"] and "hook output" in ct["ctonly"] and "hook prerouting" in ct["ct"] and
           all("ct state" in ct[b] for b in ("ctonly", "ct")) and
           all("counter name \"test\" accept" in r for r in ct.values()),
           "conntrack cells: no ip table, a ct chain at output (conntrack's hooks alone at prerouting), at "
           "prerouting; each counts and accepts at netdev ingress")
    # the tooling's element generator (userspace/src/gen.c) against ours:
    # the ranged concatenation and the first field of every set type
    nftlab = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "userspace", "build", "nftlab")
    if os.access(nftlab, os.X_OK):
        diff = []
        for t in TYPES.values():
            sets = {name: elems for name, _, _, elems in set_defs(t)}
            for name, fields in (("test", t.fields), ("noconcat", t.fields[:1])):
                r = subprocess.run([nftlab, "gen", ",".join(fields), "--count", str(t.entries + 1),
                                    "--start", str(t.start), "--range-size", "1"],
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                if r.returncode != 0 or r.stdout.splitlines() != sets[name]:
                    diff.append("%s %s: nftlab gen exit %d, first line %r, ours %r" % (
                        t.name, name, r.returncode, r.stdout.splitlines()[:1], sets[name][:1]))
        tap.ok(not diff, "nftlab gen prints the elements of our ranged sets for every set type (%d types)"
               % len(TYPES), "\n".join(diff))
    else:
        tap.skip("nftlab gen prints the elements of our ranged sets", "userspace/build/nftlab not built (make userspace)")
    return taplib.done(tap, count_file)


if __name__ == "__main__":
    sys.exit(main())
