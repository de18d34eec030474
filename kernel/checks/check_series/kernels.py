# SPDX-License-Identifier: GPL-2.0
"""Part kernels: every lab kernel of the base, built and booted with the
smoke test (the default part of a base without feature patches)."""
from . import products
from .context import BUILD, SMOKE

# (arch, flavor) of the baseline kernels, in the order they are built
KERNELS = (("um", "retpoline"), ("um", "eibrs"), ("um", "plain"),
           ("x86_64", "retpoline"), ("x86_64", "plain"))


def run(ctx):
    host = ctx.host
    out = "%s/kernels-%s" % (ctx.out, ctx.base)
    host.remove_tree(out)
    for arch, flavor in KERNELS:
        host.log("kernels: %s --base %s %s baseline %s" % (BUILD, ctx.base, arch, flavor))
        rc, kernel = ctx.build([arch, "baseline", flavor])
        ctx.result("%s %s baseline %s: builds (on x86_64: objtool clean)" % (ctx.base, arch, flavor), rc)
        if rc != 0:
            continue
        # the vCPUs the kernel can run on (kernel/lib.sh lab_cpus)
        cpus = ctx.libsh.text("lab_cpus", kernel.path)
        results = "%s/%s-%s" % (out, arch, flavor)
        host.make_dirs(results)
        rc = ctx.lab_run(kernel, results, 300, [ctx.tool(SMOKE)], before=["--arch", arch, "--cpus", cpus])
        products.report(ctx.tap, host.dry, "%s %s %s: smoke: " % (ctx.base, arch, flavor),
                        "%s/smoke.tap" % results, "%s/console.log" % results)
        ctx.result("%s %s baseline %s: boots on %s vCPU(s) and passes the smoke test"
                   % (ctx.base, arch, flavor, cpus), rc)
