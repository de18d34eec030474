# SPDX-License-Identifier: GPL-2.0
"""The llvm item's W=1 check: make W=1, with the item's clang, of the
objects the series touches, in the baseline and in the patched tree; the
patched objects may have no warning the baseline's same objects do not
have (tests/lab/compare-warnings.py: file and message, not line).

The objects: the C files the series' commits change, and the callers of
the hook-entry inlines it changes in include/linux/netfilter*.h
(nf_hook_slow(), the bridge and the ingress/egress paths, nf_hook_run()),
where their bodies are compiled; those the llvm kernel built.  Each tree
builds in an O= directory of its own (kernel/lib.sh kernel_obj
x86_64-w1-llvm-VARIANT), configured from the llvm kernel's config, under
the base tree's lock (the tree is checked out at the variant's commit)."""
import locale
import re

from .host import DEVNULL, TO_STDOUT

HOOK_INLINES = ("nf_hook_entry_hookfn", "nf_hook_run", "nf_hook_ingress", "nf_hook_egress")
COMPARE = "tests/lab/compare-warnings.py"
# a warning the comparison must catch, added to a copy of the patched log
PLANTED = "net/netfilter/nft_lookup.c:1:1: warning: planted [-Wnftlab]"


def touched_sources(ctx):
    """The C files the W=1 check is about, sorted and unique as sort -u
    gives them (the locale's collation)."""
    host = ctx.host
    changed = host.query_output(ctx.git("diff", "--name-only", ctx.lab_branch, ctx.branch, "--", "*.c"),
                                strip=False)[1]
    words = []
    for w in HOOK_INLINES:
        words += ["-e", w]
    callers = host.query_output(ctx.git("grep", "-l", "-w", *words, ctx.branch, "--", "net/*.c"),
                                strip=False)[1]
    prefix = "%s:" % ctx.branch
    names = changed.split("\n") + [n[len(prefix):] if n.startswith(prefix) else n for n in callers.split("\n")]
    # for f in $(... | sort -u): words, in the locale's order
    words = set(w for n in names for w in n.split())
    try:
        locale.setlocale(locale.LC_COLLATE, "")
    except locale.Error:
        pass  # sort's fallback too: the C locale
    return sorted(words, key=locale.strxfrm)


def object_of(source):
    """The object file of a C file: ${f%.c}.o."""
    return (source[:-2] if source.endswith(".c") else source) + ".o"


def compiled(ctx, logs, objects):
    """Every log of LOGS has a "  CC OBJECT" line for every one of OBJECTS:
    an object compiled in both trees (a log without them would compare as
    clean).  The first one missing is said in a comment."""
    if ctx.host.dry:
        return True
    for log in logs:
        text = ctx.host.read_text(log) or ""
        for obj in objects:
            if not re.search(r"^  CC +%s$" % re.escape(obj), text, re.M):
                ctx.diag("%s: no CC line for %s" % (log.rsplit("/", 1)[-1], obj))
                return False
    return True


def lib_sh(ctx, func, *args):
    """The output of the kernel/lib.sh function FUNC ARGS, None when it
    fails; in a dry run, which installed no toolchain and fetched no base,
    the expression that would give it."""
    rc, text = ctx.libsh.call(func, *args)
    if rc == 0:
        return text
    return "$(%s)" % " ".join((func,) + args) if ctx.host.dry else None


def build_objects(item, variant, commit, config, objects):
    """make W=1 OBJECTS in the tree at COMMIT, its O= directory configured
    from CONFIG; the exit status; make's output in w1-VARIANT.log."""
    ctx = item.ctx
    host = ctx.host
    obj = lib_sh(ctx, "kernel_obj", "x86_64-w1-llvm-%s" % variant)
    makevars = lib_sh(ctx, "toolchain_make_vars", ctx.settings.llvm_toolchain)
    if obj is None or makevars is None:
        return 1
    makevars = makevars.split("\n")
    log = "%s/w1-%s.log" % (item.dir, variant)
    host.log("matrix llvm: W=1 %s: make %s (first run: make prepare, about 2 min)" % (variant, " ".join(objects)))
    with host.lock(ctx.libsh.text("tree_lock")):
        if host.run(ctx.git("checkout", "-q", "-f", "--detach", commit)) != 0:
            return 1
        host.make_dirs(obj)
        # configured again only when the config changed: make would
        # otherwise rebuild the whole O= directory
        stamp = "%s/.nftlab-config" % obj
        wanted = host.read_text(config)
        if wanted is None or wanted != host.read_text(stamp):
            if not (host.copy(config, "%s/.config" % obj) and host.copy(config, stamp)):
                return 1
        # Compiled every time (ccache replays the warnings of a hit): an
        # object make considers up to date would print none.
        host.remove_files(obj, objects)
        make = ["make", "-C", ctx.src, "O=%s" % obj, "ARCH=x86_64"] + makevars
        rc = host.run(make + ["-s", "olddefconfig"], stdout=log, stderr=TO_STDOUT)
        if rc != 0:
            return rc
        return host.run(make + ["W=1", "-k", "-j%s" % ctx.libsh.value("NFTLAB_JOBS")] + objects,
                        stdout=log, stderr=TO_STDOUT, append=True)


def check(item):
    ctx = item.ctx
    host = ctx.host
    objdir = item.kernel.info("objdir")
    objects, skipped = [], []
    for source in touched_sources(ctx):
        if host.is_file("%s/%s" % (objdir, object_of(source))):
            objects.append(object_of(source))
        else:
            skipped.append(source)
    if skipped:
        ctx.diag("llvm W=1: not built in this configuration: %s" % " ".join(skipped))
    ctx.diag("llvm W=1 objects: %s" % " ".join(objects))
    logs = {}
    for variant, commit in (("baseline", ctx.lab_branch), ("patched", ctx.branch)):
        logs[variant] = "%s/w1-%s.log" % (item.dir, variant)
        rc = build_objects(item, variant, commit, "%s/config" % item.kernel.path, objects)
        ctx.result("matrix llvm: W=1 builds the %d objects in the %s tree (log: %s)"
                   % (len(objects), variant, logs[variant]), rc)
    ctx.tap.ok(compiled(ctx, (logs["baseline"], logs["patched"]), objects),
               "matrix llvm: W=1 compiled each of the %d objects in both trees" % len(objects))
    # The comparison must catch a warning added to the patched log.
    planted = "%s/w1-planted.log" % item.dir
    host.write_text(planted, (host.read_text(logs["patched"]) or "") + "%s/%s\n" % (ctx.src, PLANTED))
    rc = host.run(["python3", ctx.tool(COMPARE), "--strip", "%s/" % ctx.src, logs["baseline"], planted],
                  stdout=DEVNULL, dry_status=1)
    ctx.tap.ok(rc == 1, "matrix llvm: compare-warnings.py flags a warning planted in the patched log")
    report = "%s/w1-compare.txt" % item.dir
    rc = host.run(["python3", ctx.tool(COMPARE), "--strip", "%s/" % ctx.src, logs["baseline"], logs["patched"]],
                  stdout=report)
    host.echo(host.read_text(report) or "")
    ctx.result("matrix llvm: W=1 (clang) adds no warning to the objects the series touches", rc)
