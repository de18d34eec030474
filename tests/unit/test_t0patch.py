#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of T0 for anyone's patch (make t0 PATCH=FILE): the input
(kernel/series/user_series.py: mbox, format-patch directory, one patch;
every refusal), the builder's first error (kernel/builder/build_error.py),
kernel/lib.sh's NFTLAB_USER_PATCHES, a failed boot's console tail
(t0run.boot_failure), the report (t0/patch.py), its chart (t0/plot.py) and
the line of a run without kernels (t0cells.not_built).  No kernel, no
QEMU: a small git tree stands in for the base tree.

python3 tests/unit/test_t0patch.py: TAP (lib/tap.py); -v: unittest's own
runner."""
import os
import runpy
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.join(HERE, "..", "..")
runpy.run_path(os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..", "lib", "bootstrap.py"))
import tap  # noqa: E402
from nftbench.t0 import cells as t0cells, patch as t0patch, plot as t0plot, run as t0run  # noqa: E402
import build_error  # noqa: E402
import user_series  # noqa: E402

FIX = os.path.join(HERE, "fixtures", "t0-patch")
SAMPLES = os.path.join(TOP, "tests", "t0-patch")
ENV = dict(os.environ, GIT_AUTHOR_NAME="nftlab", GIT_AUTHOR_EMAIL="nftlab@localhost", GIT_COMMITTER_NAME="nftlab",
           GIT_COMMITTER_EMAIL="nftlab@localhost", GIT_AUTHOR_DATE="2026-12-05T12:00:00Z",
           GIT_COMMITTER_DATE="2026-12-05T12:00:00Z")

CORE_C = "".join("line %d\n" % i for i in range(1, 31))


def git(cwd, *args):
    return subprocess.run(("git",) + args, cwd=cwd, env=ENV, check=True, capture_output=True).stdout.decode()


def make_tree(root, text=CORE_C):
    """A git tree with net/core.c (TEXT) and its tag base."""
    os.makedirs(os.path.join(root, "net"))
    with open(os.path.join(root, "net", "core.c"), "w") as f:
        f.write(text)
    git(root, "init", "-q")
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "base")
    git(root, "tag", "base")
    return root


def format_patches(root, edits, outdir, cover=True):
    """Commits EDITS ([(subject, {line: new text})] on net/core.c) on a
    branch of ROOT and writes them with git format-patch into OUTDIR
    (a cover letter too): the file names."""
    git(root, "checkout", "-q", "-b", "work", "base")
    for subject, changes in edits:
        path = os.path.join(root, "net", "core.c")
        with open(path) as f:
            lines = f.read().splitlines()
        for n, text in changes.items():
            lines[n - 1] = text
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        git(root, "commit", "-q", "-a", "-m", subject)
    args = ["format-patch", "-q", "-o", outdir, "base"] + (["--cover-letter"] if cover else [])
    git(root, *args)
    git(root, "checkout", "-q", "base")
    return sorted(os.listdir(outdir))


def refused(path, **kw):
    try:
        user_series.read_input(path, **kw)
    except user_series.Refused as e:
        return str(e)
    raise AssertionError("%s was accepted" % path)


class Input(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="nftlab-test-t0patch.")
        self.tree = make_tree(os.path.join(self.tmp, "tree"))
        self.out = os.path.join(self.tmp, "fp")
        self.files = format_patches(self.tree, [("net: first change", {3: "line three"}),
                                                ("net: second change", {20: "line twenty"})], self.out)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def mbox(self, names):
        path = os.path.join(self.tmp, "saved.mbox")
        with open(path, "wb") as f:
            for n in names:
                with open(os.path.join(self.out, n), "rb") as g:
                    f.write(g.read())
        return path

    def test_directory(self):
        """a git format-patch directory: its patches in order, the cover letter skipped"""
        notes = []
        ps = user_series.read_input(self.out, note=notes.append)
        self.assertEqual([p.subject for p in ps], ["[PATCH 1/2] net: first change", "[PATCH 2/2] net: second change"])
        self.assertIn("cover letter", notes[0])

    def test_mbox_order(self):
        """an mbox in arrival order (2/2 before 1/2, cover letter last): ordered by i/N"""
        ps = user_series.read_input(self.mbox([self.files[2], self.files[1], self.files[0]]))
        self.assertEqual([p.subject[:12] for p in ps], ["[PATCH 1/2] ", "[PATCH 2/2] "])

    def test_mbox_missing(self):
        """an mbox without patch 1 of 2 is refused, naming the number"""
        self.assertIn("patch 1 of 2 is missing", refused(self.mbox([self.files[0], self.files[2]])))

    def test_mbox_twice(self):
        """an mbox with patch 2/2 twice is refused"""
        self.assertIn("more than once", refused(self.mbox(self.files + [self.files[2]])))

    def test_single_patch(self):
        """one format-patch file, of a series of two: measured alone, and that is noted"""
        notes = []
        ps = user_series.read_input(os.path.join(self.out, self.files[1]), note=notes.append)
        self.assertEqual(len(ps), 1)
        self.assertIn("patch 1 of 2 alone", notes[0])

    def test_plain_diff(self):
        """a plain diff gets a placeholder author and its file name as subject"""
        path = os.path.join(self.tmp, "fix.diff")
        with open(path, "w") as f:
            f.write("--- a/net/core.c\n+++ b/net/core.c\n@@ -1,3 +1,3 @@\n line 1\n-line 2\n+line two\n line 3\n")
        ps = user_series.read_input(path)
        self.assertTrue(ps[0].mail.startswith(b"From: nftlab <nftlab@localhost>\nSubject: [PATCH] fix\n"))

    def test_not_a_patch(self):
        """a text file that is not a patch is refused"""
        path = os.path.join(self.tmp, "notes.txt")
        with open(path, "w") as f:
            f.write("Hello,\n\nplease measure my patch.\n")
        self.assertIn("is not a patch", refused(path))

    def test_empty_file(self):
        """an empty file is refused"""
        path = os.path.join(self.tmp, "empty.mbox")
        open(path, "w").close()
        self.assertIn("empty file", refused(path))

    def test_cover_only(self):
        """an mbox holding only the cover letter has no patch"""
        self.assertIn("none with a diff", refused(self.mbox([self.files[0]])))

    def test_binary(self):
        """a binary patch is refused, named"""
        path = os.path.join(self.tmp, "bin.patch")
        with open(path, "w") as f:
            f.write("From: a <a@b>\nSubject: [PATCH] add a blob\n\n---\ndiff --git a/fw.bin b/fw.bin\nnew file mode"
                    " 100644\nindex 0000000..e69de29\nGIT binary patch\nliteral 3\nKcmZQzWMT#Y00962\n\n")
        self.assertIn("binary patch", refused(path))

    def test_no_such_file(self):
        """a path that does not exist"""
        self.assertIn("no such file", refused(os.path.join(self.tmp, "nope")))

    def test_write_dir(self):
        """the directory for NFTLAB_USER_PATCHES: one mail per patch and a series file"""
        ps = user_series.read_input(self.out)
        d = os.path.join(self.tmp, "user")
        names = user_series.write_dir(d, ps, "x")
        self.assertEqual(names, ["0001-net-first-change.patch", "0002-net-second-change.patch"])
        with open(os.path.join(d, "series")) as f:
            self.assertEqual([ln for ln in f.read().splitlines() if not ln.startswith("#")], names)


class Apply(unittest.TestCase):
    """check(): the series against a base tree (a small git tree here)."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="nftlab-test-t0patch.")
        self.trees = {"7.3": make_tree(os.path.join(self.tmp, "t73")),
                      "6.12": make_tree(os.path.join(self.tmp, "t612"),
                                        CORE_C.replace("line 20\n", "old line 20\n"))}
        self.out = os.path.join(self.tmp, "fp")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def check(self, base, tree_for_patch, edits, on="base", others=True):
        files = format_patches(self.trees[tree_for_patch], edits, self.out)
        src_of = (lambda b: self.trees[b]) if others else (lambda b: self.trees[b] if b == base else None)
        return user_series.check(os.path.join(self.out), base, on, lambda t: None, src_of=src_of,
                                 own_of=lambda b, v: [], about=lambda b, o: "%s" % b), files

    def refused(self, *a, **kw):
        try:
            self.check(*a, **kw)
        except user_series.Refused as e:
            return str(e)
        raise AssertionError("accepted")

    def test_applies(self):
        """a series that applies is accepted"""
        ps, _ = self.check("7.3", "7.3", [("net: a", {3: "three"}), ("net: b", {3: "three again"})])
        self.assertEqual(len(ps), 2)

    def test_hunk(self):
        """one that does not apply names the patch and its failing hunk"""
        # patch 2 changes line 20, which 6.12's tree has differently
        msg = self.refused("6.12", "7.3", [("net: a", {3: "three"}), ("net: b", {20: "twenty"})], others=False)
        self.assertIn("patch 2/2 does not apply: 0002-net-b.patch ([PATCH 2/2] net: b)", msg)
        self.assertIn("failing: hunk 1 of net/core.c: @@ -17,7 +17,7 @@", msg)

    def test_other_base(self):
        """one for the other base: it applies there, and that is said"""
        msg = self.refused("6.12", "7.3", [("net: b", {20: "twenty"})])
        self.assertIn("does not apply to 6.12, but applies to 7.3: it is a patch for 7.3", msg)

    def test_nothing_left(self):
        """a refused series leaves no directory behind (check() writes none)"""
        self.refused("6.12", "7.3", [("net: b", {20: "twenty"})], others=False)
        self.assertEqual(sorted(os.listdir(self.tmp)), ["fp", "t612", "t73"])


