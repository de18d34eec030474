#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The set sync benchmark (issue #53 item 2): the logic of bench-sync.sh.

  bench_sync.py run --netns NS --nftlab BIN --probe BIN --out DIR [...]
  bench_sync.py report DIR [--analysis FILE]
                                README.md and report.txt from results.json
                                (FILE: the Analysis section, stored there)

Cases (each in the network namespace NS, which bench-sync.sh creates with
a default route over lo):
  1 refresh   hash set of 100k and 1M addresses, 1 % and 10 % replaced
  2 geoip     interval set of 500k prefixes (/26, never adjacent), 1 %
              replaced; nft also as a delta (delete + add the changes)
  3 cold      empty set to 1M addresses, and to 500k prefixes
  4 equal     1M addresses, the same file: no write; nft -j list set
Tools: nftlab-sync (set sync), nft-flush-add (nft -f: flush set + add
element of everything), nft-delta (case 2), nftlab-bulk (element add
--file into the flushed set, case 3), nft-list (nft -j list set, case 4).

Every run: GNU time -v inside the namespace (wall, peak RSS), REPS
repetitions (a run killed after --timeout seconds is reported as such and
not repeated: nft-delta at 500k prefixes), the set reset before each (flush + nftlab element add of the
start file, not timed), median reported.  A packet probe (sync-probe.c,
UDP at --rate per second) runs throughout, to 4 addresses the set holds
in every file (STAY) and 4 it never holds (NEVER); the rules count
"ip daddr STAY ip daddr != @s" (miss) and "ip daddr NEVER ip daddr @s"
(false match) around every run.  One extra run per tool and case under
strace -e trace=sendmsg -T gives the commit's sendmsg() window (the
longest sendmsg: the batch), and the probe's datagrams sent inside it.
"""
import argparse
import array
import datetime
import json
import os
import re
import statistics
import subprocess
import sys
import time

STAY_N = 4
NEVER = ["203.0.113.1", "203.0.113.2", "203.0.113.3", "203.0.113.4"]
HASH_BASE = 0x0A000000        # 10.0.0.0: addresses base + 1 ...
IVL_BASE = 0x0B000000         # 11.0.0.0: a /26 at every /24


def ip4(v):
    return "%d.%d.%d.%d" % (v >> 24, (v >> 16) & 255, (v >> 8) & 255, v & 255)


def hash_files(n, churn):
    """Start and churned element lists: the first k dropped, k new at the end."""
    k = int(n * churn)
    base = [ip4(HASH_BASE + 1 + i) for i in range(n)]
    new = base[k:] + [ip4(HASH_BASE + 1 + n + i) for i in range(k)]
    return base, new, base[-STAY_N:]


def ivl_files(n, churn):
    k = int(n * churn)
    pref = [ip4(IVL_BASE + i * 256) + "/26" for i in range(n + k)]
    base, new = pref[:n], pref[k:n + k]
    stay = [ip4(IVL_BASE + (n - 1 - i) * 256 + 1) for i in range(STAY_N)]
    return base, new, stay


class Bench:
    def __init__(self, a):
        self.ns, self.nftlab, self.reps = a.netns, a.nftlab, a.reps
        self.out, self.work = a.out, a.work
        self.windows = []       # (cell, tool, start_s, dur_s) for the probe
        self.cells = []

    def ns_run(self, args, check=True, **kw):
        r = subprocess.run(["ip", "netns", "exec", self.ns] + args,
                           capture_output=True, text=True, **kw)
        if check and r.returncode:
            sys.exit("bench-sync: %s: exit %d: %s" %
                     (" ".join(args)[:200], r.returncode, r.stderr[-2000:]))
        return r

    def write(self, name, lines, head="", tail=""):
        path = os.path.join(self.work, name)
        with open(path, "w") as f:
            f.write(head)
            f.write(",\n".join(lines) if tail else "\n".join(lines) + "\n")
            f.write(tail)
        return path

    def table(self, interval, size, stay):
        self.ns_run(["nft", "delete", "table", "ip", "bench"], check=False)
        rules = (
            "table ip bench {\n"
            "  set s { type ipv4_addr; size %d; %s}\n"
            "  counter probe_stay { }\n  counter miss { }\n"
            "  counter probe_never { }\n  counter falsematch { }\n"
            "  chain out {\n    type filter hook output priority 0;\n"
            "    ip daddr { %s } counter name probe_stay\n"
            "    ip daddr { %s } ip daddr != @s counter name miss\n"
            "    ip daddr { %s } counter name probe_never\n"
            "    ip daddr { %s } ip daddr @s counter name falsematch\n"
            "  }\n}\n" % (size, "flags interval; " if interval else "",
                          ", ".join(stay), ", ".join(stay),
                          ", ".join(NEVER), ", ".join(NEVER)))
        self.ns_run(["nft", "-f", self.write("table.nft", rules.splitlines())])
        self.probe_restart(stay)

    def probe_restart(self, stay):
        self.probe_stop()
        self.probe_out = os.path.join(self.work, "probe.%d" % len(self.cells))
        self.probe = subprocess.Popen(
            ["ip", "netns", "exec", self.ns, self.args.probe,
             str(self.args.rate), self.probe_out] + stay + NEVER)
        self.probe_files.append((self.probe_out, len(self.cells)))
        time.sleep(0.2)

    def probe_stop(self):
        if getattr(self, "probe", None):
            self.probe.terminate()
            self.probe.wait()
            self.probe = None

    def counters(self):
        r = self.ns_run(["nft", "-j", "list", "counters", "table", "ip", "bench"])
        out = {}
        for o in json.loads(r.stdout)["nftables"]:
            if "counter" in o:
                out[o["counter"]["name"]] = o["counter"]["packets"]
        return out

    def load(self, path):
        self.ns_run([self.nftlab, "set", "flush", "ip", "bench", "s"])
        if path:
            self.ns_run([self.nftlab, "element", "add", "ip", "bench", "s",
                         "--file", path])

    def timed(self, cmd):
        c0 = self.counters()
        t0 = time.time()
        r = self.ns_run(["/usr/bin/time", "-v", "timeout", "-s", "KILL",
                         str(self.args.timeout)] + cmd, check=False)
        t1 = time.time()
        c1 = self.counters()
        m = re.search(r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)",
                      r.stderr)
        rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", r.stderr)
        cpu = [float(re.search(r"%s time \(seconds\): ([\d.]+)" % k,
                               r.stderr).group(1)) for k in ("User", "System")]
        wall = (int(m.group(1) or 0) * 3600 + int(m.group(2)) * 60 +
                float(m.group(3)))
        run = {"rc": r.returncode, "wall_s": wall, "rss_kB": int(rss.group(1)),
               "user_s": cpu[0], "sys_s": cpu[1],
               "miss": c1["miss"] - c0["miss"],
               "false_match": c1["falsematch"] - c0["falsematch"],
               "probe_stay": c1["probe_stay"] - c0["probe_stay"],
               "probe_never": c1["probe_never"] - c0["probe_never"],
               "span": [t0, t1]}
        st = re.search(r"stats: (.*)", r.stderr)
        if st:
            run["stats"] = parse_stats(st.group(1))
        if r.returncode == 137:
            run["timed_out"] = True
        elif r.returncode not in (0, 3):
            run["stderr"] = r.stderr[-500:]
        return run

    def straced(self, cell, tool, cmd):
        log = os.path.join(self.work, "strace.out")
        c0 = self.counters()
        r = self.ns_run(["strace", "-f", "-qq", "-e", "trace=sendmsg", "-ttt",
                         "-T", "-o", log] + cmd, check=False)
        c1 = self.counters()
        best = None
        with open(log) as f:
            for line in f:
                m = re.search(r"(\d+\.\d+) sendmsg\(.*<(\d+\.\d+)>\s*$", line)
                if m and (not best or float(m.group(2)) > best[1]):
                    best = (float(m.group(1)), float(m.group(2)))
        probe = {"rc": r.returncode, "miss": c1["miss"] - c0["miss"],
                 "false_match": c1["falsematch"] - c0["falsematch"]}
        if best:
            probe["sendmsg_s"] = best[1]
            self.windows.append((cell, tool, best[0], best[1]))
        return probe

    def cell(self, case, name, tools, reset, expect=None):
        """tools: {name: cmd}; reset: file the set starts from (None: empty)"""
        # cold start: the set holds nothing before the commit, so the
        # STAY addresses only count as misses after it (not measured)
        cell = {"case": case, "name": name, "tools": {},
                "stay_held_before": reset is not None}
        self.cells.append(cell)
        order = list(tools)
        for rep in range(self.reps):
            for tool in order[rep % len(order):] + order[:rep % len(order)]:
                # a tool that ran out of --timeout is not run again
                if any(x.get("timed_out") for x in
                       cell["tools"].get(tool, {}).get("runs", [])):
                    continue
                self.load(reset)
                run = self.timed(tools[tool])
                cell["tools"].setdefault(tool, {"runs": []})["runs"].append(run)
                print("bench-sync: %s: %s: %.2f s, %d kB, exit %d" %
                      (name, tool, run["wall_s"], run["rss_kB"], run["rc"]),
                      flush=True)
        for tool, cmd in tools.items():
            t = cell["tools"][tool]
            t["wall_s"] = statistics.median(r["wall_s"] for r in t["runs"])
            t["rss_kB"] = statistics.median(r["rss_kB"] for r in t["runs"])
            for key in ("user_s", "sys_s"):
                t[key] = statistics.median(r[key] for r in t["runs"])
            for key in ("dump_s", "kernel_s"):
                v = [r["stats"][key] for r in t["runs"] if key in r.get("stats", {})]
                if v:
                    t[key] = statistics.median(v)
            t["timed_out"] = any(r.get("timed_out") for r in t["runs"])
            if not tool.startswith("nft-list") and not t["timed_out"]:
                self.load(reset)
                t["probe_run"] = self.straced(len(self.cells) - 1, tool, cmd)
        if expect:
            cell["expect"] = expect
        return cell

    def monitored(self, cmd):
        """the events nft monitor prints while cmd runs"""
        mon = subprocess.Popen(["ip", "netns", "exec", self.ns, "nft",
                                "monitor"], stdout=subprocess.PIPE, text=True)
        time.sleep(0.5)
        r = self.ns_run(cmd, check=False)
        time.sleep(0.5)
        mon.terminate()
        events = [l for l in mon.communicate()[0].splitlines() if l.strip()]
        return r.returncode, len(events)

    def zero_writes(self, cmd, reset, changed):
        """nft monitor during a sync of an equal file (and, to show that
        the monitor sees a sync's commit, one of a file without its first
        line)"""
        self.load(reset)
        rc, events = self.monitored(cmd + [reset])
        crc, cevents = self.monitored(cmd + [changed])
        return {"rc": rc, "monitor_events": events, "control_rc": crc,
                "control_monitor_events": cevents}

    def run(self, a):
        self.args = a
        self.probe_files = []
        sync = [self.nftlab, "--stats", "set", "sync", "ip", "bench", "s",
                "--file"]
        for n in a.hash_sizes:
            for churn in (0.01, 0.10):
                base, new, stay = hash_files(n, churn)
                fb = self.write("base.txt", base)
                fn = self.write("new.txt", new)
                fa = self.write("flushadd.nft", new, "flush set ip bench s\n"
                                "add element ip bench s {\n", "\n}\n")
                self.table(False, 4 * n, stay)
                self.cell("1 refresh", "hash %s, %d %% churn" %
                          (size_name(n), round(churn * 100)),
                          {"nftlab-sync": sync + [fn],
                           "nft-flush-add": ["nft", "-f", fa]}, fb,
                          {"del": int(n * churn), "add": int(n * churn)})
        n = a.ivl_size
        base, new, stay = ivl_files(n, 0.01)
        k = int(n * 0.01)
        fb = self.write("base.txt", base)
        fn = self.write("new.txt", new)
        fa = self.write("flushadd.nft", new, "flush set ip bench s\n"
                        "add element ip bench s {\n", "\n}\n")
        fd = self.write("delta.nft", base[:k], "delete element ip bench s {\n",
                        "\n}\nadd element ip bench s {\n" + ",\n".join(new[-k:])
                        + "\n}\n")
        self.table(True, 4 * n, stay)
        self.cell("2 geoip", "interval %s prefixes, 1 %% churn" % size_name(n),
                  {"nftlab-sync": sync + [fn], "nft-flush-add": ["nft", "-f", fa],
                   "nft-delta": ["nft", "-f", fd]}, fb, {"del": k, "add": k})
        for kind, n in (("hash", a.cold_hash), ("interval", a.ivl_size)):
            base, _, stay = (hash_files if kind == "hash" else ivl_files)(n, 0)
            fb = self.write("base.txt", base)
            fa = self.write("flushadd.nft", base, "flush set ip bench s\n"
                            "add element ip bench s {\n", "\n}\n")
            self.table(kind == "interval", 4 * n, stay)
            self.cell("3 cold", "%s %s, empty to full" % (kind, size_name(n)),
                      {"nftlab-sync": sync + [fb],
                       "nftlab-bulk": [self.nftlab, "--stats", "element", "add",
                                       "ip", "bench", "s", "--file", fb],
                       "nft-flush-add": ["nft", "-f", fa]}, None,
                      {"del": 0, "add": n})
        n = a.equal_size
        base, _, stay = hash_files(n, 0)
        fb = self.write("base.txt", base)
        self.table(False, 4 * n, stay)
        cell = self.cell("4 equal", "hash %s, nothing changed" % size_name(n),
                         {"nftlab-sync": sync + [fb],
                          "nft-list": ["nft", "-j", "list", "set", "ip", "bench",
                                       "s"]}, fb, {"del": 0, "add": 0})
        cell["zero_writes"] = self.zero_writes(
            sync, fb, self.write("control.txt", base[1:]))
        self.probe_stop()
        self.probe_windows()
        self.ns_run(["nft", "delete", "table", "ip", "bench"], check=False)
        return {"meta": meta(a), "cells": self.cells}

    def probe_windows(self):
        """the probe's datagrams sent inside each commit's sendmsg()"""
        hist = {}
        for path, first_cell in self.probe_files:
            with open(path, "rb") as f:
                head = f.readline().split()
                counts = array.array("I")
                counts.frombytes(f.read())
            hist[first_cell] = (int(head[0]) / 1e6, counts, int(head[1]))
        for cell, tool, start, dur in self.windows:
            owner = max(k for k in hist if k <= cell)
            t0, counts, _ = hist[owner]
            lo, hi = int((start - t0) * 1000), int((start + dur - t0) * 1000)
            sent = sum(counts[max(lo, 0):max(hi + 1, 0)])
            self.cells[cell]["tools"][tool]["probe_run"]["sent_in_commit"] = sent


def parse_stats(s):
    """nftlab --stats: the figures the report uses"""
    out = {}
    for key, rx in (("dump_s", r"dump and compare ([\d.]+) s"),
                    ("kernel_s", r"kernel ([\d.]+) s"),
                    ("read_s", r"read ([\d.]+) s"),
                    ("build_s", r"build ([\d.]+) s")):
        m = re.search(rx, s)
        if m:
            out[key] = float(m.group(1))
    m = re.search(r"-(\d+) \+(\d+), (\d+) timeouts changed", s)
    if m:
        out["del"], out["add"] = int(m.group(1)), int(m.group(2))
    m = re.search(r"set (\d+) elements", s)
    if m:
        out["set_elements"] = int(m.group(1))
    return out


def size_name(n):
    return "%dk" % (n // 1000) if n < 1000000 else "%gM" % (n / 1e6)


def meta(a):
    def cmd(args):
        try:
            return subprocess.run(args, capture_output=True, text=True).stdout.strip()
        except OSError:
            return "?"
    cpu = "?"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    return {"date": datetime.datetime.now(datetime.timezone.utc).strftime(
                "%Y-%m-%dT%H:%M:%SZ"),
            "command": a.command, "cpu": cpu, "nproc": os.cpu_count(),
            "kernel": os.uname().release, "nft": cmd(["nft", "--version"]),
            "nftlab_commit": cmd(["git", "-C", os.path.dirname(os.path.abspath(
                __file__)), "rev-parse", "--short", "HEAD"]),
            "reps": a.reps, "probe_rate_pps": a.rate,
            "loadavg_start": a.loadavg}


# ---------------------------------------------------------------- report
def report(d, analysis=None):
    path = os.path.join(d, "results.json")
    r = json.load(open(path))
    if analysis:
        # the reading of the figures is kept with them, so that README.md
        # can be written again from results.json alone
        with open(analysis) as f:
            r["analysis"] = f.read()
        with open(path, "w") as f:
            json.dump(r, f, indent=1)
    m = r["meta"]
    rows = []
    for c in r["cells"]:
        ref = c["tools"].get("nft-flush-add", {}).get("wall_s")
        for tool, t in c["tools"].items():
            runs = t["runs"]
            pr = t.get("probe_run", {})
            miss = (str(sum(x["miss"] for x in runs) + pr.get("miss", 0))
                    if c["stay_held_before"] else "n/a")
            wall = ("> %.0f" % t["wall_s"]) if t.get("timed_out") else (
                "%.2f" % t["wall_s"])
            rows.append([c["case"], c["name"], tool, wall,
                         "%.2f" % t.get("user_s", 0), "%.2f" % t.get("sys_s", 0),
                         "-" if t.get("timed_out") else
                         "%.1f" % (t["rss_kB"] / 1024),
                         "%.3f" % t["dump_s"] if "dump_s" in t else "-",
                         "%.3f" % t["kernel_s"] if "kernel_s" in t else
                         ("%.3f" % pr["sendmsg_s"] if "sendmsg_s" in pr else "-"),
                         ("< %.2fx" if t.get("timed_out") else "%.1fx") %
                         (ref / t["wall_s"]) if ref else "-", miss,
                         str(sum(x["false_match"] for x in runs) +
                             pr.get("false_match", 0)),
                         str(pr.get("sent_in_commit", "-")),
                         str(min(x["probe_stay"] + x["probe_never"] for x in runs))])
    head = ["case", "cell", "tool", "wall_s", "user_s", "sys_s", "rss_MB", "dump_s", "kernel_s",
            "vs flush+add", "miss", "false", "probe@commit", "probe/run"]
    w = [max(len(x[i]) for x in rows + [head]) for i in range(len(head))]
    table = "\n".join("    " + "  ".join(x[i].ljust(w[i]) for i in range(len(head)))
                      for x in [head] + rows)
    goals = judge(r["cells"])
    text = ("set sync benchmark, %s\n\n%s\n\n%s\n" % (m["date"], table,
                                                        "\n".join(goals)))
    with open(os.path.join(d, "report.txt"), "w") as f:
        f.write(text)
    with open(os.path.join(d, "README.md"), "w") as f:
        f.write(readme(r, table, goals))
    sys.stdout.write(text)


def probe_line(cells):
    miss = sum(x["miss"] for c in cells if c["stay_held_before"]
               for t in c["tools"].values()
               for x in t["runs"] + [t.get("probe_run", {"miss": 0})])
    false = sum(x["false_match"] for c in cells for t in c["tools"].values()
                for x in t["runs"] + [t.get("probe_run", {"false_match": 0})])
    commits = [(c["name"], tool, t["probe_run"].get("sent_in_commit"))
               for c in cells for tool, t in c["tools"].items()
               if "sendmsg_s" in t.get("probe_run", {})]
    idle = ["%s/%s" % (n, tool) for n, tool, sent in commits if not sent]
    return ("Packet probe: %d misses, %d false matches in all runs of all "
            "tools; datagrams sent inside the commit's sendmsg(): > 0 in %d "
            "of %d commits%s" % (miss, false, len(commits) - len(idle),
                                 len(commits), " (none in: %s)" %
                                 ", ".join(idle) if idle else ""))


def judge(cells):
    out = [probe_line(cells)]
    for c in cells:
        t = c["tools"]
        s = t.get("nftlab-sync")
        if not s:
            continue
        bad = [x for x in s["runs"] if x["rc"] not in (0, 3)]
        st = [x.get("stats", {}) for x in s["runs"]]
        exp = c.get("expect", {})
        counts_ok = all(x.get("del") == exp.get("del") and x.get("add") == exp.get("add")
                        for x in st) if exp else True
        line = "%s: sync exit status %s, -del +add as expected: %s" % (
            c["name"], "ok" if not bad else "FAILED", "yes" if counts_ok else "NO")
        if c["name"].startswith("hash 1M, 1 %"):
            ratio = t["nft-flush-add"]["wall_s"] / s["wall_s"]
            line += "; GOAL >= 10x less wall than nft flush+add: %.2fx, %s" % (
                ratio, "met" if ratio >= 10 else "NOT MET")
        if c["case"] == "3 cold":
            ratio = s["wall_s"] / t["nftlab-bulk"]["wall_s"]
            line += "; GOAL no slower than element add --file: %.2fx its wall, %s" % (
                ratio, "met" if ratio <= 1.0 else "NOT MET")
        if "zero_writes" in c:
            z = c["zero_writes"]
            line += ("; zero writes: %d nft monitor events (exit %d; a sync "
                     "deleting one element: %d events, exit %d)" % (
                         z["monitor_events"], z["rc"],
                         z["control_monitor_events"], z["control_rc"]))
        out.append(line)
    return out


def readme(r, table, goals):
    m = r["meta"]
    return """# set sync benchmark (issue #53 item 2)

