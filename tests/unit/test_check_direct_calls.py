#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of kernel/checks/direct_calls (check-direct-calls) on the
objdump snippets of tests/unit/fixtures/direct-calls/ (its README says
where each one comes from).  No kernel build, no objdump run.

python3 lib/tap.py tests/unit/test_check_direct_calls.py (TAP; make check
runs it with every tests/unit/test_*.py, step units), or python3
tests/unit/test_check_direct_calls.py [-v]."""
import io
import os
import re
import runpy
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
runpy.run_path(os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..", "lib", "bootstrap.py"))
from direct_calls import cli, relocs, report  # noqa: E402
from direct_calls.classify import Event, classify  # noqa: E402
from direct_calls.image import Image, parse_nm  # noqa: E402
from direct_calls.sites import Site, series_sites, verdicts  # noqa: E402

FIXTURES = os.path.join(HERE, "fixtures", "direct-calls")


def read(path):
    with open(path) as f:
        return f.read()


class FixtureImage(Image):
    """An image whose nm and objdump output are a stored fixture: NAME/
    symbols.nm, NAME/FUNC.objdump, NAME/symbols.objdump-t for a module."""

    def __init__(self, name):
        path = os.path.join(FIXTURES, name)
        table = os.path.join(path, "symbols.objdump-t")
        kind, offsets = "exec", None
        if os.path.exists(table):
            kind, offsets = "rel", relocs.text_offsets(read(table))
        super().__init__(path, kind, parse_nm(read(os.path.join(path, "symbols.nm"))), offsets)

    def objdump(self, sym):
        path = os.path.join(self.path, sym.name + ".objdump")
        return read(path) if os.path.exists(path) else ""

    @property
    def name(self):
        """The image's file name, from objdump's "NAME:     file format" line."""
        for entry in sorted(os.listdir(self.path)):
            if entry.endswith(".objdump"):
                return read(os.path.join(self.path, entry)).split(":", 1)[0].strip()
        return None


X86 = "x86_64-6.12-patched-retpoline"
X86_MODULE = "x86_64-6.12-patched-retpoline-nft_chain_filter.o"
X86_BASELINE = "x86_64-6.12-baseline-retpoline"
UML = "uml-6.12-patched-retpoline"
X86_73 = "x86_64-7.3-patched-retpoline"
X86_73_SLOW = "x86_64-7.3-patched-retpoline-hookslow"
LOOKUP = r"^(__)?nft_set_do_lookup(\..*)?$"
CHAIN = r"^nft_do_chain_hook(\..*)?$"
# the miniature's candidates (fixtures/direct-calls/mini/mini.c)
MINI = Site("lookup", LOOKUP, ["nft_rhash_lookup", "nft_hash_lookup", "nft_bitmap_lookup"], None)


def events(image, pattern):
    return classify(image.disassembly(pattern), image.addr2sym())


def site(images, title):
    """The Site TITLE as check-direct-calls builds it for IMAGES."""
    arch = "uml" if any(i.addr("linux_main") for i in images) else "x86"
    defined = cli.defined_in(images)
    return next(s for s in series_sites(arch, defined) if s.title == title)


def site_report(images, title, flavor, todo=None, verbose=False):
    """The TAP lines of one site; the exit status they would give."""
    out = io.StringIO()
    tap = report.Tap(out, todo)
    report.check_site(tap, images, site(images, title), flavor, verbose)
    status = tap.end()
    return out.getvalue().splitlines(), status


def failed(lines):
    return [line for line in lines if line.startswith("not ok")]


class GccBuiltIn(unittest.TestCase):
    """x86_64 vmlinux by gcc: a call's target is its "<symbol>"."""

    def test_calls_by_symbol(self):
        """every set backend is called directly, the fallback via a thunk"""
        lines, status = site_report([FixtureImage(X86)], "lookup", "x86-retpoline")
        self.assertEqual(lines[:3], ["# lookup: site in vmlinux",
                                     "ok 1 - lookup: direct call to nft_hash_lookup_fast",
                                     "ok 2 - lookup: direct call to nft_bitmap_lookup"])
        self.assertIn("ok 8 - lookup: indirect call via __x86_indirect_thunk_*", lines)
        self.assertEqual((failed(lines), status), ([], 0))

    def test_tail_call(self):
        """a jmp to a chain function is a direct (tail) call"""
        self.assertIn(Event("direct", "nft_do_chain_inet", "ffffffff813c9406"),
                      events(FixtureImage(X86), CHAIN))

    def test_conditional_tail_call(self):
        """clang's "cmp $fn,%r11; je fn" is a direct (tail) call to fn;
        a conditional jump inside the function is none"""
        lines = ["<nft_do_chain_hook>:",
                 "ffffffff8165733a:\tcmp    $0xffffffff81657570,%r11",
                 "ffffffff81657341:\tje     ffffffff81657570 <nft_do_chain_ipv6>",
                 "ffffffff81657348:\tjne    ffffffff81657390 <nft_do_chain_hook+0x70>",
                 "ffffffff8165737b:\tcs jmp ffffffff817ff660 <__pi___x86_indirect_thunk_r11>"]
        addr2sym = {"ffffffff81657570": "nft_do_chain_ipv6"}
        self.assertEqual(classify(lines, addr2sym),
                         [Event("compare", "nft_do_chain_ipv6", "ffffffff8165733a"),
                          Event("direct", "nft_do_chain_ipv6", "ffffffff81657341"),
                          Event("thunk", "__x86_indirect_thunk_r11", "ffffffff8165737b")])

    def test_inlined_chain_function(self):
        """nft_do_chain_arp, inlined: its address compared, nft_do_chain called"""
        lines, status = site_report([FixtureImage(X86)], "chain", "x86-retpoline")
        self.assertIn("ok 7 - chain: nft_do_chain_arp inlined (compared with its address; "
                      "a direct call to nft_do_chain)", lines)
        self.assertEqual((failed(lines), status), ([], 0))

    def test_inlined_needs_the_call_it_was_inlined_into(self):
        """a compare alone is no direct call: nft_do_chain must be called"""
        image = FixtureImage(X86)
        evs = [e for e in events(image, CHAIN) if e.name != "nft_do_chain"]
        results = dict((d, ok) for ok, d in verdicts(site([image], "chain"), evs, "x86-retpoline"))
        self.assertFalse(results["chain: direct call to nft_do_chain_arp"])

    def test_static_call_site(self):
        """the hook entry calls the nf_hook_nft static call's trampoline"""
        lines, status = site_report([FixtureImage(X86)], "hook", "x86-retpoline")
        self.assertEqual(lines[1:3], ["ok 1 - hook: direct call to __SCT__nf_hook_nft",
                                      "ok 2 - hook: indirect call via __x86_indirect_thunk_*"])