class Samples(unittest.TestCase):
    def test_samples(self):
        """the worked example's two mboxes: a cover letter and one patch each, on nf_tables' packet path"""
        for name, path in (("add", "net/netfilter/nf_tables_core.c"), ("remove", "net/netfilter/nft_objref.c")):
            notes = []
            ps = user_series.read_input(os.path.join(SAMPLES, "%s-indirect-call.mbox" % name), note=notes.append)
            self.assertEqual(len(ps), 1)
            self.assertIn(path, user_series.touched(ps[0].diff))
            self.assertIn("cover letter", notes[0])


class BuildError(unittest.TestCase):
    def test_gcc(self):
        """a compiler error: its first line, the source tree stripped, and the object"""
        with open(os.path.join(FIX, "build-gcc.log")) as f:
            out = build_error.describe(f.read().splitlines(), "/root/.cache/nftlab/src/linux-7.3.4-1~bpo13+1")
        self.assertEqual(out, ["first error: net/netfilter/nf_tables_core.c:272:9: error: 'nft_chain_observr'"
                               " undeclared (first use in this function); did you mean 'nft_chain_observer'?",
                               "in object:   net/netfilter/nf_tables_core.o"])

    def test_ld(self):
        """a link error: the undefined reference and vmlinux.o"""
        with open(os.path.join(FIX, "build-ld.log")) as f:
            out = build_error.describe(f.read().splitlines())
        self.assertEqual(out, ["first error: nft_objref.c:(.text+0x1a): undefined reference to"
                               " `nft_counter_obj_eval'", "in object:   vmlinux.o"])


