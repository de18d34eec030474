#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of kernel/series/postings, the logic of make series-mail:
every base's postings file parses, names patches that exist and that all
have a changelog whose versions agree, and leaves no [feature] or
[stable] patch out; the stored postings (PATCHES/mail/) are those of the
patches and changelogs as they are now; and, on made-up data, the
errors, the recipients' split, the header folding, the changelog and
trailer placement and the width check.  No kernel tree: seconds.

python3 lib/tap.py tests/unit/test_check_series_mail.py (TAP; make check
runs it with every tests/unit/test_*.py, step units), or python3
tests/unit/test_check_series_mail.py [-v]."""
import os
import runpy
import tempfile
import textwrap
import unittest

runpy.run_path(os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..", "lib", "bootstrap.py"))
import series_postings as postings  # noqa: E402

TOP = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def base_patches_dirs():
    """{base: its series directory} of every base with a postings file."""
    out = {}
    bases = os.path.join(TOP, "kernel/builder/bases")
    for base in sorted(os.listdir(bases)):
        with open(os.path.join(bases, base)) as f:
            for line in f:
                if line.startswith("patches: "):
                    out[base] = os.path.join(TOP, line.split(":", 1)[1].strip())
    return out


class TheBases(unittest.TestCase):
    def test_every_base_has_postings(self):
        dirs = base_patches_dirs()
        self.assertIn("7.3", dirs)
        for base, d in dirs.items():
            self.assertTrue(os.path.isfile(os.path.join(d, "postings")), "%s: no postings file" % base)

    def test_postings_load(self):
        for base, d in base_patches_dirs().items():
            try:
                ps = postings.load(d)
            except postings.Error as e:
                self.fail("%s: %s" % (base, e))
            listed = [x for p in ps for x in p.patches]
            self.assertEqual(sorted(listed), sorted(postings.series_patches(d)), base)

    def test_stored_copies_current(self):
        """make series-mail BASE=B, then kernel/series/series-mail --base B
        --store, after a patch or a changelog changed."""
        for base, d in base_patches_dirs().items():
            if os.path.isdir(os.path.join(d, "mail")):
                self.assertEqual(postings.stale_copies(d), [], "%s: regenerate with "
                                 "kernel/series/series-mail --base %s --store" % (base, base))


PATCH = """\
From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 00:00:00 2001
From: nftlab <nftlab@localhost>
Date: Wed, 2 Dec 2026 06:26:11 +0000
Subject: [PATCH] netfilter: nft_x: do a thing

Why the thing.

Signed-off-by: nftlab <nftlab@localhost>
---
 net/netfilter/nft_x.c | 1 +
 1 file changed, 1 insertion(+)

diff --git a/net/netfilter/nft_x.c b/net/netfilter/nft_x.c
--- a/net/netfilter/nft_x.c
+++ b/net/netfilter/nft_x.c
@@ -1 +1,2 @@
 a
+b
-- 
2.39.5