class Gcc73(unittest.TestCase):
    """x86_64 vmlinux of the 7.3 base by gcc (series v5)."""

    def test_thunk_by_pi_alias(self):
        """a call to __pi___x86_indirect_thunk_rcx is a retpoline thunk"""
        self.assertIn(Event("thunk", "__x86_indirect_thunk_rcx", "ffffffff815d9802"),
                      events(FixtureImage(X86_73), r"^nf_hook_slow$"))

    def test_hook_site_on_73(self):
        """the hook entry: the static call's trampoline, the fallback via a thunk"""
        lines, status = site_report([FixtureImage(X86_73)], "hook", "x86-retpoline")
        self.assertEqual((failed(lines), status), ([], 0))

    def test_objref_helper_is_part_of_the_site(self):
        """nft_objref_obj_eval, which nft_objref_eval tail-calls, holds the direct call"""
        lines, status = site_report([FixtureImage(X86_73)], "objref", "x86-retpoline")
        self.assertIn("ok 1 - objref: direct call to nft_counter_obj_eval", lines)
        self.assertEqual((failed(lines), status), ([], 0))


class Gcc73HookSlow(unittest.TestCase):
    """7.3 with patch 5 reworked: the nf_hook_slow static call reaches
    nf_hook_slow_nft(), which holds the hook entry's direct call."""

    def test_site_is_in_the_nft_copy(self):
        """nf_hook_slow() keeps only the thunk; nf_hook_slow_nft() calls the static call"""
        image = FixtureImage(X86_73_SLOW)
        slow = events(image, r"^nf_hook_slow$")
        self.assertIn("thunk", {e.kind for e in slow})
        self.assertNotIn("__SCT__nf_hook_nft", {e.name for e in slow if e.kind == "direct"})
        self.assertIn("__SCT__nf_hook_nft",
                      {e.name for e in events(image, r"^nf_hook_slow_nft$") if e.kind == "direct"})

    def test_hook_site_passes(self):
        """the hook site of both functions: the static call's trampoline, the fallback via a thunk"""
        lines, status = site_report([FixtureImage(X86_73_SLOW)], "hook", "x86-retpoline")
        self.assertEqual((failed(lines), status), ([], 0))


