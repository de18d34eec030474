#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The open-interval reproducer's report: one row per case, one column per
kernel (open-interval.sh writes RUNDIR/KERNEL.txt, the C program's TAP).

Usage: open-interval-report.py RUNDIR KERNEL...
Writes RUNDIR/report.md and RUNDIR/results.json; the report is a function of
the .txt files alone, so re-running this re-renders it byte for byte.
"""
import json
import os
import re
import sys

CASE = re.compile(r"^# (?P<name>[\w-]+): set (?P<have>.*?), add (?P<add>.*?): "
                  r"(?P<answer>[^;]+); set now: (?P<now>[^;]+); (?P<probe>\S+) "
                  r"(?P<match>matches|does not match) \((?P<why>[^)]*)\)$")
RESULT = re.compile(r"^(?P<bad>not )?ok \d+ - (?P<name>[\w-]+): (?P<want>.*)$")


def parse(path):
    kernel, lab, cases = "", "", {}
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("# kernel: "):
                kernel = line[len("# kernel: "):]
            elif line.startswith("# lab kernel: "):
                lab = line[len("# lab kernel: "):]
            elif (m := CASE.match(line)):
                cases[m["name"]] = dict(m.groupdict())
            elif (m := RESULT.match(line)) and m["name"] in cases:
                cases[m["name"]]["ok"] = not m["bad"]
                cases[m["name"]]["want"] = m["want"]
    return {"release": kernel, "lab": lab, "cases": cases}


def cell(c):
    if c is None:
        return "(not run)"
    verdict = "ok" if c.get("ok") else "**WRONG**"
    if c["answer"] != "accepted":
        return f"{verdict}: refused ({c['answer']})"
    return (f"{verdict}: accepted; set: {c['now']}; {c['probe']} "
            f"{'matches' if c['match'] == 'matches' else 'no match'}")


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    run, kernels = sys.argv[1], sys.argv[2:]
    res = {k: parse(os.path.join(run, k.replace(":", "-") + ".txt"))
           for k in kernels}
    names = []
    for r in res.values():
        names += [n for n in r["cases"] if n not in names]
    out = ["# Open intervals: does the kernel refuse an overlapping one?", "",
           "`tests/reliability/open-interval.sh RUNDIR " + " ".join(kernels) + "`",
           "(`tests/reliability/open-interval.c`: raw netlink through libnftnl;",
           "an open interval is its start element alone, as nft sends it).", ""]
    for k in kernels:
        r = res[k]
        out.append(f"- {k}: `{r['release']}`" + (f" ({r['lab']})" if r["lab"] else ""))
    out += ["", "| case | asked | " + " | ".join(kernels) + " |",
            "|---|---|" + "---|" * len(kernels)]
    for n in names:
        first = next(r["cases"][n] for r in res.values() if n in r["cases"])
        asked = f"{first['add']} into {{{first['have']}}} ({first['want']})"
        out.append(f"| {n} | {asked} | " +
                   " | ".join(cell(res[k]["cases"].get(n)) for k in kernels) + " |")
    wrong = {k: sorted(n for n, c in r["cases"].items() if not c.get("ok"))
             for k, r in res.items()}
    out += ["", "Cases a kernel got wrong:", ""]
    out += [f"- {k}: {', '.join(v) if v else 'none'}" for k, v in wrong.items()]
    with open(os.path.join(run, "report.md"), "w") as f:
        f.write("\n".join(out) + "\n")
    with open(os.path.join(run, "results.json"), "w") as f:
        json.dump({"schema": "nftlab-open-interval/1", "order": kernels,
                   "kernels": res, "wrong": wrong}, f, indent=1, sort_keys=True)
        f.write("\n")
    print("\n".join(out))


if __name__ == "__main__":
    main()
