# SPDX-License-Identifier: GPL-2.0
"""A kernel image or module as the checks see it: its text symbols and
the disassembly of the functions a site is in (binutils' nm and objdump)."""
import os
import re
import struct
import subprocess
from collections import namedtuple

from . import relocs
from .classify import hex_key

Symbol = namedtuple("Symbol", "name addr size")

# objdump's instruction lines, the only ones the classifier reads
INSTRUCTION = re.compile(r" *[0-9a-f]+:")
# ELF e_type (offset 16) of a relocatable object: a module
ET_REL = 1


class Tools(namedtuple("Tools", "objdump nm")):
    """The binutils to run (OBJDUMP, NM in the environment)."""

    @classmethod
    def from_env(cls, environ):
        return cls(environ.get("OBJDUMP") or "objdump", environ.get("NM") or "nm")


def run(argv, stderr=None):
    """The stdout of ARGV as text; a failing tool gives what it printed."""
    result = subprocess.run(argv, stdout=subprocess.PIPE, stderr=stderr, check=False)
    return result.stdout.decode("utf-8", "surrogateescape")


def parse_nm(text):
    """The text symbols (types t, T and weak w, W) of `nm -S
    --defined-only` output, in its order."""
    symbols = []
    for line in text.split("\n"):
        f = line.split()
        if len(f) == 4 and f[2] in ("t", "T", "w", "W"):
            symbols.append(Symbol(f[3], f[0], f[1]))
    return symbols


def instruction_lines(objdump_text):
    return [line for line in objdump_text.split("\n") if INSTRUCTION.match(line)]


def elf_kind(path):
    """The kind of the ELF file PATH: "rel" for a relocatable object (a
    module), "exec" for anything linked (vmlinux, UML's linux)."""
    try:
        with open(path, "rb") as f:
            header = f.read(18)
    except OSError:
        # nm finds no symbols in it either: "no symbols in PATH"
        return "exec"
    if len(header) == 18 and struct.unpack("=H", header[16:18])[0] == ET_REL:
        return "rel"
    return "exec"


class Image:
    def __init__(self, path, kind, symbols, text_offsets=None, tools=None):
        self.path = path
        self.kind = kind
        self.symbols = symbols
        # a module's static functions by their offset in .text
        self.text_offsets = text_offsets or {}
        self.tools = tools

    @classmethod
    def load(cls, path, kind, tools):
        symbols = parse_nm(run([tools.nm, "-S", "--defined-only", path], stderr=subprocess.DEVNULL))
        offsets = None
        if kind == "rel":
            offsets = relocs.text_offsets(run([tools.objdump, "-t", path]))
        return cls(path, kind, symbols, offsets, tools)

    @property
    def name(self):
        return os.path.basename(self.path)

    def addr(self, name):
        """The address (nm's hex digits) of NAME, None if not defined."""
        for sym in self.symbols:
            if sym.name == name:
                return sym.addr
        return None

    def addr2sym(self):
        """{address: name} for the classifier; empty for a module, whose
        addresses are section offsets, not functions.  Of several names at
        one address the last one in nm's order stands."""
        if self.kind == "rel":
            return {}
        return {hex_key(sym.addr): sym.name for sym in self.symbols}

    def functions(self, pattern):
        return [sym for sym in self.symbols if re.search(pattern, sym.name)]

    def objdump(self, sym):
        """objdump's disassembly of SYM: by name with the relocations in a
        module, by address range in a linked image (where a name can be
        ambiguous)."""
        if self.kind == "rel":
            return run([self.tools.objdump, "-d", "-r", "--no-show-raw-insn",
                        "--disassemble=" + sym.name, self.path])
        start = int(sym.addr, 16)
        return run([self.tools.objdump, "-d", "--no-show-raw-insn",
                    "--start-address=%d" % start,
                    "--stop-address=%d" % (start + int(sym.size, 16)), self.path])

    def disassembly(self, pattern):
        """The instruction lines of every function whose name matches
        PATTERN, each after a "<name>:" line; [] if none matches."""
        lines = []
        for sym in self.functions(pattern):
            lines.append("<%s>:" % sym.name)
            text = self.objdump(sym)
            if self.kind == "rel":
                lines += relocs.join_relocs(text.split("\n"), self.text_offsets)
            else:
                lines += instruction_lines(text)
        return lines
