# SPDX-License-Identifier: GPL-2.0
"""t0.py commit: what one transaction on an interval set costs the kernel,
in instructions, counted exactly under QEMU TCG by the pktcount plugin.

commit-cost times the same transactions in UML, where the noise of a
shared host is larger than a few percent of a commit.  Here the guest runs
guest/commit-cost.py --mark: for each set size N it loads N intervals,
then makes --reps one-interval commits and --reps timeout updates, and
reads /proc/net/pktgen/pgctrl just before and just after each.  The
plugin's region is nfnetlink_rcv()'s call of nfnetlink_rcv_batch(): the
whole batch in the kernel (parsing, the elements' insertion, the set's
array allocated for the next generation, the commit and its rebuild of
the array), interrupts excluded; not in it: the process, the netlink
socket, and work deferred past the batch (RCU callbacks, the transaction's
release work).  A transaction's count is the region's instructions
between its two snapshots, per function too.

A count is exact when every boot of the kernel gives the same count for
the same transaction (rep); the report says for which it holds.  A
region that called __schedule() counted another task's work: the report
refuses such a transaction.  Writes RESULTS/t0/commit.json (the counts
per transaction, and the per-function medians that differ most between
the first kernel and the last), RESULTS/t0/commit.md (the report) and
RESULTS/t0/commit-posting.txt (two kernels' medians, for a commit
message: no run named, 75 columns; the last two, or --posting FIRST,LAST,
which commit.json keeps); --render writes the last two again from
commit.json (with --posting, after storing the new choice there)."""
import json
import os
import re
import statistics
import subprocess
import time

from .. import lab
from ..files import cpu_model, write
from . import run as t0run
from .symbols import COMMITS, kernel_nm, kernel_symbols, parse_functions

GUEST = os.path.join(lab.SUITE, "guest", "commit-cost.py")
MARK = "/proc/net/pktgen/pgctrl"
# A transaction's kind: the guest's list of its wall times (cost.jsonl),
# its name in the report and in a posting's table.
KINDS = {"commit": ("commit_s", "one-interval commit", "add interval"),
         "refresh": ("refresh_s", "timeout update", "timeout update")}
# Functions listed per size in the report: the largest differences.
TOP_FUNCS = 8
# Page clearing: a "rep stosb" that TCG executes, and the plugin counts,
# once per byte; the counts leave these functions out (each
# transaction's "clear" keeps their instructions).
CLEAR_RE = re.compile(r"^clear_(page|highpage)\w*$")


def boot(rawdir, label, kdir, plugin, rnd, args):
    """One boot of KDIR counting every transaction of the guest; its
    directory under RAWDIR."""
    bdir = os.path.join(rawdir, "%s-r%d" % (label, rnd))
    os.makedirs(bdir, exist_ok=True)
    vmlinux = os.path.join(kdir, "vmlinux")
    nm_text = kernel_nm(vmlinux)
    symf, funcf = os.path.join(bdir, "syms.txt"), os.path.join(bdir, "funcs.txt")
    write(symf, "".join("%s %x %x %s\n" % s for s in kernel_symbols(vmlinux, nm_text, COMMITS)))
    write(funcf, "".join("%x %x %s\n" % f for f in parse_functions(nm_text)))
    gc = " --gc-interval %d" % args.gc_interval if args.gc_interval else ""
    guest = ("ip netns add ccost && ip netns exec ccost python3 %s --nftlab %s --sizes %s --reps %d --mark %s%s"
             " > $NFTLAB_RESULTS/cost.jsonl" % (GUEST, lab.NFTLAB, args.sizes, args.reps, MARK, gc))
    cmd = lab.lab_run(args.base, "x86_64", kdir, bdir, 1800, ["bash", "-c", guest],
                      append="spectre_v2=%s nokaslr" % args.mitigation,
                      qemu_args=("-icount", "shift=0,sleep=off", "-plugin",
                                 "%s,syms=%s,out=%s,funcs=%s" % (plugin, symf, os.path.join(bdir, "counts.jsonl"),
                                                                  funcf)),
                      nft=args.nft, mem="2G")
    t0run.log("commit: %s boot %d (QEMU TCG): sizes %s, %d transactions of each kind"
              % (label, rnd, args.sizes, args.reps))
    with open(os.path.join(bdir, "console.log"), "w") as con:
        rc = subprocess.run(cmd, stdout=con, stderr=subprocess.STDOUT).returncode
    if rc:
        for line in t0run.boot_failure(bdir, "%s-r%d" % (label, rnd), rc):
            t0run.log(line)
        raise SystemExit("t0 commit: %s boot %d exited %d" % (label, rnd, rc))
    return bdir


