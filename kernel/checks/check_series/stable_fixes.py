# SPDX-License-Identifier: GPL-2.0
"""The stable fixes' tests, by the fix's file name: what part stable
(stable.py) runs for each fix and where.  A table, no I/O.

A fix's reproducer is a script of tests/reliability/; it runs in a network
namespace of its own and exits 0 (no false hit), 1 (reproduced) or 2
(setup failed).  A fix without one stops the part: a stable fix must come
with its test.  Its selftest, if it adds one, is the upstream-form script
it adds to tools/testing/selftests/net/netfilter/, run from the stable
tree (tests/lab/stable-kselftest); nothing: the fix has none yet (issue 52
asks one of each)."""
import fnmatch
import os

# (glob on the fix's file name, its reproducer)
REPRODUCERS = (
    ("0001-netfilter-nft_set_rbtree-fix-false-match-past-an-exp.patch",
     "tests/reliability/rbtree-expired.sh"),
    ("000[13]-netfilter-nf_tables-set-the-hook-ops-type-of-devices.patch",
     "tests/reliability/chain-update-hook-type.sh"),
    ("0002-netfilter-nft_set_rbtree-check-open-interval-overlap.patch",
     "tests/reliability/open-interval-stable.sh"),
    ("0003-netfilter-nft_set_rbtree-refuse-closing-an-open-inte.patch",
     "tests/reliability/open-interval-stable.sh"),
    ("0002-netfilter-nf_tables-publish-set-data-before-the-new-.patch",
     "tests/reliability/commit-swap.sh"),
)

# (glob on the fix's file name, the selftest it adds)
KSELFTESTS = (
    ("0001-netfilter-nf_tables-set-the-hook-ops-type-of-devices.patch",
     "nft_chain_update_hooks.sh"),
    ("0002-netfilter-nft_set_rbtree-check-open-interval-overlap.patch",
     "nft_interval_open.sh"),
    ("0003-netfilter-nft_set_rbtree-refuse-closing-an-open-inte.patch",
     "nft_interval_open.sh"),
)

# Reproducers of a race between CPUs: an x86_64 guest with 2 vCPUs under
# QEMU TCG (a kernel with ACPI: kernel/config/extra-smp.config); the
# others run in a UML guest (one CPU on 6.12).
SMP_REPRODUCERS = ("commit-swap.sh",)

# What a reproducer needs built on the host before a guest runs it (the
# guest sees the checkout read-only): a command line of the checkout.
PREPARE = {
    "open-interval-stable.sh": "tests/reliability/open-interval.sh --build",
}


def _lookup(table, path):
    name = os.path.basename(path)
    for glob, value in table:
        if fnmatch.fnmatchcase(name, glob):
            return value
    return None


def reproducer(fix):
    """The reproducer of the fix FIX (a path), or None."""
    return _lookup(REPRODUCERS, fix)


def kselftest(fix):
    """The selftest the fix FIX adds, or None."""
    return _lookup(KSELFTESTS, fix)


def prepare(repro):
    """The command line (words) to run on the host before REPRO, or None."""
    line = PREPARE.get(os.path.basename(repro))
    return line.split() if line else None


def selected(fix, globs):
    """Whether the blank-separated GLOBS (NFTLAB_STABLE_FIXES; "" selects
    all) select the fix FIX by its file name."""
    if not globs:
        return True
    name = os.path.basename(fix)
    return any(fnmatch.fnmatchcase(name, g) for g in globs.split())


def reproducer_guest(repro, variant):
    """(kernel/builder/build arguments, kernel/runner/lab-run options,
    timeout in seconds) of the guest that runs REPRO on the kernel of
    VARIANT (baseline or stable)."""
    if os.path.basename(repro) in SMP_REPRODUCERS:
        return (["--with", "smp", "x86_64", variant, "retpoline"],
                ["--arch", "x86_64", "--cpus", "2", "--mem", "1G"], 900)
    return ["um", variant, "retpoline"], [], 120


def kselftest_guest(variant):
    """The same for the guest of a fix's selftest: UML, always."""
    return ["um", variant, "retpoline"], [], 300


def wanted_exit(variant):
    """The exit status a reproducer or a selftest must have on the
    kernel of VARIANT: it fails on the baseline (1: reproduced; a
    kselftest's 4, a skip, proves nothing) and passes on the stable one."""
    return 1 if variant == "baseline" else 0
