# SPDX-License-Identifier: GPL-2.0
"""Check the nf_tables direct-call sites in a kernel image and print TAP.

Usage: kernel/checks/check-direct-calls [-v] [-t SITE:REASON]... IMAGE [MODULE.ko...]
       (or python3 kernel/checks/direct_calls ...)

  IMAGE   an x86_64 vmlinux or a UML "linux" binary, not stripped
  MODULE  modules of the same build, for a kernel with nf_tables as a
          module: nf_tables.ko holds the set backends, nft_lookup and
          nft_dynset (and the chain functions) in 6.12
  -v      print the call sites each verdict is based on
  -t SITE:REASON  the checks of SITE (lookup, dynset, hook, ...) are expected
          to fail in this build: its failing lines are reported as
          "not ok ... # TODO REASON" (never as a pass) and do not make
          the exit status fail

Each site is looked up in every file given.  In a module (a relocatable
object) a call's target is the symbol of its relocation
(R_X86_64_PLT32/PC32 against the callee; relocs.py).

For each site (sites.py) the program disassembles the functions that hold
it:

  lookup  nft_set_do_lookup (and __nft_set_do_lookup if not inlined)
  dynset  nft_dynset_eval (and nft_dynset_do_update/_delete if not inlined)
  elemexpr nft_lookup_eval (per-element expressions, inlined there)
  objref  nft_objref_eval, nft_objref_map_eval
  hook    nf_hook_slow_nft, the loop that the nf_hook_slow static call
          reaches while nf_tables is installed, with the direct call
          (before the rework of the hook entry: nf_hook_slow, with
          nf_hook_entry_hookfn() inlined)
  chain   nft_do_chain_hook (nf_tables' entry point behind the core's
          nf_hook_nft static call)

and checks that

  - there is a direct call to every backend / chain function that the
    image contains (nft_*_lookup, nft_rhash_update/_delete,
    nft_counter_eval, nft_counter_obj_eval,
    nft_do_chain_{inet,ipv4,ipv6,netdev,bridge,arp}), and the hook entry
    calls the static call's site (x86: __SCT__nf_hook_nft, patched to a
    direct call at boot) or, on UML, nft_do_chain_hook by name; a chain
    function inlined into nft_do_chain_hook counts when the site compares
    with its address and calls nft_do_chain directly; and
  - the remaining indirect call goes through __x86_indirect_thunk_* (x86
    retpoline), or through the inline retpoline sequence (UML built with
    CONFIG_UML_RETPOLINE_THUNKS: a call to a local label, a "pause; lfence"
    loop and "mov %reg,(%rsp); ret").

UML built without CONFIG_UML_SMALL_CODE_MODEL (lab patch) uses
-mcmodel=large, where every call, direct or not, loads the target into a
register first ("movabs $addr,%rax").  Such a call counts as direct when
its target register was last loaded with the address of the expected
function; the classifier (classify.py) follows register-to-register
moves.  The lab builds use the small code model, where direct calls are
PC-relative as on x86.

FLAVOR=auto|retpoline|eibrs selects what the indirect call must look like.
auto: retpoline for x86 (thunks), for UML retpoline if the functions
contain inline retpolines, else eibrs (a plain "call *%reg": UML built
with CONFIG_MITIGATION_RETPOLINE but without thunks).  OBJDUMP and NM name
the binutils to run (default objdump, nm).

Exit status (kselftest): 0 all ok, 1 a check failed, 4 skipped (tools or
symbols missing, or a usage error).

Unit tests: tests/unit/test_check_direct_calls.py, on the objdump
snippets of tests/unit/fixtures/direct-calls/.  The TAP lines come from
the project's library, lib/tap.py, which the program's __main__.py puts on
sys.path (lib/bootstrap.py); the package itself edits no sys.path.
"""
