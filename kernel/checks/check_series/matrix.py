# SPDX-License-Identifier: GPL-2.0
"""Part matrix: the patched series in the x86_64 configurations that
distributions and reviewers use (the items are documented in __init__),
each built, its config checked, its direct calls checked, and booted
under QEMU TCG.  An item that does not build ends there."""
import shutil
import time

import bases

from . import products, w1
from .context import BUILD, SMOKE
from .host import DEVNULL

ITEMS = ("modules", "plain", "llvm", "ibt", "kcfi", "kprobes")
DIRECT_CALLS = "kernel/checks/check-direct-calls"


class Item:
    """One item's run: its name, its directory and, once built, its kernel."""

    def __init__(self, ctx, name):
        self.ctx = ctx
        self.name = name
        self.dir = "%s/matrix-%s" % (ctx.out, name)
        self.kernel = None

    def build(self, *args):
        """kernel/builder/build ARGS (the patched series), one TAP line;
        whether it built."""
        ctx = self.ctx
        args = list(args)
        ctx.host.log("matrix %s: %s %s" % (self.name, BUILD, " ".join(args)))
        rc, self.kernel = ctx.build(args)
        ctx.result("matrix %s: builds (%s %s)" % (self.name, BUILD, " ".join(args)), rc)
        if rc != 0:
            return False
        ctx.diag("%s: %s" % (self.name, self.kernel.info_lines(("built", "toolchain"))))
        return True

    def config(self, *lines):
        """The kernel's config has every one of LINES."""
        missing = self.kernel.config_lacks(lines)
        if missing:
            self.ctx.diag("%s: config lacks: %s" % (self.name, " ".join(missing)))
        self.ctx.tap.ok(not missing, "matrix %s: config has %s" % (self.name, " ".join(lines)))

    def direct_calls(self, *images):
        """kernel/checks/check-direct-calls IMAGES (the retpoline flavor's
        direct calls): its lines forwarded, its SKIP reason shown."""
        ctx = self.ctx
        report = "%s/direct-calls.tap" % self.dir
        rc = ctx.host.run([ctx.tool(DIRECT_CALLS)] + list(images), stdout=report, env={"FLAVOR": "retpoline"})
        products.forward(ctx.tap, ctx.host.dry, "matrix %s: " % self.name, report)
        for line in (ctx.host.read_text(report) or "").split("\n"):
            if line.startswith("1..0 # SKIP"):
                ctx.host.echo("# %s\n" % line)
        ctx.result("matrix %s: check-direct-calls passed (exit %d)" % (self.name, rc), rc)

    def guest(self, subdir, timeout, cmd, after=()):
        """The exit status of CMD in a QEMU TCG guest of the kernel, its
        results in the item's SUBDIR."""
        results = "%s/%s" % (self.dir, subdir)
        return self.ctx.lab_run(self.kernel, results, timeout, cmd, before=["--arch", "x86_64"], after=after)

    def smoke(self):
        """Boots the kernel under QEMU TCG with tests/lab/guest-smoke.sh."""
        ctx = self.ctx
        results = "%s/smoke" % self.dir
        start = int(time.time())
        ctx.host.make_dirs(results)
        ctx.host.log("matrix %s: booting under QEMU TCG (smoke test, about 1 min)" % self.name)
        rc = self.guest("smoke", 300, [ctx.tool(SMOKE)])
        self.exited(rc, start, results)
        products.report(ctx.tap, ctx.host.dry, "matrix %s: smoke: " % self.name,
                        "%s/smoke.tap" % results, "%s/console.log" % results)
        ctx.result("matrix %s: boots under QEMU TCG and passes the smoke test" % self.name, rc)

    def exited(self, rc, start, results):
        """The comment on a guest that ended: its exit status, the seconds
        since START (whole seconds of the clock, as the shell's SECONDS
        counts them) and where its console is."""
        self.ctx.diag("%s: QEMU TCG guest exited %d after %ds (console: %s/console.log)"
                      % (self.name, rc, int(time.time()) - start, results))


def toolchain_installed(ctx, toolchain):
    """A clang-N toolchain (llvm-N) has its packages, installed when
    missing: a base may need a newer clang than make check does.  Other
    toolchains need nothing."""
    if not toolchain.startswith("llvm-"):
        return True
    n = toolchain[len("llvm-"):]
    packages = ["clang-%s" % n, "lld-%s" % n, "llvm-%s" % n]
    if ctx.host.run([ctx.tool("kernel/builder/install-deps")] + packages) == 0:
        return True
    ctx.tap.ok(False, "the %s toolchain is installed (%s)" % (toolchain, ", ".join(packages)))
    return False


