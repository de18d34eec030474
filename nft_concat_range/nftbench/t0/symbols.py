# SPDX-License-Identifier: GPL-2.0
"""T0's view of a kernel image: the symbols the pktcount plugin watches
(the marks that bracket the counted runs, the retpoline and return thunks,
the functions the series is about, the interrupt entries and the call
sites that open a region: pktgen's for a packet, nfnetlink's for a
transaction; from `nm` and `objdump` of the vmlinux), and every text
function for --per-function.

Read by t0/run.py and t0/commit.py, which hand them to the plugin, and by
t0/breakdown.py (which function is a thunk: THUNK_RE); it imports no
other module of the suite."""
import re
import subprocess


# Symbols of the kernel the plugin counts (regular expressions on nm names).
THUNK_RE = re.compile(r"^(__x86_indirect_(call_|jump_|its_)?thunk_\w+|__x86_return_thunk|(?!__pfx_)\w+_return_thunk)$")
COUNT_RE = re.compile(r"^(nft_do_chain\w*|nf_hook_slow|__dev_queue_xmit|nft_lookup_eval|nft_dynset_eval"
                      r"|__?nft_set_do_lookup|nft_(hash|rhash|bitmap|rbtree|pipapo)\w*_(lookup|update|delete)\w*"
                      r"|nft_pipapo_avx2_lookup|nft_objref\w*_eval|nft_counter_eval|nft_immediate_eval"
                      r"|nft_counter_obj_eval|ipv4_conntrack_(in|defrag)"
                      # 7.3's rbtree lookup: lib/bsearch.c and its comparators
                      r"|bsearch|nft_array_\w+_cmp)$")
# Interrupt and exception entries: a region is suspended inside them.  Device
# interrupts enter through one stub per vector in irq_entries_start (push
# the vector, jump to asm_common_interrupt): each stub's first instruction
# is an entry, asm_common_interrupt must not count again.
IRQ_RE = re.compile(r"^asm_(sysvec_\w+|exc_\w+)$")
IRQSTUBS = ("irq_entries_start", "spurious_entries_start")
PUSH_RE = re.compile(r"^\s*([0-9a-f]+):\s+((?:[0-9a-f]{2} )+)\s*push\s+\$0x[0-9a-f]+")


class Watch:
    """What one kind of count watches: MARKS, the functions whose entry
    writes a snapshot; the regions, every direct call of a TARGETS function
    from a function whose name CALLERS matches; COUNT, the functions whose
    calls are counted."""

    def __init__(self, marks, callers, targets, count):
        self.marks, self.callers, self.targets, self.count = marks, callers, targets, count


# The packet: pktgen's calls of netif_receive_skb() (ingress) and
# __dev_queue_xmit() (egress); a snapshot each time the guest reads a pktgen
# device file (run-plan does after every configuration command and after
# every run).
PACKETS = Watch(("pktgen_if_show",), re.compile(r"^pktgen_"), ("netif_receive_skb", "__dev_queue_xmit"), COUNT_RE)
# A transaction: nfnetlink_rcv()'s call of nfnetlink_rcv_batch(), which
# runs a batch and its commit; a snapshot each time the guest reads
# /proc/net/pktgen/pgctrl (guest/commit-cost.py --mark).  Counted too: the
# set backend's commit and insert, and __schedule() (a region that
# schedules counts another task's work, which the report refuses).
COMMITS = Watch(("pgctrl_show",), re.compile(r"^nfnetlink_rcv$"), ("nfnetlink_rcv_batch",),
                re.compile(r"^(nft_rbtree_(commit|insert)|nft_array_may_resize|__schedule|rb_next|rb_prev)$"))


def kernel_nm(vmlinux):
    """`nm -S --defined-only VMLINUX`: the text both kernel_symbols() and
    parse_functions() read."""
    return subprocess.run(["nm", "-S", "--defined-only", vmlinux], check=True,
                          capture_output=True, text=True).stdout


