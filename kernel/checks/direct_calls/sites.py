# SPDX-License-Identifier: GPL-2.0
"""The direct-call sites of the series, and the verdicts on a site's
call sites (the Events of classify)."""
from collections import namedtuple

# title: the TAP lines' prefix ("lookup: ..."), which callers grep;
# pattern: the functions the site is in (the compiler may inline them or
# give clones a suffix, "nft_dynset_eval.cold");
# targets: the functions it must call directly, those the image has;
# inlined_into: a target inlined into the site instead still counts when
# the site compares with its address and calls this function directly.
Site = namedtuple("Site", "title pattern targets inlined_into")

LOOKUPS = ("nft_hash_lookup_fast", "nft_bitmap_lookup", "nft_rhash_lookup",
           "nft_hash_lookup", "nft_pipapo_avx2_lookup", "nft_pipapo_lookup",
           "nft_rbtree_lookup")
CHAINS = ("nft_do_chain_inet", "nft_do_chain_ipv4", "nft_do_chain_inet_ingress",
          "nft_do_chain_ipv6", "nft_do_chain_netdev", "nft_do_chain_bridge",
          "nft_do_chain_arp")
# What the hook entry calls: on x86 the static call's site, patched to a
# direct call at boot; UML has no static-call patching, the generic
# static call is a direct call to the function.
HOOK_ENTRY = {"x86": "__SCT__nf_hook_nft", "uml": "nft_do_chain_hook"}

INDIRECT = {
    "x86-retpoline": "indirect call via __x86_indirect_thunk_*",
    "uml-retpoline": "indirect call via inline retpoline",
    "x86-eibrs": "plain indirect call (eibrs flavor)",
    "uml-eibrs": "plain indirect call (eibrs flavor)",
}


def series_sites(arch, defined):
    """The sites to check in an image of ARCH whose files define the
    names for which DEFINED(name) is true."""
    lookups = [n for n in LOOKUPS if defined(n)]
    chains = [n for n in CHAINS if defined(n)]
    return [
        Site("lookup", r"^(__)?nft_set_do_lookup(\..*)?$", lookups, None),
        Site("dynset", r"^nft_dynset_(eval|do_update|do_delete)(\..*)?$",
             ["nft_rhash_update", "nft_rhash_delete"], None),
        Site("elemexpr", r"^nft_lookup_eval(\..*)?$", ["nft_counter_eval"], None),
        Site("objref", r"^nft_objref_(map_|obj_)?eval(\..*)?$", ["nft_counter_obj_eval"], None),
        # the site is in nf_hook_slow_nft(), the loop that the
        # nf_hook_slow static call reaches while nf_tables is installed
        # (in nf_hook_slow() in kernels of the series before its rework,
        # as the fixtures of tests/unit/test_check_direct_calls.py)
        Site("hook", r"^(nf_hook_slow|nf_hook_slow_nft|nf_hook_entry_hookfn)(\..*)?$", [HOOK_ENTRY[arch]], None),
        Site("chain", r"^nft_do_chain_hook(\..*)?$", chains, "nft_do_chain"),
    ]


def indirect_ok(flavor, kinds):
    """Whether the site's remaining indirect call has FLAVOR's form; KINDS
    are the kinds of its Events.  A plain indirect call beside the
    retpoline fails a retpoline flavor: it is a call the retpoline does
    not protect."""
    if flavor == "x86-retpoline":
        return "thunk" in kinds and "plain" not in kinds
    if flavor == "uml-retpoline":
        return "inline-rp" in kinds and "plain" not in kinds
    return "plain" in kinds


def verdicts(site, events, flavor):
    """[(passed, description)] of SITE, from the Events of the functions
    it is in."""
    direct = {e.name for e in events if e.kind == "direct"}
    compared = {e.name for e in events if e.kind == "compare"}
    # gcc keeps one call to inlined_into per inlined body; clang may share
    # one call among several (the bodies differ only in what precedes it)
    inlined = site.inlined_into is not None and site.inlined_into in direct
    out = []
    for target in site.targets:
        if target in direct:
            out.append((True, "%s: direct call to %s" % (site.title, target)))
        elif inlined and target in compared:
            out.append((True, "%s: %s inlined (compared with its address; a direct call to %s)"
                        % (site.title, target, site.inlined_into)))
        else:
            out.append((False, "%s: direct call to %s" % (site.title, target)))
    kinds = {e.kind for e in events}
    out.append((indirect_ok(flavor, kinds), "%s: %s" % (site.title, INDIRECT[flavor])))
    return out
