# SPDX-License-Identifier: GPL-2.0
"""T0 for anyone's ruleset: t0.py run --ruleset FILE --packets SPEC.

The suite's own cells count what one lookup costs; a netfilter developer
or a distribution wants to know what their whole ruleset costs per packet,
on the baseline and the patched kernel, with spectre_v2=off beside them.
Each ruleset gets two groups in every boot, with the same packet:

  none     the stack alone: the packet takes the same way through the
           kernel with no table loaded;
  ruleset  the file, loaded as it is (after a "flush ruleset": the guest
           is T0's own VM, so no earlier group's table can stay behind).

"ruleset" less "none" is what the ruleset costs that packet.  pktgen sends
UDP only, received on the guest's dummy device (nftb0, which a netdev
chain or iifname match must name); SPEC says which packet and where the
stack sends it (route=):

  local    daddr is an address of nftb0: prerouting and input hooks
           (default: the common host firewall);
  forward  daddr is routed out of a second dummy device (forwarding on):
           prerouting, forward and postrouting hooks;
  none     no route: prerouting only, then the stack drops the packet.

Output hooks see only what the stack sends in reply (an ICMP error, say),
inside the packet's count.  The cells of a ruleset are measured across
boots (t0cells.RANGED): a ruleset may hold conntrack or rhash sets, whose
cost per packet this lab has seen move between boots.
"""
import hashlib
import ipaddress
import os
import re

from ..files import write
from ..model import cell
from ..render import render_table
from .text import fmt_range, parse_range

# SPEC keys: what each one sets, and its default (None: required).
SPEC_KEYS = {
    "daddr": None,
    "saddr": "192.0.2.1",      # TEST-NET-1: never one of the guest's own
    "saddr6": "2001:db8:ffff::1",
    "sport": "9",              # pktgen's own defaults
    "dport": "9",
    "proto": "udp",
    "size": "80",
    "route": "local",
}
ROUTES = {"local": "rx-local", "forward": "rx-forward", "none": "rx-noroute"}
# the device's (and so the packet's destination) MAC
MAC = "02:00:00:00:0e:01"
# An IPv6 packet of SIZE bytes needs room for its headers (pktgen refuses less).
MIN_SIZE = {4: 60, 6: 80}
NAME_RE = re.compile(r"^[A-Za-z0-9_.+-]+$")
INCLUDE_RE = re.compile(r"^\s*include\s", re.M)


def parse_packets(spec):
    """The packet of SPEC ("daddr=10.0.0.1,dport=22,route=local") as a
    dict; SystemExit with the reason for anything T0 cannot send as asked."""
    out, seen = {}, set()
    for item in spec.split(","):
        key, eq, value = item.strip().partition("=")
        if not eq or not value:
            raise SystemExit("t0: --packets: '%s' is not KEY=VALUE (keys: %s)" % (item, ", ".join(SPEC_KEYS)))
        if key not in SPEC_KEYS or key == "saddr6":
            raise SystemExit("t0: --packets: unknown key '%s' (keys: %s)"
                             % (key, ", ".join(k for k in SPEC_KEYS if k != "saddr6")))
        if key in seen:
            raise SystemExit("t0: --packets: '%s' given twice" % key)
        seen.add(key)
        out[key] = value
    if "daddr" not in out:
        raise SystemExit("t0: --packets needs daddr=ADDRESS (the packet's destination)")
    try:
        daddr = ipaddress.ip_address(out["daddr"])
    except ValueError:
        raise SystemExit("t0: --packets: daddr '%s' is not an IPv4 or IPv6 address" % out["daddr"])
    ipver = daddr.version
    saddr = out.get("saddr", SPEC_KEYS["saddr" if ipver == 4 else "saddr6"])
    try:
        src = ipaddress.ip_address(saddr)
    except ValueError:
        raise SystemExit("t0: --packets: saddr '%s' is not an IP address" % saddr)
    if src.version != ipver:
        raise SystemExit("t0: --packets: saddr %s and daddr %s are not of one IP version" % (saddr, daddr))
    if src == daddr:
        raise SystemExit("t0: --packets: saddr equals daddr: the stack would drop the packet as a martian")
    proto = out.get("proto", SPEC_KEYS["proto"])
    if proto != "udp":
        raise SystemExit("t0: --packets: proto=%s: pktgen sends UDP only" % proto)
    route = out.get("route", SPEC_KEYS["route"])
    if route not in ROUTES:
        raise SystemExit("t0: --packets: route=%s: one of %s" % (route, ", ".join(ROUTES)))
    pkt = dict(ipver=ipver, daddr=str(daddr), saddr=str(src), route=route, proto=proto)
    for key, lo, hi in (("sport", 1, 65535), ("dport", 1, 65535), ("size", MIN_SIZE[ipver], 9000)):
        text = out.get(key, SPEC_KEYS[key])
        if not text.isdigit() or not lo <= int(text) <= hi:
            raise SystemExit("t0: --packets: %s=%s: a number from %d to %d" % (key, text, lo, hi))
        pkt[key] = int(text)
    return pkt


def spec_text(pkt):
    """PKT (parse_packets()) in SPEC syntax, every key given."""
    return ",".join("%s=%s" % (k, pkt[k]) for k in ("daddr", "saddr", "proto", "sport", "dport", "size", "route"))