def region(a, b, key, part=1):
    """Counter KEY between snapshots A and B: its region part (PART 1) or
    its total (0: regions opened and closed count only there)."""
    return b[key][part] - a[key][part]


def transactions(bdir):
    """Every counted transaction of a boot, in the guest's order: kind,
    size, rep, instructions, regions, and the calls and functions of its
    region."""
    with open(os.path.join(bdir, "cost.jsonl")) as f:
        sizes = [json.loads(line) for line in f if line.strip()]
    with open(os.path.join(bdir, "counts.jsonl")) as f:
        # the plugin's own last snapshot, at exit, is no mark
        snaps = [s for s in (json.loads(line) for line in f if line.strip()) if s["mark"] in COMMITS.marks]
    want = sum(s["marks"] for s in sizes)
    if len(snaps) != want:
        raise SystemExit("t0 commit: %s: %d snapshots, the guest made %d marks" % (bdir, len(snaps), want))
    out, i = [], 0
    for s in sizes:
        for kind, (times, _, _) in KINDS.items():
            for rep in range(len(s[times])):
                a, b = snaps[i], snaps[i + 1]
                i += 2
                calls = {k: region(a["calls"], b["calls"], k) for k in b["calls"]}
                funcs = {k: v - a["funcs"].get(k, 0) for k, v in b["funcs"].items() if v != a["funcs"].get(k, 0)}
                clear = sum(v for k, v in funcs.items() if CLEAR_RE.match(k))
                out.append(dict(kind=kind, intervals=s["intervals"], rep=rep,
                                insns=region(a["counters"], b["counters"], "kernel_insns") - clear, clear=clear,
                                regions=region(a["counters"], b["counters"], "packets", 0),
                                leaves=region(a["counters"], b["counters"], "leaves", 0),
                                calls={k: v for k, v in calls.items() if v}, funcs=funcs))
    return out


def check(boots):
    """Refusals of the boots of one kernel: a region left open, a
    transaction that scheduled, or none counted."""
    bad = []
    for bdir, txs in boots:
        for t in txs:
            what = "%s %s, %d intervals, rep %d" % (os.path.basename(bdir), t["kind"], t["intervals"], t["rep"])
            if t["regions"] < 1 or t["regions"] != t["leaves"]:
                bad.append("%s: %d regions opened, %d closed" % (what, t["regions"], t["leaves"]))
            if t["calls"].get("__schedule"):
                bad.append("%s: __schedule() ran in the region" % what)
    return bad


def summary(results):
    """{(kind, intervals): {label: (sorted counts over reps and boots,
    exact)}} where exact: each rep gave one count in every boot (counts
    without the page clearing, see CLEAR_RE)."""
    out = {}
    for label, boots in results["kernels"].items():
        per = {}
        for txs in boots:
            for t in txs:
                per.setdefault((t["kind"], t["intervals"]), {}).setdefault(t["rep"], []).append(t["insns"])
        for key, reps in per.items():
            counts = sorted(c for cs in reps.values() for c in cs)
            out.setdefault(key, {})[label] = (counts, all(len(set(cs)) == 1 for cs in reps.values()))
    return out


def func_medians(kernels, label, kind, n):
    """Per function, the median over reps and boots of its instructions in
    a transaction of KIND at N intervals of kernel LABEL (KERNELS: each
    label's transactions per boot, as transactions() reads them)."""
    txs = [t for boots in kernels[label] for t in boots if t["kind"] == kind and t["intervals"] == n]
    names = {f for t in txs for f in t["funcs"] if not CLEAR_RE.match(f)}
    return {f: statistics.median(t["funcs"].get(f, 0) for t in txs) for f in names}


def func_diffs(kernels):
    """{"KIND N": {label: {function: median}}} for the functions whose
    medians differ between the first kernel and the last, at most TOP_FUNCS
    per transaction kind and size, largest difference first: what the
    report lists, and all of the per-function counts that commit.json
    keeps."""
    labels = list(kernels)
    keys = sorted({(t["kind"], t["intervals"]) for bs in kernels.values() for txs in bs for t in txs})
    out = {}
    for kind, n in keys:
        med = {lb: func_medians(kernels, lb, kind, n) for lb in labels}
        a, b = med[labels[0]], med[labels[-1]]
        diff = sorted((f for f in set(a) | set(b) if a.get(f, 0) != b.get(f, 0)),
                      key=lambda f: (-abs(b.get(f, 0) - a.get(f, 0)), f))[:TOP_FUNCS]
        out["%s %d" % (kind, n)] = {lb: {f: med[lb].get(f, 0) for f in diff} for lb in labels}
    return out