def kernel_symbols(vmlinux, nm_text, watch=PACKETS):
    """[(kind, addr, size, name)] for the plugin, from the kernel's symbol
    table (NM_TEXT: kernel_nm(VMLINUX)), for what WATCH describes."""
    syms, callers, stubs = {}, [], []
    for line in nm_text.splitlines():
        parts = line.split()
        if len(parts) == 4:
            addr, size, typ, name = parts
        elif len(parts) == 3:
            (addr, typ, name), size = parts, "0"
        else:
            continue
        if typ not in "tT":
            continue
        if watch.callers.match(name):
            callers.append((int(addr, 16), int(size, 16)))
        if name in IRQSTUBS:
            stubs.append((int(addr, 16), int(size, 16)))
            continue
        if name in watch.marks:
            kind = "mark"
        elif THUNK_RE.match(name):
            kind = "thunk"
        elif watch.count.match(name):
            kind = "count"
        elif IRQ_RE.match(name):
            kind = "irq"
        else:
            continue
        a, n = int(addr, 16), int(size, 16)
        # Aliases share an address: keep the widest range under the most
        # specific name (__x86_indirect_thunk_array starts with _rax).
        old = syms.get(a)
        if old and old[0] != kind:
            raise SystemExit("t0: %s: %s (%s) and %s (%s) share an address" % (vmlinux, old[3], old[0], name, kind))
        if old:
            n = max(n, old[2])
            name = name if old[3].endswith("_array") else old[3]
        syms[a] = (kind, a, n, name)
    syms = list(syms.values())
    missing = [m for m in watch.marks if not any(s[3] == m and s[0] == "mark" for s in syms)]
    if missing:
        raise SystemExit("t0: %s has no symbol %s: cannot bracket the counted runs" % (vmlinux, ", ".join(missing)))
    if not any(s[3] == "asm_sysvec_apic_timer_interrupt" for s in syms) or not stubs:
        raise SystemExit("t0: %s: no timer interrupt entry or no irq_entries_start stubs: "
                         "interrupts would be counted as packet work" % vmlinux)
    syms += irq_stubs(vmlinux, stubs)
    sites = call_sites(vmlinux, callers, watch.targets)
    if sorted({s[3] for s in sites}) != sorted(watch.targets):
        raise SystemExit("t0: the calls of %s from %s not found in %s (found %s)"
                         % (", ".join(watch.targets), watch.callers.pattern, vmlinux, sites))
    return sorted(syms + sites, key=lambda s: s[1])


# --per-function: every function of the kernel's text, from nm's types
# t/T (local, global) and w/W (weak).
FUNC_TYPES = "tTwW"
# The order in which aliases at one address are named: the widest first
# (nothing is lost), then not an "_array" alias (__x86_indirect_thunk_array
# starts with _rax, as in kernel_symbols()), then global before local, then
# by name.
FUNC_BIND = {"T": 0, "W": 1, "t": 2, "w": 3}


def parse_functions(text):
    """[(addr, size, name)] from `nm -S --defined-only` TEXT: every text
    symbol with a size, one name per address, ranges that do not overlap
    (a symbol that starts inside another's range ends it there; a
    zero-size symbol holds no instruction)."""
    best = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) != 4 or parts[2] not in FUNC_TYPES:
            continue
        addr, size, typ, name = int(parts[0], 16), int(parts[1], 16), parts[2], parts[3]
        if not size:
            continue
        key = (-size, name.endswith("_array"), FUNC_BIND[typ], name)
        if addr not in best or key < best[addr][0]:
            best[addr] = (key, size, name)
    out = []
    for addr in sorted(best):
        _, size, name = best[addr]
        if out and out[-1][0] + out[-1][1] > addr:
            out[-1] = (out[-1][0], addr - out[-1][0], out[-1][2])
        out.append((addr, size, name))
    return out


CALL_RE = re.compile(r"^\s*([0-9a-f]+):\s+((?:[0-9a-f]{2} )+)\s*call\s+[0-9a-f]+ <([\w.]+)>")


def objdump(vmlinux, lo, n):
    return subprocess.run(["objdump", "-d", "-w", "--start-address=0x%x" % lo,
                           "--stop-address=0x%x" % (lo + n), vmlinux],
                          check=True, capture_output=True, text=True).stdout


def irq_stubs(vmlinux, ranges):
    """("irq", address, length, name) of every vector stub's first
    instruction (its push of the vector number)."""
    out = []
    for lo, n in ranges:
        for line in objdump(vmlinux, lo, n).splitlines():
            m = PUSH_RE.match(line)
            if m:
                a = int(m.group(1), 16)
                out.append(("irq", a, len(m.group(2).split()), "irq_stub_%x" % a))
    return out


def call_sites(vmlinux, ranges, targets):
    """("site", address, length, target) of every direct call of a
    TARGETS function inside the functions at RANGES (pktgen_xmit may be
    inlined into its caller: every pktgen function is searched)."""
    sites = []
    for lo, n in ranges:
        for line in objdump(vmlinux, lo, n).splitlines():
            m = CALL_RE.match(line)
            if m and m.group(3) in targets:
                sites.append(("site", int(m.group(1), 16), len(m.group(2).split()), m.group(3)))
    return sites
