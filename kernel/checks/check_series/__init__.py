# SPDX-License-Identifier: GPL-2.0
"""make check-series: the series' bisect, build matrix and stable checks, as
TAP; exit status 1 when any check fails.

Usage: kernel/checks/check-series [--dry-run]
       (the script sources kernel/lib.sh, then runs this package)

Part "bisect" (bisection.py): builds the UML kernel after every feature patch
of the series (retpoline and plain flavors, incremental builds in their
own O= dirs) and boots each one for the smoke test
(tests/lab/guest-smoke.sh).  The lab patches are checked as one step, the
baseline kernel they make: they are measurement support, not part of the
series under review.

Part "matrix" (issue 12; matrix.py, w1.py): the patched series in the
x86_64 configurations that distributions and reviewers use, each booted
under QEMU TCG:
  modules  nf_tables, conntrack and the other netfilter tristates as
           modules (kernel/builder/build --with modules):
           kernel/checks/check-direct-calls on vmlinux + nf_tables.ko (the
           hook entry's static call site in nf_hook_slow_nft, before the
           rework of the hook entry in nf_hook_slow; nf_tables' entry point
           and its direct calls in the module); the guest loads every
           netfilter module of the build with modprobe -d and runs
           nft_concat_range.sh's correctness group; on 7.3, then
           make check-debug's hookstress (tests/reliability/hookstress.sh,
           one CPU: the kernel has no ACPI) runs its parts unload
           (nf_tables removed and loaded again 5 times under traffic) and
           nfqueue (reinjection through the static call) on it, every
           packet counted (issue #52)
  plain    CONFIG_MITIGATION_RETPOLINE=n: builds, boots, smoke test
  llvm     clang (the base's llvm-toolchain: 6.12 LLVM=1, Debian's clang
           14; 7.3 clang-19): builds, direct calls, boots, and W=1 on the
           objects the series touches has no warning the baseline tree's
           same objects do not have
  ibt      CONFIG_X86_KERNEL_IBT (gcc): builds (objtool), direct calls, boots
  kcfi     CONFIG_CFI_CLANG (7.3: CONFIG_CFI) with the base's
           kcfi-toolchain (clang-16 on 6.12: Debian 12's clang 14 has no
           -fsanitize=kcfi; clang-19 on 7.3): builds, direct calls, boots;
           SKIP with the reason when the toolchain cannot
  kprobes  kprobe events (--with kprobes), booted with
           spectre_v2=retpoline: a kprobe on nft_do_chain_ipv4() fires for
           every packet an ip chain counts, also where base chains are
           entered through a static call; so does one on
           nf_hook_slow_nft(), and one on nf_hook_slow() sees none of them
           while nf_tables is installed (tests/lab/guest-kprobe.sh)
Each x86_64 build takes about 10 min on 2 cores from scratch (ccache).

Part "kernels" (kernels.py): every lab kernel of the base, built (objtool
clean on x86_64) and booted with the smoke test: UML baseline retpoline,
eibrs and plain (on as many vCPUs as the kernel has: 2 where its UML has
SMP), and x86_64 baseline retpoline and plain under QEMU TCG.  The default
part for a base whose series has no feature patches.

Part "stable" (a base with [stable] fixes: both; stable.py, the table of
fixes in stable_fixes.py): each fix's reproducer in the UML baseline and
stable retpoline kernels (kernel/builder/build um stable: the lab patches
and the fixes only), or for a race between CPUs in x86_64 ones with 2
vCPUs under QEMU TCG, each in a network namespace of its own: it must
reproduce the bug on the baseline (else it proves nothing) and pass on the
stable kernel; and the upstream-form selftest a fix adds, from the stable
tree, must fail on the baseline and pass on the stable kernel.

The parts run in the order kernels, stable, bisect, matrix, whatever the
order NFTLAB_SERIES_PARTS names them in.  Each part and matrix item clears
only its own directory below build/check/series/, so two runs with
disjoint NFTLAB_SERIES_PARTS / NFTLAB_MATRIX can share it.

The base: NFTLAB_BASE (the default base of kernel/builder/bases/ unless set; make check-series BASE=7.3).
  NFTLAB_SERIES_PARTS="bisect matrix stable" (default; "bisect matrix"
  where there is no stable fix, "kernels" where there is no feature patch)
  selects the parts,
  NFTLAB_MATRIX="modules plain llvm ibt kcfi kprobes" (default) the matrix
  items (an unknown one: "Bail out!", exit status 1),
  NFTLAB_SERIES_FLAVORS="retpoline plain" (default) the bisect flavors,
  NFTLAB_STABLE_FIXES (default: every fix) globs, space-separated, on the
  file names of the stable fixes whose reproducers run: the others are
  reported as skipped (and their stored output kept); globs that select
  no fix fail the part,
  NFTLAB_LLVM_TOOLCHAIN, NFTLAB_KCFI_TOOLCHAIN (default: the base's
  llvm-toolchain and kcfi-toolchain fields) the clang toolchains; an llvm-N
  one has its packages installed first (kernel/builder/install-deps).

--dry-run runs nothing that fetches, prepares, installs, builds, boots or
writes: it prints each such command line ("+ CMD", shell-quoted, with its
redirections) where the run would run it, and the TAP of a run in which
every command succeeds and every check of what it leaves passes (a
guest's own report lines are unknown before it runs: a comment stands for
them).  It reads what is there: the base tree's branches for the bisect's
commits and the W=1 objects (kernel/lib.sh variant_branch names them; none
before kernel/builder/prepare-tree made them), and the kernel directories
kernel/builder/build --print-path names.  Exit status 0, or 1 for an
unknown matrix item.

Modules, one job each: cli (options, the order of the parts, the exit
status), settings (the environment and its defaults), series_file (the
series file's groups), libsh (questions to kernel/lib.sh, the owner of the
paths, the base and the cache layout), host (running commands, or
printing them in a dry run), products (reading what the commands leave:
a kernel directory, a guest's report), context (what every part needs,
the project's programs it runs), and one module per part: bisection,
matrix with w1, kernels, stable with stable_fixes.  No module has a
standard library module's name: run by its directory's path, the package
comes first on sys.path, where a bisect.py would stand for the standard
library's bisect (which random and tempfile import)."""