class Builder(unittest.TestCase):
    """kernel/lib.sh and kernel/builder/build with NFTLAB_USER_PATCHES."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="nftlab-test-t0patch.")
        self.user = os.path.join(self.tmp, "user")
        os.makedirs(self.user)
        with open(os.path.join(self.user, "series"), "w") as f:
            f.write("# a comment\n0001-a.patch\n")
        with open(os.path.join(self.user, "0001-a.patch"), "w") as f:
            f.write("patch a\n")
        self.cache = os.path.join(self.tmp, "cache")
        os.makedirs(os.path.join(self.cache, "base-7.3"))
        with open(os.path.join(self.cache, "base-7.3", "current"), "w") as f:
            f.write("7.3.4-1~bpo13+1\n")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def sh(self, script, user=True):
        env = dict(os.environ, NFTLAB_CACHE=self.cache, NFTLAB_BASE="7.3")
        env.pop("NFTLAB_USER_PATCHES", None)
        env.pop("NFTLAB_PATCHES", None)
        if user:
            env["NFTLAB_USER_PATCHES"] = self.user
        return subprocess.run(["bash", "-c", script], env=env, capture_output=True, text=True, cwd=TOP)

    def test_variant_patches(self):
        """the user's patches come after the variant's own"""
        out = self.sh(". kernel/lib.sh; variant_patches baseline").stdout.splitlines()
        self.assertEqual(out[-1], os.path.join(self.user, "0001-a.patch"))
        self.assertTrue(out[0].endswith("lab/0001-um-add-a-retpoline-option-for-performance-lab-kernel.patch"))

    def test_kernel_name(self):
        """the kernel is named after the patches' bytes, beside the lab's own"""
        own = self.sh("kernel/builder/build --print-path x86_64 baseline retpoline", user=False).stdout.strip()
        mine = self.sh("kernel/builder/build --print-path x86_64 baseline retpoline").stdout.strip()
        self.assertRegex(os.path.basename(mine), r"^x86_64-baseline-retpoline-u[0-9a-f]{8}$")
        self.assertEqual(os.path.dirname(own), os.path.dirname(mine))


class Boot(unittest.TestCase):
    def test_console_tail(self):
        """a boot that fails shows its status and the console's last lines (the panic)"""
        tmp = tempfile.mkdtemp(prefix="nftlab-test-t0patch.")
        try:
            shutil.copy(os.path.join(FIX, "console-panic.log"), os.path.join(tmp, "console.log"))
            out = t0run.boot_failure(tmp, "patched-retpoline-r1", 125)
        finally:
            shutil.rmtree(tmp)
        self.assertIn("the guest died", out[0])
        self.assertEqual(len(out), 2 + t0run.CONSOLE_TAIL)
        self.assertIn("Kernel panic - not syncing: VFS", out[-2])

    def test_no_console(self):
        """a boot without a console log says so"""
        out = t0run.boot_failure("/nonexistent", "b", 124)
        self.assertIn("no console output", out[1])


