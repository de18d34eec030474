# SPDX-License-Identifier: GPL-2.0
"""Plans: which cells a boot of a given kernel runs, written as the plain
files guest/run-plan executes (plan.tsv, nft scripts, nftlab scripts).

plan.tsv, one line per group and per cell run, tab separated:

    table FAMILY NAME
    group GID MODE TYPE IPVER DSTADDR DSTPORT DSTMAC PKTSIZE SETSFILE PGOPTS
    cell  GID KNOB RULESFILE REP CHECKS FIELDS

A table line names a table the plan's scripts may create: the guest
deletes it before every group and on exit.  FIELDS is the cell's
model.CELL_FIELDS as one JSON object, which the guest copies into each of
its sample records without looking inside; CHECKS (sample_checks) says
which counters must agree with pktgen's.
"""
import json
import os
import random

from . import loads
from .files import write
from .generators import (CT_TABLE, gen_ct_rules, gen_dynset_rules, gen_dynset_sets, gen_egress, gen_ingress_table,
                         gen_rules, gen_sets, packet, set_defs)
from .model import CELL_FIELDS, CHAIN, TABLE, TYPE_ORDER, TYPES
from .tables import ALL_TABLES, TABLES


def groups_for(role, tables, t2n, every=False, types=TYPE_ORDER):
    """[(group, [cell dicts])] for one kernel role.  knob '-' = leave the
    kernel as booted; '0'/'1' = set the force-indirect knob.  EVERY (quick
    mode): every scenario of every table on this one kernel."""
    groups = []
    for name, mod in TABLES.items():
        if name in tables and (every or role in mod.ROLES):
            groups += mod.groups(role, t2n, every, types)
    return groups


def expected_cells(role, tables, t2n, every=False):
    return {c["cell"] for _, cells in groups_for(role, tables, t2n, every) for c in cells}


def table_lines():
    return ["table\tnetdev\t%s" % TABLE, "table\tip\t%s" % CT_TABLE]


def group_line(g, p, setsf, pgopts):
    return "group\t%s\t%s\t%s\t%d\t%s\t%s\t%s\t%d\t%s\t%s" % (
        g["gid"], g["mode"], g["type"], p["ipver"], p["addr"], p["port"], p["mac"], p["size"], setsf, pgopts)


def sample_checks(g, c):
    """What makes a sample of cell C (group G) valid besides pktgen's own
    result, in the order guest/run-plan checks them: the rule counter
    counted every packet pktgen sent (counter), the device transmitted them
    all (tx), no counter exists (nocounter: egress without a hook, whose
    rules create none), pktgen saw no transmit errors (noerrors); a
    ruleset of T0's user (t0/ruleset.py) has no counter of ours: none,
    pktgen's own count alone."""
    if g["type"] == "ruleset":
        return "none"
    if g["mode"] != "egress":
        return "counter"
    return ("tx,nocounter" if c["backend"] == "nohook" else "counter,tx") + ",noerrors"


def cell_line(g, c, rep):
    fields = json.dumps({k: c[k] for k in CELL_FIELDS}, separators=(",", ":"))
    return "cell\t%s\t%s\t%s\t%d\t%s\t%s" % (g["gid"], c["knob"], c["rules"], rep, sample_checks(g, c), fields)


def rules_file(outdir, tdef, c, dev):
    """Writes the nft script of cell C into OUTDIR; returns its name."""
    if c["type"] == "ct":
        rf = "rules-ct-%s.nft" % c["backend"]
        write(os.path.join(outdir, rf), gen_ct_rules(c["backend"]))
    elif c["type"] == "dynset":
        rf = "rules-dynset-%s.nft" % c["backend"]
        write(os.path.join(outdir, rf), gen_dynset_rules(c["backend"]))
    elif c["backend"] in ("nohook", "egress"):
        rf = "rules-egress-%s.nft" % c["backend"]
        write(os.path.join(outdir, rf), gen_egress(dev, c["backend"] == "egress"))
    else:
        rf = "rules-%s-%s-n%d.nft" % (c["type"], c["backend"], c["n"])
        write(os.path.join(outdir, rf), gen_rules(tdef, c["backend"], c["n"]))
    return rf


def write_plan(role, tables, reps, duration, seed, dev, t2n, every, out, reload=False):
    """Writes the plan of one boot into OUT; returns the number of cell runs.
    RELOAD: each repetition sets its group up anew (device, table and
    sets created again) instead of the whole group's repetitions sharing
    one setup."""
    rng = random.Random(seed)
    os.makedirs(out, exist_ok=True)
    lines = ["# nftlab bench plan: role %s tables %s reps %d duration %s"
             % (role, ",".join(tables), reps, duration)] + table_lines()
    ncells = 0
    for g, cells in groups_for(role, tables, t2n, every):
        dynset = g["type"] == "dynset"
        # T6 and T7 send the net,port test packet (its destination is not
        # looked at)
        tdef = TYPES["net_port" if g["type"] in ("dynset", "ct") else g["type"]]
        p = packet(tdef)
        setsf = "-"
        if g["type"] == "ct":
            setsf = "sets-ct.nft"
            write(os.path.join(out, setsf), gen_ingress_table(dev))
        elif dynset:
            # nft -f only: nftlab's loader is about the interval sets of T1-T5
            setsf = "sets-dynset.nft"
            write(os.path.join(out, setsf), gen_dynset_sets(dev))
        elif g["mode"] == "ingress":
            setsf = "sets-%s.nft" % g["type"]
            sets = set_defs(tdef)
            write(os.path.join(out, setsf), gen_sets(sets, dev))
            cmds, files = loads.nftlab_script(TABLE, CHAIN, dev, sets, "sets-%s" % g["type"])
            write(os.path.join(out, "sets-%s.nftlab" % g["type"]), cmds)
            for name, text in files.items():
                write(os.path.join(out, name), text)
        gline = group_line(g, p, setsf, getattr(TABLES[g["table"]], "PGOPTS", "-"))
        lines.append(gline)
        for c in cells:
            c["rules"] = rules_file(out, tdef, c, dev)
        for rep in range(1, reps + 1):
            if reload and rep > 1:
                lines.append(gline)
            order = list(cells)
            rng.shuffle(order)
            for c in order:
                lines.append(cell_line(g, c, rep))
                ncells += 1
    write(os.path.join(out, "plan.tsv"), "\n".join(lines) + "\n")
    return ncells


def parse_tables(s):
    tables = [t.strip().upper() for t in s.split(",") if t.strip()]
    for t in tables:
        if t not in ALL_TABLES:
            raise SystemExit("nft_concat_range/bench: unknown table %s (%s)" % (t, ", ".join(ALL_TABLES)))
    return tables


def roles_for(tables):
    out = []
    for t in tables:
        for r in TABLES[t].ROLES:
            if r not in out:
                out.append(r)
    return out
