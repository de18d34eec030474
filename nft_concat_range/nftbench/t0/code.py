# SPDX-License-Identifier: GPL-2.0
"""The code of the functions a T0 run counted, as digests: t0/code.json.

Between two builds, T0's counts move by one or two instructions per packet
in functions whose machine code is the same (fib_table_lookup() and
__udp4_lib_lookup() between 7.3 kernels whose net/ipv4 objects are
identical): their work depends on data (addresses, allocation order), and a
patch changes the data layout of a kernel it does not touch.  Such a delta
is exact and reproducible, but it is not the effect of any line of the
patch.  t0.py compare --attribute splits a delta between the functions whose
code differs and those whose code does not, from these digests.

A digest covers a function's instructions as objdump disassembles them from
vmlinux, without what the link alone decides: the addresses, the encodings,
the displacements of rip-relative and per-CPU operands and absolute
addresses.  What stays is the instruction sequence, with every branch and
call target named by its symbol and offset, struct offsets and immediates.
"""
import hashlib
import json
import os
import re
import subprocess

CODE_FILE = "code.json"

# objdump -d -w: "ADDR:\tBYTES \tMNEMONIC OPERANDS"
INSN_RE = re.compile(r"^\s*[0-9a-f]+:\s+(?:[0-9a-f]{2} )+\s*(.*)$")
# "ffffffff81234567 <sym+0x12>": a branch or call target, or the symbol
# objdump names in a comment
TARGET_RE = re.compile(r"\b[0-9a-f]{16} (<[^>]+>)")
RIP_RE = re.compile(r"-?0x[0-9a-f]+\(%rip\)")
PERCPU_RE = re.compile(r"%gs:-?0x[0-9a-f]+")
# an absolute kernel address as an immediate or displacement, or as the
# sign-extended 32-bit displacement of -mcmodel=kernel (the kernel's text
# and data lie in the top 2 GiB: -0x80000000..-0x40000000)
KADDR_RE = re.compile(r"0xffffffff[0-9a-f]{8}|-0x[4-8][0-9a-f]{7}\b")


def normalize(line):
    """The part of one objdump line that does not depend on the link, or
    None for a line that is not an instruction."""
    m = INSN_RE.match(line)
    if not m or not m.group(1).strip():
        return None
    text = TARGET_RE.sub(r"\1", m.group(1))
    text = RIP_RE.sub("(%rip)", text)
    text = PERCPU_RE.sub("%gs:PERCPU", text)
    text = KADDR_RE.sub("KADDR", text)
    return " ".join(text.split())


def digest(disassembly):
    """The digest of one function's objdump output."""
    insns = [n for n in map(normalize, disassembly.splitlines()) if n]
    return hashlib.sha256("\n".join(insns).encode()).hexdigest()[:16]


def digests(vmlinux, functions, names):
    """{name: digest} of the functions NAMES of VMLINUX (FUNCTIONS:
    symbols.parse_functions() of its nm text); names it has no function of are
    left out."""
    where = {name: (addr, size) for addr, size, name in functions}
    out = {}
    for name in sorted(names):
        if name not in where:
            continue
        addr, size = where[name]
        text = subprocess.run(["objdump", "-d", "-w", "--start-address=0x%x" % addr,
                               "--stop-address=0x%x" % (addr + size), vmlinux],
                              check=True, capture_output=True, text=True).stdout
        out[name] = digest(text)
    return out


def counted_functions(t0, variant):
    """The functions any row of VARIANT in T0 (t0.json) spent instructions in."""
    names = set()
    for r in t0["rows"]:
        if r["variant"] == variant and r.get("per_function"):
            names.update(r["per_function"]["funcs"])
    return names


def write(t0dir, t0, kernels):
    """t0/code.json of a run counted per function (T0: its t0.json):
    {variant: {"stamp": the kernel's build stamp, "functions": {name:
    digest}}}.  KERNELS: {variant: (vmlinux, parse_functions() list,
    stamp)} of the kernels it booted."""
    code = {}
    for variant, (vmlinux, functions, stamp) in sorted(kernels.items()):
        code[variant] = dict(stamp=stamp, functions=digests(vmlinux, functions, counted_functions(t0, variant)))
    with open(os.path.join(t0dir, CODE_FILE), "w") as f:
        json.dump(code, f, indent=1, sort_keys=True)
        f.write("\n")
    return code


def load(resdir):
    """{variant: {name: digest}} of a run, or {} where it has no code.json
    (runs before it existed)."""
    try:
        with open(os.path.join(resdir, "t0", CODE_FILE)) as f:
            code = json.load(f)
    except FileNotFoundError:
        return {}
    return {v: c["functions"] for v, c in code.items()}
