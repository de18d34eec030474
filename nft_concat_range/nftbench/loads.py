# SPDX-License-Identifier: GPL-2.0
"""Loading the benchmark sets with nftlab as well as with nft -f.

The guest loads every group's table twice: with `nft -f sets-TYPE.nft` and,
after deleting it, with `nftlab -f sets-TYPE.nftlab` (a script of nftlab
commands, element files beside it), each one process and one transaction.
Both load times go to the guest's load records (guestlog.py) together with
whether `nft list table` printed the same ruleset after each load; the
measurements then run on the nftlab-loaded table if the two were
identical, else on nft's.

This module writes the nftlab side of a plan and summarises the loads.
"""
import shlex

from .stats import median


def nftlab_script(table, chain, dev, sets, name_prefix):
    """(script text, {file name: element list}) for the nftlab load: one
    `nftlab -f` script, run in the plan directory (--file paths are
    relative to it), words quoted as a shell would read them (nftlab(8),
    SCRIPTS).

    SETS is [(set name, key type, interval, [element strings])] in creation
    order, the same order as in the nft script, so that both listings print
    the sets alike.  Element strings are in nft syntax, which nftlab reads
    one per line.
    """
    cmds = [["table", "add", "netdev", table], ["counter", "add", "netdev", table, "test"]]
    files = {}
    for name, key, interval, _ in sets:
        cmds.append(["set", "add", "netdev", table, name, "--type", key] + (["--flags", "interval"] if interval else []))
    cmds.append(["chain", "add", "netdev", table, chain, "--hook", "ingress", "--dev", dev, "--priority", "0"])
    for name, _, _, elems in sets:
        fname = "%s-%s.elems" % (name_prefix, name)
        files[fname] = "".join(e + "\n" for e in elems)
        cmds.append(["element", "add", "netdev", table, name, "--file", fname])
    lines = ["# nftlab -f script: one transaction, run in the plan directory"] + [shlex.join(c) for c in cmds]
    return "\n".join(lines) + "\n", files


def load_table(rows, type_order, entries):
    """Per set type: medians of both load times over all boots and groups,
    their ratio, and how many loads gave identical listings."""
    out = []
    for t in type_order:
        rs = [r for r in rows if r["type"] == t]
        if not rs:
            continue
        a = [r["nft_s"] for r in rs if r["nft_s"] is not None]
        b = [r["nftlab_s"] for r in rs if r["nftlab_s"] is not None]
        row = dict(type=t, entries=entries[t], loads=len(rs),
                   nft_s=median(a) if a else None,
                   nftlab_s=median(b) if b else None,
                   same=sum(1 for r in rs if r["same"] == "1"),
                   compared=sum(1 for r in rs if r["same"] in ("0", "1")))
        row["ratio"] = row["nftlab_s"] / row["nft_s"] if row["nft_s"] and row["nftlab_s"] else None
        # nftlab processes per load, where the guest recorded them (runs
        # before `nftlab -f` ran one per command and did not)
        procs = {r["nftlab_procs"] for r in rs if r.get("nftlab_procs")}
        if procs:
            row["nftlab_procs"] = max(procs)
        out.append(row)
    return out


def render_loads(rows, display):
    if not rows:
        return "Set loading: no loads recorded."
    timed = [r for r in rows if r["nftlab_s"] is not None]
    if timed and all(r.get("nftlab_procs") == 1 for r in timed):
        how = ["is one process and one transaction, and so is nftlab -f with a script of",
               "the same objects (table, counter, 3 sets, chain, 3 element files):"]
    else:
        how = ["is one process and one transaction; nftlab is nine commands (table, counter,",
               "3 sets, chain, 3 element loads), one process and one transaction each, so",
               "process start-up dominates its small loads:"]
    lines = ["Set loading in the guest, nft -f vs nftlab: the table with the three sets of",
             "a group (entries + 1 elements each), median seconds over all loads.  nft -f"] + how + [
             "",
             "    %-22s %7s %6s %9s %9s %7s  %s" % ("type", "entries", "loads", "nft -f", "nftlab", "ratio",
                                                  "same listing")]
    for r in rows:
        lines.append("    %-22s %7d %6d %9s %9s %7s  %d/%d%s" % (
            display[r["type"]], r["entries"], r["loads"],
            "-" if r["nft_s"] is None else "%.3f" % r["nft_s"],
            "-" if r["nftlab_s"] is None else "%.3f" % r["nftlab_s"],
            "-" if r["ratio"] is None else "%.2fx" % r["ratio"],
            r["same"], r["compared"],
            "" if r["same"] == r["compared"] else "  DIFFERENT: measured on nft's load"))
    if all(r["nftlab_s"] is None for r in rows):
        lines.append("    (nftlab not available in the guest: sets were loaded with nft -f only)")
    return "\n".join(lines)