class Clang(unittest.TestCase):
    """clang's layout: the pointer in %r11, candidates loaded into %rax."""

    def test_r11_thunk(self):
        """the fallback call through __x86_indirect_thunk_r11 is a retpoline"""
        evs = events(FixtureImage("mini-clang-builtin"), LOOKUP)
        self.assertIn(Event("thunk", "__x86_indirect_thunk_r11", "ffffffff81000073"), evs)
        self.assertTrue(all(ok for ok, _ in verdicts(MINI, evs, "x86-retpoline")))

    def test_compare_with_loaded_register(self):
        """"mov $fn,%rax; cmp %rax,%r11" compares with fn"""
        evs = events(FixtureImage("mini-clang-builtin"), LOOKUP)
        self.assertEqual([e.name for e in evs if e.kind == "compare"], MINI.targets)


class Module(unittest.TestCase):
    """A relocatable object: the callee is in the relocation line."""

    def test_call_named_by_relocation(self):
        """"call e20 <f+0x80>" + "R_X86_64_PLT32 nft_do_chain-0x4" calls nft_do_chain"""
        evs = events(FixtureImage(X86_MODULE), CHAIN)
        self.assertIn(Event("direct", "nft_do_chain", "e1b"), evs)
        self.assertIn(Event("thunk", "__x86_indirect_thunk_rax", "ddc"), evs)

    def test_static_function_by_text_offset(self):
        """a compare relocated against .text+0x50 names the static function there"""
        evs = events(FixtureImage(X86_MODULE), CHAIN)
        self.assertIn(Event("compare", "nft_do_chain_inet", "da4"), evs)

    def test_global_function_by_relocation(self):
        """a compare relocated against a global symbol names it"""
        evs = events(FixtureImage("mini-gcc-module.o"), LOOKUP)
        self.assertIn(Event("compare", "nft_rhash_lookup", "e"), evs)
        self.assertTrue(all(ok for ok, _ in verdicts(MINI, evs, "x86-retpoline")))

    def test_chain_site_in_module(self):
        """the chain site of a module passes, from a kernel image and the module"""
        images = [FixtureImage(X86), FixtureImage(X86_MODULE)]
        lines, status = site_report(images, "chain", "x86-retpoline")
        self.assertEqual(lines[0], "# chain: site in vmlinux nft_chain_filter.o")
        self.assertEqual((failed(lines), status), ([], 0))

    def test_earlier_functions_relocations_are_not_its_own(self):
        """the earlier functions' relocations do not name a first "call __fentry__"

        objdump prints them after the first instruction.  The ftrace call
        is hand-derived: the lab builds have no ftrace."""
        image = FixtureImage(X86_MODULE)
        text = image.objdump(image.functions(CHAIN)[0])
        text = text.replace(" da0:\tmov    -0x50(%rdi),%rax\n", " da0:\tcall   da5 <nft_do_chain_hook+0x5>\n")
        text = text.replace(" da4:\t", "\t\t\tda1: R_X86_64_PLT32\t__fentry__-0x4\n da4:\t", 1)
        lines = relocs.join_relocs(text.split("\n"), image.text_offsets)
        self.assertEqual(lines[0], " da0:\tcall   da5 <__fentry__>")

    def test_other_addend_is_no_call(self):
        """a relocation into a function (addend other than -4) is no call to it"""
        lines = relocs.join_relocs(["  10:\tcall   15 <f+0x15>",
                                    "\t\t\t11: R_X86_64_PLT32\tnft_rhash_lookup+0x10"], {})
        self.assertEqual(lines, ["  10:\tcall   15 <nft_rhash_lookup+0x10+0x?>"])
        self.assertEqual(classify(lines, {}), [])


