# SPDX-License-Identifier: GPL-2.0
"""The call sites of a disassembly: which calls are direct, which go
through a retpoline, which are plain indirect calls.

The input is objdump's instruction lines ("  addr:\tmnemonic ops <ann>",
no raw bytes), each function's lines after a "<name>:" line.  The output
is one Event per call site, in the order of the input:

  direct NAME ADDR   call (or tail jmp or jcc) to a known function
  thunk THUNK ADDR   call (or jmp) through __x86_indirect_thunk_*
  inline-rp ADDR     inline retpoline with a non-constant target
  plain ADDR         "call *%reg"/"call *mem" with a non-constant target
  compare NAME ADDR  a compare with a known function's address
"""
import re
from collections import namedtuple

# Registers a call to another function may change (x86_64 SysV ABI):
# the constants they held are gone after it.
CALLER_SAVED = ("rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11")
# Prefixes objdump prints before the mnemonic (retpoline-safe calls, IBT).
PREFIXES = ("cs", "notrack", "bnd")

ANNOTATION = re.compile(r"<([^>]*)>$")
IMMEDIATE_TO_REG = re.compile(r"\$0x[0-9a-f]+,%[a-z0-9]+")
IMMEDIATE_TO_REG64 = re.compile(r"\$0x[0-9a-f]+,%r[a-z0-9]+")
REG_TO_REG = re.compile(r"%[a-z0-9]+,%[a-z0-9]+")
REG_TO_STACK_TOP = re.compile(r"%[a-z0-9]+,\(%rsp\)")
IMMEDIATE = re.compile(r"\$0x[0-9a-f]+")
REGISTER = re.compile(r"%[a-z0-9]+")
# A conditional jump: clang ends an INDIRECT_CALL_*() chain in tail
# position with "cmp $fn,%reg; je fn", a conditional tail call
JCC = re.compile(r"j(?!mp$)[a-z]+")
# test and bt write the flags only, push the stack: their last operand is
# a source.  (bts/btr/btc match too and do write it; the sites' functions
# have none in the lab builds.)
WRITES_NO_REGISTER = re.compile(r"test|push|bt")


class Event(namedtuple("Event", "kind name addr")):
    """One call site; name is None for inline-rp and plain."""

    def __str__(self):
        if self.name is None:
            return "%s %s" % (self.kind, self.addr)
        return "%s %s %s" % (self.kind, self.name, self.addr)


def hex_key(digits):
    """An address as the key of the symbol map: hex digits, no leading
    zeros (nm pads them, immediates do not)."""
    return digits.lstrip("0")


def norm(reg):
    """A register's 64-bit name: its 32-bit view (%eax, %r8d) holds the
    same constant when a mov loads it."""
    reg = reg[1:] if reg.startswith("%") else reg
    if re.fullmatch(r"e[a-z][a-z]", reg):
        return "r" + reg[1:]
    if re.fullmatch(r"r[0-9]+d", reg):
        return reg[:-1]
    return reg


def destination(ops):
    """The last operand of an AT&T operand list (the one written)."""
    return ops.split(",")[-1]