def item_modules(item):
    ctx = item.ctx
    if not item.build("--with", "modules", "x86_64", "patched", "retpoline"):
        return
    item.config("CONFIG_MODULES=y", "CONFIG_NF_TABLES=m", "CONFIG_NF_CONNTRACK=m",
                "CONFIG_NF_NAT=m", "CONFIG_NFT_CT=m", "CONFIG_NF_TABLES_INET=y")
    moddir = item.kernel.info("modules")
    nf_tables = "%s/kernel/net/netfilter/nf_tables.ko" % moddir
    ctx.tap.ok(ctx.host.is_file(nf_tables), "matrix modules: modules installed (%s)" % moddir)
    # The hook entry reaches modular nf_tables through the core's static
    # call: the same direct calls as a built-in nf_tables, no TODO.
    item.direct_calls("%s/vmlinux" % item.kernel.path, nf_tables)

    results = "%s/guest" % item.dir
    ctx.host.make_dirs(results)
    # The base tree's script, what it sources and our fixes, as
    # tests/lab/selftests.sh extracts them (7.3's lib.sh sources lib/sh/).
    ctx.host.run([ctx.tool("tests/lab/extract-selftests"), results], stdout="%s/extract.tap" % results)
    products.forward(ctx.tap, ctx.host.dry, "matrix modules: ", "%s/extract.tap" % results)
    ctx.host.log("matrix modules: booting under QEMU TCG: load the modules, "
                 "nft_concat_range.sh correctness (10-20 min)")
    start = int(time.time())
    # spectre_v2=retpoline: the series' direct calls are taken only where
    # the kernel runs retpolines, whatever TCG's CPU model would choose.
    rc = item.guest("guest", 3000, [ctx.tool("tests/lab/guest-modules.sh"), "%s/modules" % item.kernel.path,
                                    "nft_concat_range", "correctness"], after=["--append", "spectre_v2=retpoline"])
    item.exited(rc, start, results)
    console = "%s/console.log" % results
    products.report(ctx.tap, ctx.host.dry, "matrix modules: ", "%s/modules.tap" % results, console)
    products.report(ctx.tap, ctx.host.dry, "matrix modules: ", "%s/nft_concat_range.tap" % results, console)
    ctx.result("matrix modules: guest exit status", rc)
    modules_hookstress(item)


# The hook entry's static calls around module unload and nfqueue
# reinjection (issue #52), on the same modular kernel: make check-debug's
# hookstress (tests/reliability/hookstress.sh, the kernel
# x86_64-BASE-modules) with its parts unload and nfqueue, HOOKSTRESS_CYCLES
# unload cycles of HOOKSTRESS_PACKETS pings (check-debug: 50 cycles on a
# debug kernel).  Its guest knows one base's series, the one whose file
# says "hookstress: yes".
HOOKSTRESS = ["--cycles", "5", "--packets", "20", "--ops", "1", "--parts", "unload nfqueue"]


def modules_hookstress(item):
    ctx = item.ctx
    owner = bases.flagged("hookstress")
    if ctx.base != owner:
        ctx.diag("modules: hookstress (unload, nfqueue) runs on %s's series only, not on %s" % (owner, ctx.base))
        return
    report = "%s/hookstress.tap" % item.dir
    ctx.host.log("matrix modules: booting under QEMU TCG: nf_tables unloaded under traffic, nfqueue"
                 " reinjection (tests/reliability/hookstress.sh, about 5 min)")
    rc = ctx.host.run([ctx.tool("tests/reliability/hookstress.sh")] + HOOKSTRESS +
                      [item.dir, "x86_64-%s-modules=%s" % (ctx.base, item.kernel.path)], stdout=report)
    products.forward(ctx.tap, ctx.host.dry, "matrix modules: ", report)
    ctx.result("matrix modules: hookstress passed (exit %d)" % rc, rc)


def item_plain(item):
    if not item.build("x86_64", "patched", "plain"):
        return
    item.config("# CONFIG_MITIGATION_RETPOLINE is not set")
    item.smoke()


def item_llvm(item):
    toolchain = item.ctx.settings.llvm_toolchain
    if not toolchain_installed(item.ctx, toolchain):
        return
    if not item.build("--toolchain", toolchain, "x86_64", "patched", "retpoline"):
        return
    item.config("CONFIG_CC_IS_CLANG=y", "CONFIG_LD_IS_LLD=y", "CONFIG_MITIGATION_RETPOLINE=y")
    item.direct_calls("%s/vmlinux" % item.kernel.path)
    item.smoke()
    w1.check(item)