def by_size(summ):
    """The (kind, intervals) keys of summary() SUMM, by size, then kind."""
    return sorted(summ, key=lambda k: (k[1], k[0]))


def columns(rows, indent=""):
    """ROWS as text: the first two columns to the left, the others to the
    right, two spaces apart."""
    width = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return [indent + "  ".join(c.rjust(w) if i > 1 else c.ljust(w) for i, (c, w) in enumerate(zip(r, width))).rstrip()
            for r in rows]


def difference(by, first, last, n):
    """LAST's median less FIRST's in BY (a summary() entry at N intervals):
    (FIRST's median, LAST's median, the difference per interval and
    relative, as text)."""
    a, b = statistics.median(by[first][0]), statistics.median(by[last][0])
    return a, b, "%+.1f" % ((b - a) / n), "%+.1f %%" % (100.0 * (b - a) / a)


def span(counts):
    lo, hi = counts[0], counts[-1]
    return "%d" % lo if lo == hi else "%d..%d" % (lo, hi)


def table(results):
    """The posting's table: per size and kind, each kernel's count, and the
    last kernel's median less the first's: in all, per interval and
    relative to the first's."""
    labels = list(results["kernels"])
    summ = summary(results)
    rows = [["intervals", "transaction"] + labels + ["difference", "per interval", "relative"]]
    for kind, n in by_size(summ):
        by = summ[(kind, n)]
        a, b, per, rel = difference(by, labels[0], labels[-1], n)
        rows.append(["{:,}".format(n), KINDS[kind][1]] + [span(by[lb][0]) for lb in labels]
                    + ["%+d" % (b - a), per, rel])
    return columns(rows)


def posting_kernels(results):
    """The posting table's two kernels: the run's choice (--posting), or
    the last two (a patch's own effect, when the last adds it)."""
    return results.get("run", {}).get("posting") or list(results["kernels"])[-2:]


def parse_posting(text, labels):
    """--posting FIRST,LAST: two of LABELS, in that order."""
    pair = text.split(",")
    if len(pair) != 2 or pair[0] == pair[1] or not set(pair) <= set(labels):
        raise SystemExit("t0 commit: --posting %s: give FIRST,LAST, two of the run's kernels (%s)"
                         % (text, ", ".join(labels)))
    return pair


def posting_table(results):
    """The table for a commit message, at most 75 columns: two kernels
    (posting_kernels()), the median of each, and the difference."""
    first, last = posting_kernels(results)
    summ = summary(results)
    rows = [["intervals", "transaction", first, last, "per interval", "relative"]]
    for kind, n in by_size(summ):
        a, b, per, rel = difference(summ[(kind, n)], first, last, n)
        rows.append(["{:,}".format(n), KINDS[kind][2], "%d" % a, "%d" % b, per, rel])
    return columns(rows, "  ")