def load(path, spec):
    """One ruleset of the run: its name, text, digest and packet."""
    name = os.path.basename(path)
    if name.endswith(".nft"):
        name = name[:-4]
    if not NAME_RE.match(name):
        raise SystemExit("t0: --ruleset %s: name the file with letters, digits and _.+- only (the cell's name)"
                         % path)
    try:
        with open(path) as f:
            text = f.read()
    except OSError as e:
        raise SystemExit("t0: --ruleset %s: %s" % (path, e.strerror))
    if INCLUDE_RE.search(text):
        raise SystemExit("t0: --ruleset %s: 'include' is not supported: the guest gets this one file" % path)
    if not text.strip():
        raise SystemExit("t0: --ruleset %s is empty" % path)
    return dict(name=name, file=path, sha256=hashlib.sha256(text.encode()).hexdigest(), text=text,
                packets=parse_packets(spec))


def load_all(files, specs):
    """--ruleset FILE... and --packets SPEC... paired in order (one SPEC
    for every file: that one)."""
    if len(specs) == 1:
        specs = specs * len(files)
    if len(specs) != len(files):
        raise SystemExit("t0: %d --ruleset and %d --packets: give one --packets, or one per --ruleset"
                         % (len(files), len(specs)))
    out = [load(f, s) for f, s in zip(files, specs)]
    names = [r["name"] for r in out]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise SystemExit("t0: two rulesets named %s: their cells would share a name" % ", ".join(dup))
    return out


def stored(rs):
    """What run.json keeps of ruleset RS (its text goes to t0/rulesets/)."""
    return dict(name=rs["name"], file=rs["file"], sha256=rs["sha256"], packets=rs["packets"])


def save_texts(t0dir, rulesets):
    """The rulesets as counted, beside run.json (a stored run is read
    without the user's files)."""
    d = os.path.join(t0dir, "rulesets")
    os.makedirs(d, exist_ok=True)
    for rs in rulesets:
        write(os.path.join(d, rs["name"] + ".nft"), rs["text"])


def scenarios(rulesets):
    """[(group dict, [cells])]: the two groups of every ruleset."""
    groups = []
    for rs in rulesets:
        tag = "-" + rs["name"]
        for what in ("none", "ruleset"):
            gid = "T0-rs%s%s" % ("-none" if what == "none" else "", tag)
            groups.append((dict(gid=gid, mode=ROUTES[rs["packets"]["route"]], type="ruleset", ruleset=rs,
                                what=what),
                           [cell("T0", "ruleset", what, 0, "-", tag)]))
    return groups


def group_packet(pkt):
    """group_line()'s packet fields and the pktgen options for PKT."""
    p = dict(ipver=pkt["ipver"], addr=pkt["daddr"], port=str(pkt["dport"]), mac=MAC, size=pkt["size"])
    src = ("src6 %s" % pkt["saddr"] if pkt["ipver"] == 6 else
           "src_min %s;src_max %s" % (pkt["saddr"], pkt["saddr"]))
    # burst 1: a new skb per packet, as the stack consumes (and changes) it
    return p, "burst 1;%s;udp_src_min %d;udp_src_max %d" % (src, pkt["sport"], pkt["sport"])


def write_group_files(plandir, g):
    """The group's sets file (the ruleset, or nothing) and its cells' rules
    file; returns (setsfile, rulesfile)."""
    rs = g["ruleset"]
    setsf = "ruleset-%s%s.nft" % (rs["name"], "-none" if g["what"] == "none" else "")
    text = "flush ruleset\n"
    if g["what"] == "ruleset":
        text += "# %s (sha256 %s)\n%s" % (rs["file"], rs["sha256"], rs["text"])
        if not text.endswith("\n"):
            text += "\n"
    write(os.path.join(plandir, setsf), text)
    # the cell itself changes nothing: the group loaded what it counts
    rulesf = "rules-ruleset-nothing.nft"
    write(os.path.join(plandir, rulesf), "# the group's ruleset, as loaded\n")
    return setsf, rulesf


def render(t0):
    """The report's lines on the rulesets of T0 (a run with run.json's
    "rulesets"): what each costs per packet, kernel by kernel."""
    rulesets = t0["run"].get("rulesets")
    if not rulesets:
        return []
    out = ["", "Rulesets (--ruleset): per packet, with the ruleset less the same packet without it"
           " (a range: every boot's min..max; ruleset less none: the ranges' extremes):"]
    for rs in rulesets:
        out.append("  %s: %s, sha256 %s, packets %s" % (rs["name"], rs["file"], rs["sha256"][:12],
                                                      spec_text(rs["packets"])))
    rows = {}
    for r in t0["rows"]:
        c = r["cell"].split("/")
        if c[1] == "ruleset":
            rows[(c[4][3:], c[2], r["variant"], r["mitigation"])] = r
    hdr = ["ruleset", "kernel", "spectre_v2", "insns", "no ruleset", "ruleset costs", "ind.thunks", "ind.other"]
    table = []
    for rs in rulesets:
        for variant in t0["run"]["variants"]:
            for mitig in t0["run"]["mitigations"]:
                with_rs = rows.get((rs["name"], "ruleset", variant, mitig))
                none = rows.get((rs["name"], "none", variant, mitig))
                if not (with_rs and none):
                    continue
                (a, b), (c, d) = parse_range(with_rs["kernel_insns"]), parse_range(none["kernel_insns"])
                # every boot's ruleset less every boot's none
                cost = fmt_range(a - d, b - c)
                table.append([rs["name"], variant, mitig, with_rs["kernel_insns"], none["kernel_insns"], cost,
                              "%s (%s)" % (with_rs["indirect_thunks"], none["indirect_thunks"]),
                              "%s (%s)" % (with_rs["indirect_other"], none["indirect_other"])])
    out.append(render_table(hdr, table))
    out.append("  thunks and other indirect branches: with the ruleset (without it)")
    return out