class Uml(unittest.TestCase):
    """UML's inline retpoline: call to a label, pause; lfence, mov %reg,(%rsp); ret."""

    def test_inline_retpoline(self):
        """the retpoline's "mov %rax,(%rsp)" is the indirect call"""
        self.assertIn(Event("inline-rp", None, "603935f6"), events(FixtureImage(UML), CHAIN))
        lines, status = site_report([FixtureImage(UML)], "chain", "uml-retpoline")
        self.assertIn("ok 8 - chain: indirect call via inline retpoline", lines)
        self.assertEqual((failed(lines), status), ([], 0))

    def test_hook_calls_entry_by_name(self):
        """UML's hook entry calls nft_do_chain_hook itself (no static-call patching)"""
        lines, status = site_report([FixtureImage(UML)], "hook", "uml-retpoline")
        self.assertEqual(lines[1], "ok 1 - hook: direct call to nft_do_chain_hook")

    def test_plain_call_beside_retpoline_fails(self):
        """an unprotected "call *%rax" fails the retpoline flavor"""
        evs = events(FixtureImage(UML), CHAIN) + [Event("plain", None, "0")]
        self.assertEqual(verdicts(site([FixtureImage(UML)], "chain"), evs, "uml-retpoline")[-1],
                         (False, "chain: indirect call via inline retpoline"))

    def test_auto_flavor(self):
        """auto: x86 is retpoline; UML is retpoline if nf_hook_slow has an lfence"""
        self.assertEqual(cli.choose_flavor("auto", "x86", FixtureImage(X86)), "x86-retpoline")
        self.assertEqual(cli.choose_flavor("auto", "uml", FixtureImage(UML)), "uml-retpoline")
        self.assertEqual(cli.choose_flavor("auto", "uml", FixtureImage(X86)), "uml-eibrs")
        self.assertEqual(cli.choose_flavor("eibrs", "uml", FixtureImage(UML)), "uml-eibrs")


class McmodelLarge(unittest.TestCase):
    """-mcmodel=large: every call loads its target into a register."""

    def test_movabs_call_is_direct(self):
        """"movabs $fn,%rdx" then a retpoline on %rdx is a direct call to fn"""
        evs = events(FixtureImage("mini-gcc-large"), LOOKUP)
        self.assertIn(Event("direct", "nft_set_warn", "4010eb"), evs)
        self.assertEqual([e.name for e in evs if e.kind == "compare"], MINI.targets)

    def test_call_through_compared_pointer_is_not_direct(self):
        """gcc calls a matched candidate through the pointer it compared: no direct call"""
        evs = events(FixtureImage("mini-gcc-large"), LOOKUP)
        self.assertEqual([ok for ok, _ in verdicts(MINI, evs, "uml-retpoline")],
                         [False, False, False, True])

    def test_register_moves_are_followed(self):
        """a constant moved to another register, or to its 32-bit view, stays known"""
        lines = ["<f>:", " 10:\tmovabs $0x401000,%rdx", " 1a:\tmov    %rdx,%rcx",
                 " 1d:\tcall   *%rcx", " 1f:\tmov    $0x401000,%r8", " 26:\tmov    %r8d,%eax",
                 " 29:\tcall   *%rax"]
        self.assertEqual(classify(lines, {"401000": "fn"}),
                          [Event("direct", "fn", "1d"), Event("direct", "fn", "29")])

    def test_call_clobbers_caller_saved(self):
        """a call ends what the caller-saved registers held; callee-saved ones stay"""
        lines = ["<f>:", " 10:\tmovabs $0x401000,%rax", " 1a:\tmovabs $0x401000,%rbx",
                 " 24:\tcall   401100 <g>", " 29:\tcall   *%rax", " 2b:\tcall   *%rbx"]
        self.assertEqual(classify(lines, {"401000": "fn"}),
                         [Event("direct", "g", "24"), Event("plain", None, "29"),
                          Event("direct", "fn", "2b")])

    def test_new_function_forgets_registers(self):
        """what a register held in one function is unknown in the next"""
        lines = ["<f>:", " 10:\tmovabs $0x401000,%rax", "<g>:", " 20:\tcall   *%rax"]
        self.assertEqual(classify(lines, {"401000": "fn"}), [Event("plain", None, "20")])