def render(t0dir):
    with open(os.path.join(t0dir, "commit.json")) as f:
        results = json.load(f)
    run = results["run"]
    labels = list(results["kernels"])
    summ = summary(results)
    inexact = sorted("%s %s at %d intervals" % (lb, kind, n) for (kind, n), by in summ.items()
                     for lb, (_, exact) in by.items() if not exact)
    head = ["Kernel instructions per transaction on an interval set (rbtree backend): nfnetlink's",
            "batch with its commit, counted under QEMU TCG, x86_64, spectre_v2=%s; the range" % run["mitigation"],
            "is over %d transactions of each kind and %d boots per kernel.  Page clearing" % (run["reps"],
                                                                                           run["rounds"]),
            "(clear_page*(), clear_highpage*()) is left out: TCG counts each byte its rep stosb",
            "clears as an instruction; the last table gives it per kernel."]
    # runs stored before --gc-interval existed ran the collection in each
    gc = run.get("gc_interval")
    if gc:
        head += ["The set's gc-interval is %d s, longer than the run: no transaction ran the set's" % gc,
                 "garbage collection, as a commit less than a gc interval after the last one."]
    text = ["# t0.py commit: instructions per transaction", "",
            "base: %s; cpu: %s; date %s" % (run["base_version"], run["cpu"], run["date"]), ""]
    text += ["| kernel | directory | stamp |", "|---|---|---|"]
    text += ["| %s | %s | %s |" % (lb, run["kdirs"][lb], run["stamps"][lb]) for lb in labels]
    text += [""] + head + ["", "```"] + table(results) + ["```", ""]
    text.append("Exact (each transaction gave the same count in every boot): %s."
                % ("all" if not inexact else "all but " + "; ".join(inexact)))
    if len(labels) > 1:
        first, last = labels[0], labels[-1]
        text += ["", "## Where the difference goes (%s less %s, median per transaction)" % (last, first)]
        # with more than two kernels, a column for each one less the first
        cols = labels[1:] if len(labels) > 2 else [last]
        if len(cols) > 1:
            text += ["", "The functions that differ most between %s and %s; a column for each kernel less %s."
                     % (first, last, first)]
        for kind, n in by_size(summ):
            med = results["funcs"]["%s %d" % (kind, n)]
            text += ["", "%s, %s intervals:" % (KINDS[kind][1], "{:,}".format(n))]
            if len(cols) > 1 and med[first]:
                text.append("  %s" % "  ".join("%10s" % lb for lb in cols))
            text += (["  %s  %s" % ("  ".join("%+10.1f" % (med[lb][f] - med[first][f]) for lb in cols), f)
                      for f in med[first]]
                     or ["  no function differs"])
    text += ["", "## Page clearing left out (median per transaction, bytes cleared + a few)", ""]
    text += ["  %-9s %-20s %s" % ("intervals", "transaction", "  ".join("%12s" % lb for lb in labels))]
    for kind, n in by_size(summ):
        clears = [statistics.median(t["clear"] for bs in results["kernels"][lb] for t in bs
                                    if t["kind"] == kind and t["intervals"] == n) for lb in labels]
        text.append("  %-9s %-20s %s" % ("{:,}".format(n), KINDS[kind][1],
                                          "  ".join("%12d" % c for c in clears)))
    write(os.path.join(t0dir, "commit.md"), "\n".join(text) + "\n")
    posting = ["  kernel instructions per transaction on a set of N IPv4 intervals,",
               "  page clearing left out (TCG counts its rep stosb per byte);",
               "  median of %d (%d boots); QEMU TCG, x86_64, spectre_v2=%s"
               % (run["reps"] * run["rounds"], run["rounds"], run["mitigation"])]
    if gc:
        posting.append("  no garbage collection in the transactions (gc-interval %d s)" % gc)
    posting.append("")
    write(os.path.join(t0dir, "commit-posting.txt"), "\n".join(posting + posting_table(results)) + "\n")
    print("\n".join(text))
    return 0


def main(args):
    """t0.py commit: boot each --kernel --rounds times, then the report."""
    t0dir = os.path.join(args.results, "t0")
    if args.render:
        if args.posting:
            path = os.path.join(t0dir, "commit.json")
            with open(path) as f:
                results = json.load(f)
            results["run"]["posting"] = parse_posting(args.posting, list(results["kernels"]))
            write(path, json.dumps(results, separators=(",", ":")) + "\n")
        return render(t0dir)
    if not args.kernel:
        raise SystemExit("t0 commit: no --kernel LABEL=KDIR given")
    kernels = dict(args.kernel)
    if len(kernels) != len(args.kernel):
        raise SystemExit("t0 commit: a --kernel label given twice")
    # checked before the boots, stored with the results after them
    posting = args.posting and parse_posting(args.posting, list(kernels))
    rawdir = os.path.join(t0dir, "commit-raw")
    os.makedirs(rawdir, exist_ok=True)
    subprocess.run(["make", "-s", "-C", os.path.join(lab.TOP, "userspace")], check=True)
    plugin = t0run.build_plugin()
    boots = {lb: [] for lb in kernels}
    for rnd in range(1, args.rounds + 1):
        for lb, kdir in kernels.items():
            boots[lb].append(boot(rawdir, lb, kdir, plugin, rnd, args))
    results = {"kernels": {lb: [transactions(b) for b in bs] for lb, bs in boots.items()}}
    bad = [m for lb, bs in boots.items() for m in check(zip(bs, results["kernels"][lb]))]
    if bad:
        raise SystemExit("t0 commit: refused:\n  " + "\n  ".join(bad))
    results["funcs"] = func_diffs(results["kernels"])
    for bs in results["kernels"].values():
        for txs in bs:
            for t in txs:
                del t["funcs"]
    results["run"] = dict(base=args.base, base_version=t0run.base_version(kernels), cpu=cpu_model(),
                          date=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), sizes=args.sizes,
                          reps=args.reps, rounds=args.rounds, mitigation=args.mitigation, nft=args.nft,
                          gc_interval=args.gc_interval,
                          kdirs=kernels, stamps={lb: t0run.kernel_stamp(k) for lb, k in kernels.items()})
    if posting:
        results["run"]["posting"] = posting
    write(os.path.join(t0dir, "commit.json"), json.dumps(results, separators=(",", ":")) + "\n")
    return render(t0dir)
