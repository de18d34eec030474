# SPDX-License-Identifier: GPL-2.0
"""A module's calls by the symbol they are relocated against.

In a relocatable object (a .ko) objdump -dr prints a call as a call to
the next byte ("call 1f <fn+0x1b>") and the callee on the relocation line
after it ("R_X86_64_PLT32 nft_rhash_lookup-0x4").  join_relocs() puts the
callee into the instruction's annotation ("call 1f <nft_rhash_lookup>"),
which is how a linked image names it, so one classifier reads both.
"""
import re

INSTRUCTION = re.compile(r" *([0-9a-f]+):\t")
RELOCATION_OFFSET = re.compile(r"\t+([0-9a-f]+): ")
# the longest x86 instruction, in bytes
MAX_INSN = 15
# an address in a compare: "cmp $0x0,%rax" + "R_X86_64_32S fn"
ADDRESS_RELOC = re.compile(r"\t+[0-9a-f]+: R_X86_64_(32S|64)\t")
# a PC-relative call or jump
BRANCH_RELOC = re.compile(r"\t+[0-9a-f]+: R_X86_64_(PLT32|PC32)\t")
BRANCH = re.compile(r"\t(cs |notrack )?(call|jmp) ")
TEXT_OFFSET = re.compile(r"\.text\+0x[0-9a-f]+")
TRAILING_ANNOTATION = re.compile(r"<[^>]*>$")


def text_offsets(objdump_t):
    """{offset in .text: name} of a module's functions, from objdump -t
    (a reference to a static function is "SECTION+OFFSET")."""
    offsets = {}
    for line in objdump_t.split("\n"):
        f = line.split()
        if len(f) >= 6 and f[-3] == ".text" and f[-4] == "F":
            offsets[f[0].lstrip("0")] = f[-1]
    return offsets


def address_target(symbol, offsets):
    """The function an R_X86_64_32S/64 relocation names, "+" (no
    function) for any other section offset."""
    if TEXT_OFFSET.fullmatch(symbol):
        return offsets.get(symbol[8:].lstrip("0"), "+")
    return symbol


def branch_target(symbol):
    """The callee of a PLT32/PC32 relocation: the addend -4 is the
    pc-relative displacement's own size; another addend is an offset
    into the symbol, never a call to the function itself."""
    if symbol.endswith("-0x4"):
        return symbol[:-4]
    return symbol + "+0x?"


def reloc_symbol(line):
    """The symbol of a relocation line: "sym-0x4" of
    "1b: R_X86_64_PLT32 sym-0x4"."""
    f = line.split()
    return f[2] if len(f) > 2 else ""


def applies_to(reloc_line, insn_line):
    """Whether the relocation patches a field of the instruction.  With
    --disassemble=FUNC objdump prints the relocations of the functions
    before FUNC after FUNC's first instruction: they are not its own (and
    a first instruction "call __fentry__" must not take the first one's
    symbol)."""
    insn = int(INSTRUCTION.match(insn_line).group(1), 16)
    return 0 <= int(RELOCATION_OFFSET.match(reloc_line).group(1), 16) - insn < MAX_INSN


def join_relocs(lines, offsets):
    """The instruction lines of objdump -dr output, with each call's,
    jump's and compare's relocation folded into its annotation."""
    out = []
    pending = None

    def flush():
        nonlocal pending
        if pending is not None:
            out.append(pending)
        pending = None

    for line in lines:
        line = line.rstrip("\n")
        if INSTRUCTION.match(line):
            flush()
            pending = line
            continue
        address = ADDRESS_RELOC.match(line)
        if not (address or BRANCH_RELOC.match(line)) or pending is None or \
                not applies_to(line, pending):
            # a header, another relocation type, another function's relocation
            continue
        if address:
            target = address_target(reloc_symbol(line), offsets)
            if "\tcmp " in pending and not re.search(r"[-+]", target):
                pending = pending + " <" + target + ">"
        elif BRANCH.search(pending):
            target = branch_target(reloc_symbol(line))
            if TRAILING_ANNOTATION.search(pending):
                pending = TRAILING_ANNOTATION.sub(lambda m: "<" + target + ">", pending, count=1)
            else:
                pending = pending + " <" + target + ">"
        # only an instruction's first relocation names its target
        flush()
    flush()
    return out