def item_ibt(item):
    if not item.build("--with", "ibt", "x86_64", "patched", "retpoline"):
        return
    item.config("CONFIG_X86_KERNEL_IBT=y", "CONFIG_MITIGATION_RETPOLINE=y")
    item.direct_calls("%s/vmlinux" % item.kernel.path)
    # TCG emulates no CET: the guest runs with IBT built, not enforced.
    item.smoke()


def kcfi_compiler(toolchain):
    """The clang of a toolchain: llvm-N's clang-N, llvm's clang (the
    shell's clang${tc#llvm})."""
    return "clang" + (toolchain[len("llvm"):] if toolchain.startswith("llvm") else toolchain)


def has_kcfi(ctx, cc):
    """Whether the compiler CC takes -fsanitize=kcfi (a probe: compiles
    nothing to nowhere)."""
    return ctx.host.query([cc, "-fsanitize=kcfi", "-x", "c", "-c", "-o", "/dev/null", "/dev/null"],
                          stderr=DEVNULL) == 0


def item_kcfi(item):
    ctx = item.ctx
    toolchain = ctx.settings.kcfi_toolchain
    if not toolchain_installed(ctx, toolchain):
        return
    cc = kcfi_compiler(toolchain)
    if has_kcfi(ctx, "clang"):
        ctx.diag("kcfi: the default clang has -fsanitize=kcfi too")
    else:
        rc, version = ctx.host.query_output(["clang", "-dumpversion"], stderr=DEVNULL, strip=False)
        version = (version + ("" if rc == 0 else "none\n")).rstrip("\n")
        ctx.diag("kcfi: Debian 12's default clang (%s) has no -fsanitize=kcfi "
                 "(CONFIG_CFI_CLANG needs clang >= 16)" % version)
    if shutil.which(cc) is None:
        ctx.tap.skip("matrix kcfi: CONFIG_CFI_CLANG build", "%s missing (kernel/builder/deps.txt: "
                     "make deps installs it)" % cc)
        return
    if not has_kcfi(ctx, cc):
        version = ctx.host.query_output([cc, "-dumpversion"])[1]
        ctx.tap.skip("matrix kcfi: CONFIG_CFI_CLANG build", "%s (%s) has no -fsanitize=kcfi" % (cc, version))
        return
    if not item.build("--toolchain", toolchain, "--with", "kcfi", "x86_64", "patched", "retpoline"):
        return
    # 7.3 calls it CONFIG_CFI (kernel/config/base-7.3-extra-kcfi.config)
    cfi = "CONFIG_CFI" if item.kernel.config_has("CONFIG_CFI=y") else "CONFIG_CFI_CLANG"
    item.config("%s=y" % cfi, "CONFIG_MITIGATION_RETPOLINE=y")
    item.direct_calls("%s/vmlinux" % item.kernel.path)
    # kCFI checks are plain instructions: enforced under TCG as well.
    item.smoke()


def item_kprobes(item):
    ctx = item.ctx
    results = "%s/kprobe" % item.dir
    # the time since the item started, its build included
    start = int(time.time())
    if not item.build("--with", "kprobes", "x86_64", "patched", "retpoline"):
        return
    item.config("CONFIG_KPROBES=y", "CONFIG_KPROBE_EVENTS=y", "CONFIG_MITIGATION_RETPOLINE=y")
    ctx.host.make_dirs(results)
    ctx.host.log("matrix kprobes: booting under QEMU TCG (kprobes on nft_do_chain_ipv4, "
                 "nf_hook_slow_nft and nf_hook_slow, about 1 min)")
    rc = item.guest("kprobe", 300, [ctx.tool("tests/lab/guest-kprobe.sh")],
                    after=["--append", "spectre_v2=retpoline"])
    item.exited(rc, start, results)
    products.report(ctx.tap, ctx.host.dry, "matrix kprobes: ", "%s/kprobe.tap" % results,
                    "%s/console.log" % results)
    ctx.result("matrix kprobes: guest exit status", rc)


RUN = {"modules": item_modules, "plain": item_plain, "llvm": item_llvm,
       "ibt": item_ibt, "kcfi": item_kcfi, "kprobes": item_kprobes}


def run(ctx):
    for name in ctx.settings.matrix:
        if name not in RUN:
            ctx.tap.bail("unknown NFTLAB_MATRIX item '%s' (%s)" % (name, " ".join(ITEMS)))
        item = Item(ctx, name)
        ctx.host.remove_tree(item.dir)
        ctx.host.make_dirs(item.dir)
        start = int(time.time())
        RUN[name](item)
        ctx.diag("matrix %s: %ds" % (name, int(time.time()) - start))