Command: `{cmd}`
Date: {date}; CPU: {cpu} ({nproc} CPUs); kernel {kernel}; {nft}; nftlab {commit}.
Median of {reps} runs per tool, wall and peak RSS from GNU time -v inside the
network namespace; load average at the start: {load}.  Packet probe: UDP at
{rate}/s to 4 addresses every file holds and 4 none holds, counted by
`ip daddr STAY ip daddr != @s` (miss) and `ip daddr NEVER ip daddr @s`
(false) over all runs (`n/a`: cold start, the set holds nothing before
the commit); `probe@commit`: datagrams the probe sent inside the
commit's sendmsg() (one extra run under strace); `> T`: killed after
the --timeout of T seconds, not repeated; `probe/run`: the fewest
probe datagrams counted by the rules in one timed run.  `kernel_s`: nftlab
--stats (the batch's sendmsg), for nft the sendmsg of the strace run.
`dump_s`: nftlab's dump and comparison of the set (--stats).

    {table}

Regenerate this file and report.txt: `userspace/bench_sync.py report DIR`
(the Analysis below is stored in results.json).

## Goals

{goals}

## Analysis

{analysis}
""".format(analysis=r.get("analysis", "(none stored: bench_sync.py report DIR "
                                   "--analysis FILE)").strip(),
           cmd=m["command"], date=m["date"], cpu=m["cpu"], nproc=m["nproc"],
           kernel=m["kernel"], nft=m["nft"], commit=m["nftlab_commit"],
           reps=m["reps"], load=m["loadavg_start"], rate=m["probe_rate_pps"],
           table=table.strip(), goals="\n".join("- " + g for g in goals))


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--netns", required=True)
    r.add_argument("--nftlab", required=True)
    r.add_argument("--probe", required=True)
    r.add_argument("--out", required=True)
    r.add_argument("--work", required=True)
    r.add_argument("--reps", type=int, default=3)
    r.add_argument("--rate", type=int, default=20000)
    r.add_argument("--timeout", type=int, default=300,
                   help="seconds a run may take; one that takes longer is "
                   "killed, reported as '> TIMEOUT' and not run again")
    r.add_argument("--hash-sizes", type=int, nargs="+", default=[100000, 1000000])
    r.add_argument("--ivl-size", type=int, default=500000)
    r.add_argument("--cold-hash", type=int, default=1000000)
    r.add_argument("--equal-size", type=int, default=1000000)
    r.add_argument("--command", default=" ".join(sys.argv))
    r.add_argument("--loadavg", default=open("/proc/loadavg").read().split()[0])
    rp = sub.add_parser("report")
    rp.add_argument("dir")
    rp.add_argument("--analysis", help="a text file: stored in results.json "
                    "as the README's Analysis section")
    a = p.parse_args()
    if a.cmd == "report":
        report(a.dir, a.analysis)
        return
    os.makedirs(a.out, exist_ok=True)
    res = Bench(a).run(a)
    with open(os.path.join(a.out, "results.json"), "w") as f:
        json.dump(res, f, indent=1)
    report(a.out)


if __name__ == "__main__":
    main()