class Classifier:
    """Reads the instructions in order and follows what each register
    holds, so that mcmodel=large calls ("movabs $fn,%rax; call *%rax") and
    compares with a register count as what they load."""

    def __init__(self, addr2sym):
        self.addr2sym = addr2sym
        self.consts = {}
        self.saw_pause = False
        self.in_retpoline = False
        self.events = []

    def emit(self, kind, name, addr):
        self.events.append(Event(kind, name, addr))

    def known(self, reg):
        """The function whose address REG holds, None if not known."""
        value = self.consts.get(reg)
        return None if value is None else self.addr2sym.get(value)

    def clobber(self):
        for reg in CALLER_SAVED:
            self.consts.pop(reg, None)

    def feed(self, line):
        if line.startswith("<") and line.endswith(">:"):
            # a new function: nothing is known of its registers
            self.consts = {}
            return
        fields = line.split()
        if not fields:
            self.saw_pause = False
            return
        addr = fields[0][:-1] if fields[0].endswith(":") else fields[0]
        mnemonic = fields[1] if len(fields) > 1 else ""
        ops = fields[2] if len(fields) > 2 else ""
        if mnemonic in PREFIXES:
            mnemonic = ops
            ops = fields[3] if len(fields) > 3 else ""
        match = ANNOTATION.search(line)
        ann = match.group(1) if match else ""

        if mnemonic in ("call", "jmp") or JCC.fullmatch(mnemonic):
            self.call_or_jump(mnemonic, ops, ann, addr)
            return
        if mnemonic == "pause":
            self.saw_pause = True
            return
        if mnemonic == "lfence" and self.saw_pause:
            self.in_retpoline = True
            return
        self.saw_pause = False
        if self.in_retpoline and mnemonic == "mov" and REG_TO_STACK_TOP.fullmatch(ops):
            # the retpoline's "mov %reg,(%rsp); ret": %reg is the target
            target = self.known(norm(ops.split(",")[0]))
            if target is not None:
                self.emit("direct", target, addr)
            else:
                self.emit("inline-rp", None, addr)
            self.in_retpoline = False
            return
        if (mnemonic == "movabs" and IMMEDIATE_TO_REG.fullmatch(ops)) or \
                (mnemonic == "mov" and IMMEDIATE_TO_REG64.fullmatch(ops)):
            self.consts[norm(destination(ops))] = hex_key(ops[3:ops.index(",")])
            return
        if mnemonic == "mov" and REG_TO_REG.fullmatch(ops):
            source = norm(ops.split(",")[0])
            if source in self.consts:
                self.consts[norm(destination(ops))] = self.consts[source]
            else:
                self.consts.pop(norm(destination(ops)), None)
            return
        if mnemonic == "cmp":
            self.compare(ops, ann, addr)
            return
        if WRITES_NO_REGISTER.match(mnemonic):
            return
        dest = destination(ops)
        if REGISTER.fullmatch(dest):
            self.consts.pop(norm(dest), None)

    def call_or_jump(self, mnemonic, ops, ann, addr):
        if ops.startswith("*%"):
            target = self.known(norm(ops[1:]))
            if target is not None:
                self.emit("direct", target, addr)
            elif mnemonic == "call":
                self.emit("plain", None, addr)
            if mnemonic == "call":
                self.clobber()
            return
        if ops.startswith("*"):
            self.emit("plain", None, addr)
            return
        # objdump names a target by any of its aliases: 7.3's x86 thunks and
        # string functions also have a "__pi_" one (position-independent
        # code shares them), which it may pick
        if ann.startswith("__pi_"):
            ann = ann[len("__pi_"):]
        if ann.startswith("__x86_indirect_thunk_"):
            self.emit("thunk", ann, addr)
            return
        # "<fn+0x1b>" is a jump inside a function (or the inline
        # retpoline's call to its own label), not a call to fn
        if ann and "+0x" not in ann:
            self.emit("direct", ann, addr)
            if mnemonic == "call":
                self.clobber()

    def compare(self, ops, ann, addr):
        """The compare of an INDIRECT_CALL_*() chain: the function pointer
        against the address of a candidate (an immediate, a register
        loaded with it, or the relocation of a module)."""
        for operand in ops.split(","):
            if IMMEDIATE.fullmatch(operand):
                value = hex_key(operand[3:])
            elif operand.startswith("%") and norm(operand) in self.consts:
                value = self.consts[norm(operand)]
            else:
                continue
            if value in self.addr2sym:
                self.emit("compare", self.addr2sym[value], addr)
        if ann and "+0x" not in ann:
            self.emit("compare", ann, addr)


def classify(lines, addr2sym):
    """The Events of LINES; ADDR2SYM maps addresses (hex_key) to function
    names, empty for a relocatable object (its addresses are offsets)."""
    classifier = Classifier(addr2sym)
    for line in lines:
        classifier.feed(line.rstrip("\n"))
    return classifier.events