"""


class MadeUpSeries(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = self.tmp.name
        os.makedirs(os.path.join(self.d, "feature"))
        os.makedirs(os.path.join(self.d, "stable"))
        os.makedirs(os.path.join(self.d, "changes"))
        self.write("series", "[lab]\n[feature]\nfeature/0001-a.patch\nfeature/0002-b.patch\n"
                             "[stable]\nstable/0001-fix.patch\n")
        for p in ("feature/0001-a.patch", "feature/0002-b.patch", "stable/0001-fix.patch"):
            self.write(p, PATCH)
        self.write("changes/0001-a.txt", "v2:\n- Reworded.\nv1:\n- First posting.\n")
        self.write("changes/0002-b.txt", "v2:\n- New.\n")
        self.write("changes/0001-fix.txt", "v1:\n- First posting.\n")
        self.write("postings", textwrap.dedent("""\
            # comment
            [next]
            prefix: PATCH nf-next
            subject: two patches
            patch: feature/0001-a.patch
            patch: feature/0002-b.patch

            [fix]
            prefix: PATCH nf
            patch: stable/0001-fix.patch
            """))

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, rel, text):
        with open(os.path.join(self.d, rel), "w") as f:
            f.write(text)

    def error(self):
        with self.assertRaises(postings.Error) as cm:
            postings.load(self.d)
        return str(cm.exception)

    def test_versions_make_the_prefix(self):
        ps = {p.name: p for p in postings.load(self.d)}
        self.assertEqual(ps["next"].prefix(), "PATCH nf-next v2")
        self.assertEqual(ps["fix"].prefix(), "PATCH nf")

    def test_missing_changelog_names_it(self):
        os.unlink(os.path.join(self.d, "changes/0002-b.txt"))
        msg = self.error()
        self.assertIn("changes/0002-b.txt", msg)
        self.assertIn("feature/0002-b.patch", msg)

    def test_patch_without_entry_for_the_posting_version(self):
        self.write("changes/0001-a.txt", "v1:\n- First posting.\n")
        self.assertIn("add a v2 entry", self.error())

    def test_versions_newest_first(self):
        self.write("changes/0001-a.txt", "v1:\n- First posting.\nv2:\n- x\n")
        self.assertIn("newest first", self.error())

    def test_changelog_line_too_wide(self):
        self.write("changes/0002-b.txt", "v2:\n- " + "x" * 79 + "\n")
        self.assertIn("columns", self.error())

    def test_series_patch_in_no_posting(self):
        with open(os.path.join(self.d, "postings")) as f:
            text = f.read()
        self.write("postings", text.replace("patch: stable/0001-fix.patch\n", "patch: feature/0002-b.patch\n")
                   .replace("patch: feature/0002-b.patch\n\n", "\n", 1))
        self.assertIn("in no posting: stable/0001-fix.patch", self.error())

    def test_patch_in_two_postings(self):
        with open(os.path.join(self.d, "postings"), "a") as f:
            f.write("[again]\nprefix: PATCH\npatch: stable/0001-fix.patch\n")
        self.assertIn("is in [fix] and [again]", self.error())

    def test_missing_patch_file(self):
        os.unlink(os.path.join(self.d, "stable/0001-fix.patch"))
        self.assertIn("stable/0001-fix.patch, which does not exist", self.error())

    def test_after_must_come_first(self):
        with open(os.path.join(self.d, "postings")) as f:
            text = f.read()
        self.write("postings", text.replace("prefix: PATCH nf\n", "prefix: PATCH nf\nafter: later\n"))
        self.assertIn("applies after [later]", self.error())

    def test_unknown_key(self):
        with open(os.path.join(self.d, "postings"), "a") as f:
            f.write("colour: blue\n")
        self.assertIn("known key", self.error())

    def test_several_patches_need_a_cover_subject(self):
        with open(os.path.join(self.d, "postings")) as f:
            text = f.read()
        self.write("postings", text.replace("subject: two patches\n", ""))
        self.assertIn("cover letter", self.error())

    def test_changelog_below_dashes(self):
        note = postings.render_changes(postings.parse_changes(os.path.join(self.d, "changes/0001-a.txt")))
        self.assertEqual(note, "Changes in v2:\n- Reworded.")
        body = postings.split_mail(PATCH)[1]
        out = postings.below_dashes(body, note, "x")
        self.assertIn("---\nChanges in v2:\n- Reworded.\n\n net/netfilter/nft_x.c | 1 +", out)
        self.assertEqual(postings.below_dashes(body, "", "x"), body)
        self.assertEqual(postings.render_changes(postings.parse_changes(
            os.path.join(self.d, "changes/0001-fix.txt"))), "")

    def test_trailer_above_signature(self):
        body = postings.split_mail(PATCH)[1]
        out = postings.add_trailer(body, ["base-commit: v7.3.4 (upstream tag)"])
        self.assertTrue(out.endswith("+b\n\nbase-commit: v7.3.4 (upstream tag)\n-- \n2.39.5\n\n"), out)


GET_MAINTAINER = """\
Pablo Neira Ayuso <pablo@netfilter.org> (maintainer:NETFILTER)
Florian Westphal <fw@strlen.de> (maintainer:NETFILTER)
Phil Sutter <phil@nwl.cc> (reviewer:NETFILTER)
"David S. Miller" <davem@davemloft.net> (maintainer:NETWORKING [GENERAL])
netfilter-devel@vger.kernel.org (open list:NETFILTER)
coreteam@netfilter.org (open list:NETFILTER)
linux-kernel@vger.kernel.org (open list)
Nathan Chancellor <nathan@kernel.org> (supporter:CLANG/LLVM BUILD SUPPORT:Keyword:\\b(?i:clang|llvm)\\b)
llvm@lists.linux.dev (open list:CLANG/LLVM BUILD SUPPORT:Keyword:\\b(?i:clang|llvm)\\b)
"""


class Recipients(unittest.TestCase):
    def test_to_is_the_section_maintainers_and_its_list(self):
        m = postings.parse_maintainers(GET_MAINTAINER)
        to = postings.split_recipients(m, "NETFILTER", ["stable@vger.kernel.org"])
        self.assertEqual(to, ["stable@vger.kernel.org", "Pablo Neira Ayuso <pablo@netfilter.org>",
                              "Florian Westphal <fw@strlen.de>", "netfilter-devel@vger.kernel.org"])
        cc = postings.unique([a for a, _ in m], exclude=to)
        self.assertEqual(cc, ["Phil Sutter <phil@nwl.cc>", '"David S. Miller" <davem@davemloft.net>',
                              "coreteam@netfilter.org", "linux-kernel@vger.kernel.org",
                              "Nathan Chancellor <nathan@kernel.org>", "llvm@lists.linux.dev"])

    def test_no_maintainer_of_the_section(self):
        m = postings.parse_maintainers(GET_MAINTAINER)
        with self.assertRaises(postings.Error):
            postings.split_recipients(m, "ETHERNET BRIDGE", [])

    def test_headers_folded(self):
        head = postings.split_mail(PATCH)[0]
        out = postings.set_headers(head, ["a <a@x.org>", "b@x.org"], ["c@x.org"],
                                   "[PATCH nf-next v6 0/5] " + "word " * 30)
        self.assertIn("\nTo: a <a@x.org>,\n b@x.org\nCc: c@x.org", out)
        for line in out.split("\n"):
            self.assertLessEqual(len(line), 78, line)
        self.assertEqual(postings.subject_of(out), ("[PATCH nf-next v6 0/5] " + "word " * 30).strip())


class Widths(unittest.TestCase):
    def test_long_prose_line_found_tables_tags_identities_not(self):
        text = PATCH.replace("Why the thing.\n", "Why the thing.\n" + "word " * 20 + "\n"
                             "  scenario " + " " * 60 + "| spectre_v2 | x\n"
                             "Fixes: 0123456789ab (\"" + "long subject " * 8 + "\")\n"
                             "Signed-off-by: A Long Name " + "x" * 60 + " <a@example.org>\n")
        text = text.replace("+b\n", "+" + "c" * 90 + "\n")
        text = text.replace("From: nftlab <nftlab@localhost>", "From: A Long Name " + "x" * 60 + " <a@x.org>")
        with tempfile.NamedTemporaryFile("w", suffix=".patch") as f:
            f.write(text)
            f.flush()
            self.assertEqual(postings.width_problems(f.name), [(7, 100)])


if __name__ == "__main__":
    unittest.main()