class Report(unittest.TestCase):
    """On a fixture: two stored 7.3 runs counted per function
    (docs/results/t0-7.3-v5-p1-5-20261205T003951Z and -p1-6-20261205T004912Z,
    drop and hash cells) as one run of a kernel before and after a patch."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="nftlab-test-t0patch.")
        self.run = os.path.join(self.tmp, "run")
        shutil.copytree(os.path.join(FIX, "run"), self.run)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_summary(self):
        """per cell and setting: instructions, thunks and other indirect calls before -> after, the delta"""
        text = "\n".join(t0patch.summary(self.run, "7.3", "7.3 + patch"))
        self.assertRegex(text, r"drop \(hook only\) \| retpoline +\| 548 -> 518 +\| -30 +\| 0 -> 0 +\| 0 -> 0")

    def test_report(self):
        """the report attributes the delta to the function whose code changed, and has its chart"""
        text = t0patch.report(self.run, "7.3", "7.3 + patch", ["0001-x.patch"])
        self.assertRegex(text, r"nft_do_chain \| 173 +\| 143 +\| -30 +\| changed")
        self.assertTrue(os.path.isfile(os.path.join(self.run, "t0", "patch.md")))
        self.assertIn("Chart: %s" % os.path.join(self.run, "t0", "t0-categories.svg"), text)

    @unittest.skipUnless(shutil.which("gnuplot"), "gnuplot not installed (make deps)")
    def test_svg(self):
        """the chart: an SVG with a stacked bar per kernel and setting, by category"""
        svg, why = t0plot.categories_svg(self.tmp, [self.run])
        self.assertIsNone(why)
        with open(svg) as f:
            text = f.read()
        self.assertTrue(text.lstrip().startswith("<?xml") and "</svg>" in text)
        for cat in ("expression dispatch", "hook entry", "thunks"):
            self.assertIn(cat, text)
        with open(os.path.join(self.tmp, "t0-categories.dat")) as f:
            bars = [ln for ln in f if ln.startswith('"')]
        # 2 cells x 2 kernels x 2 settings
        self.assertEqual(len(bars), 8)

    def test_no_per_function(self):
        """no chart without per-function counts, and why"""
        svg, why = t0plot.categories_svg(self.tmp, [os.path.join(TOP, "docs", "results",
                                                                  "t0-7.3-v5-baseline-20261203T074000Z")])
        self.assertIsNone(svg)
        self.assertIn("no row counted per function", why)


class NotBuilt(unittest.TestCase):
    def test_line(self):
        """a run without kernels says in one line what was not measured and the command"""
        line = t0cells.not_built(dict(variants=["baseline", "patched"], base="7.3",
                                      kernels={"baseline": None, "patched": None}))
        self.assertIn("not measured: no x86_64 baseline or patched kernel built for 7.3", line)
        self.assertIn("`make t0 BASE=7.3` builds them and counts", line)

    def test_built(self):
        """nothing to say when every kernel booted"""
        self.assertIsNone(t0cells.not_built(dict(variants=["baseline"], kernels={"baseline": "/k"})))


if __name__ == "__main__":
    sys.exit(tap.run_file(__file__))