class Eibrs(unittest.TestCase):
    """A build without thunks: the fallback is a plain "call *%rax"."""

    def test_plain_call_passes_eibrs(self):
        """the eibrs flavor wants the plain indirect call, retpoline does not"""
        evs = events(FixtureImage("mini-gcc-plain"), LOOKUP)
        self.assertIn(Event("plain", None, "40106a"), evs)
        self.assertEqual(verdicts(MINI, evs, "uml-eibrs"),
                         [(True, "lookup: direct call to nft_rhash_lookup"),
                          (True, "lookup: direct call to nft_hash_lookup"),
                          (True, "lookup: direct call to nft_bitmap_lookup"),
                          (True, "lookup: plain indirect call (eibrs flavor)")])
        self.assertFalse(verdicts(MINI, evs, "uml-retpoline")[-1][0])


class Report(unittest.TestCase):
    """The whole report: TAP lines, TODO, exit statuses."""

    def run_check(self, images, flavor="retpoline", todo=None, verbose=False):
        out = io.StringIO()
        status = cli.check(images, flavor, todo or {}, verbose, out)
        return out.getvalue().splitlines(), status

    def test_baseline_fails(self):
        """without the series every site it adds fails (as tests/lab/series.sh greps)"""
        lines, status = self.run_check([FixtureImage(X86_BASELINE)])
        expected = read(os.path.join(FIXTURES, X86_BASELINE, "expected.tap")).splitlines()
        self.assertEqual((lines[1:], status), (expected[1:], 1))
        for title in ("dynset", "elemexpr", "objref", "hook", "chain"):
            # baseline_fails' grep "^not ok [0-9]* - $site: "
            self.assertTrue([x for x in lines if re.match(r"not ok [0-9]* - %s: " % title, x)], title)

    def test_whole_image(self):
        """the fixture of a whole image gives the TAP the image gave"""
        lines, status = self.run_check([FixtureImage(X86)])
        expected = read(os.path.join(FIXTURES, X86, "expected.tap")).splitlines()
        self.assertEqual((lines[1:], status), (expected[1:], 0))

    def test_todo_sites_do_not_fail(self):
        """-t SITE:REASON: the site's failures are "# TODO REASON", the exit status 0"""
        todo = {"hook": "no plain call here", "chain": "nor here"}
        lines, status = self.run_check([FixtureImage(X86)], "eibrs", todo)
        self.assertEqual(lines[0], "# image: %s (x86-eibrs)" % os.path.join(FIXTURES, X86))
        self.assertIn("# hook: expected to fail in this build: no plain call here", lines)
        self.assertIn("not ok 17 - hook: plain indirect call (eibrs flavor) # TODO no plain call here",
                      lines)
        self.assertIn("not ok 25 - chain: plain indirect call (eibrs flavor) # TODO nor here", lines)
        self.assertEqual(status, 1)
        todo.update({s: "x" for s in ("lookup", "dynset", "elemexpr", "objref")})
        self.assertEqual(self.run_check([FixtureImage(X86)], "eibrs", todo)[1], 0)

    def test_missing_site_fails(self):
        """a site whose functions no file has is a failure"""
        lines, status = site_report([FixtureImage(UML)], "objref", "uml-retpoline")
        self.assertEqual(lines, [r"not ok 1 - objref: no function matching ^nft_objref_(map_|obj_)?eval(\..*)?$"
                                 r" in the files given", "1..1"])
        self.assertEqual(status, 1)

    def test_verbose_lists_call_sites(self):
        """-v: every call site of the site's functions as a comment"""
        lines, _ = site_report([FixtureImage(UML)], "hook", "uml-retpoline", verbose=True)
        self.assertEqual(lines[1:3], ["# hook: compare nf_hook_nft_entry 603425e7",
                                      "# hook: inline-rp 60342606"])

    def test_usage_and_skips(self):
        """usage errors and unreadable files: exit status 4 (kselftest skip)"""
        out = io.StringIO()
        stderr, sys.stderr = sys.stderr, io.StringIO()
        try:
            self.assertEqual(cli.main([], {}, out), 4)
            self.assertEqual(cli.main(["-t", "lookup", "vmlinux"], {}, out), 4)
            self.assertEqual(cli.main(["/nonexistent/vmlinux"], {"OBJDUMP": sys.executable, "NM": sys.executable}, out), 4)
        finally:
            sys.stderr = stderr
        self.assertEqual(out.getvalue(), "1..0 # SKIP cannot read /nonexistent/vmlinux\n")


if __name__ == "__main__":
    unittest.main()
