# SPDX-License-Identifier: GPL-2.0
"""Anyone's patches as a series the kernel builder applies (make t0
PATCH=FILE; the program is kernel/series/user-series).

Theory of operation
-------------------
A netfilter developer has a patch, as the list delivered it (an mbox,
perhaps with a cover letter and replies), as `git format-patch` wrote it
(a directory) or as one file.  The lab builds kernels from a base tree and
a series (kernel/builder/prepare-tree, `git am` of each patch); anyone's
patches go on top of a variant of our own series (NFTLAB_USER_PATCHES,
kernel/lib.sh user_patches): on the base with the lab patches (variant
baseline, "ON=base") or with our series too (variant patched, "ON=ours").

This module turns FILE into that directory: one mail per patch, in order,
and a `series` file naming them.  It refuses, before anything is built:
  * a file or directory without any patch, an empty mbox;
  * a binary patch (T0 needs the change as text, and `git am` of a
    mail from the list rarely carries one intact);
  * an mbox whose numbered patches ([PATCH i/N]) miss one or repeat one;
  * a series that does not apply: the patches are applied, in a scratch
    directory, to the files they touch as the base tree has them after the
    variant's own patches (`git archive` of the tree's `base` tag: only
    those files, read-only, no checkout, no lock), and the first that
    fails is named with its failing hunk;
  * a series for another base: when it does not apply here but applies to
    another fetched base (with that base's lab patches), that is said.

The cover letter ([PATCH 0/N]) and messages without a diff (replies) are
skipped, each with a note.  Cost: a few `git` commands and the touched
files' bytes; nothing here needs the tree lock or a kernel.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

import bases as baselib  # lib/bases.py

# A subject's [PATCH ... i/N].
NUMBER_RE = re.compile(r"\[[^\]]*?\b(\d+)/(\d+)\s*\]")
# What makes a text a patch: a git diff or a unified diff's file header.
DIFF_RE = re.compile(r"^(diff --git |--- \S.*\n\+\+\+ \S)", re.M)
BINARY_RE = re.compile(r"^(GIT binary patch|Binary files .* differ)$", re.M)
# The files a diff touches.
PATH_RES = (re.compile(r"^diff --git a/(\S+) b/(\S+)$", re.M),
            re.compile(r"^(?:---|\+\+\+) [ab]/(\S+)", re.M),
            re.compile(r"^rename (?:from|to) (\S+)$", re.M))
HUNK_RE = re.compile(r"^@@ -(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@.*$", re.M)
# The identity of a patch that came without one (a plain diff).
PLACEHOLDER = "nftlab <nftlab@localhost>"


class Refused(Exception):
    """Input the lab will not build: the message says what and why."""


class Patch:
    """One patch: NAME (where it came from: file, or file and message
    number), SUBJECT (as sent, [PATCH] prefix and all), MAIL (the message,
    what `git am` reads) and DIFF (its decoded diff, `git mailinfo`'s)."""

    def __init__(self, name, subject, mail, diff):
        self.name, self.subject, self.mail, self.diff = name, subject, mail, diff

    def title(self):
        return "%s (%s)" % (self.name, self.subject) if self.subject else self.name


def git(*args, cwd=None, data=None, check=True):
    """`git ARGS` with DATA (bytes) on stdin: its CompletedProcess (bytes)."""
    r = subprocess.run(("git",) + args, cwd=cwd, input=data, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if check and r.returncode != 0:
        raise Refused("git %s: %s" % (" ".join(args[:2]), r.stderr.decode(errors="replace").strip()))
    return r


def mailinfo(mail):
    """(subject as sent, decoded diff) of one MAIL (bytes), by `git
    mailinfo -k` as `git am` reads it (quoted-printable, base64 and
    charsets decoded)."""
    with tempfile.TemporaryDirectory(prefix="nftlab-mailinfo.") as tmp:
        msg, patch = os.path.join(tmp, "msg"), os.path.join(tmp, "patch")
        r = git("mailinfo", "-k", msg, patch, data=mail)
        info = dict(ln.split(": ", 1) for ln in r.stdout.decode(errors="replace").splitlines() if ": " in ln)
        with open(patch, "rb") as f:
            diff = f.read().decode(errors="replace")
    return info.get("Subject", "").strip(), diff


def split_mbox(path):
    """The messages of the mbox PATH (bytes each), `git mailsplit`'s."""
    with tempfile.TemporaryDirectory(prefix="nftlab-mailsplit.") as tmp:
        r = git("mailsplit", "-o" + tmp, path, check=False)
        if r.returncode != 0:
            raise Refused("%s: not a readable mbox: %s" % (path, r.stderr.decode(errors="replace").strip()))
        out = []
        for name in sorted(os.listdir(tmp)):
            with open(os.path.join(tmp, name), "rb") as f:
                out.append(f.read())
    return out


HEADER_RE = re.compile(rb"^(From|Subject|Date|Message-I[Dd]|To|Cc|Return-Path|Received|Delivered-To"
                       rb"|X-[\w-]+|MIME-Version|Content-Type):", re.I)


def messages(path):
    """[(name, mail bytes)] of the file PATH: an mbox (first line "From "),
    one mail (RFC 5322 headers), or a plain diff, made a mail with the
    file's name as its subject and a placeholder author (what `git am`
    needs)."""
    with open(path, "rb") as f:
        data = f.read()
    base = os.path.basename(path)
    if not data.strip():
        raise Refused("%s: empty file: no patch in it" % path)
    first = data.lstrip(b"\n").split(b"\n", 1)[0]
    if first.startswith(b"From "):
        mails = split_mbox(path)
        if not mails:
            raise Refused("%s: empty mbox: no message in it" % path)
        if len(mails) == 1:
            return [(base, mails[0])]
        return [("%s message %d" % (base, i + 1), m) for i, m in enumerate(mails)]
    if HEADER_RE.match(first):
        return [(base, data)]
    if not DIFF_RE.search(data.decode(errors="replace")):
        raise Refused("%s is not a patch: no mail headers, no 'diff --git' and no '---'/'+++' file header" % path)
    subject = os.path.splitext(base)[0]
    head = "From: %s\nSubject: [PATCH] %s\n\n" % (PLACEHOLDER, subject)
    return [(base, head.encode() + data)]


def is_cover(subject):
    m = NUMBER_RE.search(subject)
    return bool(m) and int(m.group(1)) == 0


def read_input(path, note=lambda text: None):
    """[Patch] of PATH (an mbox, a `git format-patch` directory or one
    patch file), in series order; NOTE(text) hears what was skipped.
    Raises Refused."""
    if os.path.isdir(path):
        files = sorted(os.path.join(path, n) for n in os.listdir(path)
                       if n.endswith((".patch", ".diff", ".mbox", ".eml")))
        if not files:
            raise Refused("%s: a directory without *.patch files (git format-patch -o DIR writes them)" % path)
        mails = [m for f in files for m in messages(f)]
    elif os.path.isfile(path):
        mails = messages(path)
    else:
        raise Refused("%s: no such file or directory" % path)
    patches = []
    for name, mail in mails:
        subject, diff = mailinfo(mail)
        if is_cover(subject):
            note("skipped the cover letter: %s" % (subject or name))
            continue
        if not DIFF_RE.search(diff) and not BINARY_RE.search(diff):
            note("skipped %s: no diff in it (%s)" % (name, subject or "no subject"))
            continue
        patches.append(Patch(name, subject, mail, diff))
    if not patches:
        raise Refused("%s is not a patch: %d message(s), none with a diff" % (path, len(mails)))
    for p in patches:
        b = BINARY_RE.search(p.diff)
        if b:
            raise Refused("%s is a binary patch (%s): T0 builds from textual patches only"
                          % (p.title(), b.group(1)))
    # one message alone is measured alone; a series must be whole
    return order(path, patches, note if len(mails) == 1 else None)


def order(path, patches, alone=None):
    """PATCHES in the order of their [PATCH i/N] numbers when every one
    has one (a list's mbox is in arrival order); refused when a number is
    missing or repeated.  Unnumbered: as given.  ALONE(text): PATCHES is
    one file's one message, taken as it is, what its number says noted."""
    nums = [NUMBER_RE.search(p.subject) for p in patches]
    if alone:
        note = alone
        if nums[0] and int(nums[0].group(2)) > 1:
            note("%s: patch %s of %s alone, without the rest of its series"
                 % (path, nums[0].group(1), nums[0].group(2)))
        return patches
    if not all(nums):
        return patches
    total = {int(m.group(2)) for m in nums}
    have = [int(m.group(1)) for m in nums]
    if len(total) > 1:
        raise Refused("%s: patches of different series (of %s patches)" % (path, " and ".join(
            str(t) for t in sorted(total))))
    n = total.pop()
    twice = sorted({i for i in have if have.count(i) > 1})
    if twice:
        raise Refused("%s: patch %s of %d is there more than once (two versions in one mbox?)"
                      % (path, ", ".join(str(i) for i in twice), n))
    missing = [i for i in range(1, n + 1) if i not in have]
    if missing:
        raise Refused("%s: patch %s of %d is missing" % (path, ", ".join(str(i) for i in missing), n))
    return [p for _, p in sorted(zip(have, patches), key=lambda x: x[0])]


def touched(diff):
    """The paths DIFF touches (before and after a rename)."""
    out = set()
    for rx in PATH_RES:
        for m in rx.finditer(diff):
            out.update(g for g in m.groups() if g and g != "/dev/null")
    return out


def failing_hunk(diff, stderr):
    """'hunk K of FILE: @@ ... @@' for git apply's "patch failed: FILE:LINE"
    in STDERR, from DIFF's hunks of FILE; None when it says no such thing."""
    m = re.search(r"patch failed: (\S+):(\d+)", stderr)
    if not m:
        return None
    path, line = m.group(1), int(m.group(2))
    sections = re.split(r"^(?=diff --git )", diff, flags=re.M)
    for sec in sections:
        if not re.search(r"^(?:diff --git a/|--- a/)%s\b" % re.escape(path), sec, re.M):
            continue
        for k, h in enumerate(HUNK_RE.finditer(sec), 1):
            if int(h.group(1)) == line:
                return "hunk %d of %s: %s" % (k, path, h.group(0).strip())
    return "%s, the hunk at line %d" % (path, line)


def apply_series(src, rev, own, patches):
    """Applies OWN (the variant's patch files) then PATCHES ([Patch]), in
    order, to the files they touch as tree SRC has them at REV, in a
    scratch directory: None when all apply, else (index in PATCHES, what
    git apply said).  A failing patch of OWN raises Refused (the base tree
    is not what the series was made for)."""
    texts = []
    for p in own:
        with open(p, errors="replace") as f:
            texts.append(f.read())
    paths = set()
    for t in texts + [p.diff for p in patches]:
        paths |= touched(t)
    with tempfile.TemporaryDirectory(prefix="nftlab-apply.") as tmp:
        git("init", "-q", tmp)
        if paths:
            listed = git("ls-tree", "-r", "-z", "--name-only", rev, "--", *sorted(paths), cwd=src).stdout
            have = [p for p in listed.decode().split("\0") if p]
            if have:
                tar = git("archive", "--format=tar", rev, "--", *have, cwd=src).stdout
                subprocess.run(["tar", "-x", "-C", tmp], input=tar, check=True)
        for p, t in zip(own, texts):
            r = git("apply", "--whitespace=nowarn", "-", cwd=tmp, data=t.encode(), check=False)
            if r.returncode != 0:
                raise Refused("the lab's own patch %s does not apply to %s at %s: %s"
                              % (p, src, rev, r.stderr.decode(errors="replace").strip()))
        for i, p in enumerate(patches):
            r = git("apply", "--whitespace=nowarn", "-v", "-", cwd=tmp, data=p.diff.encode(), check=False)
            if r.returncode != 0:
                return i, r.stderr.decode(errors="replace")
    return None


def failure_text(patches, failed):
    """What apply_series()'s FAILED (index, stderr) says, in lines."""
    i, err = failed
    p = patches[i]
    lines = ["patch %d/%d does not apply: %s" % (i + 1, len(patches), p.title())]
    hunk = failing_hunk(p.diff, err)
    if hunk:
        lines.append("  failing: %s" % hunk)
    lines += ["  git apply: " + ln for ln in err.splitlines()
              if ln.startswith("error:") and "while searching for" not in ln]
    return lines


def slug(subject):
    """format-patch's file name stem of SUBJECT (without its [PATCH])."""
    s = re.sub(r"^(\s*(\[[^\]]*\]|re:|fwd?:)\s*)+", "", subject, flags=re.I)
    s = re.sub(r"[^A-Za-z0-9._]+", "-", s).strip("-.")
    return (s or "patch")[:52].rstrip("-.")


def write_dir(out, patches, origin):
    """OUT/NNNN-SLUG.patch per patch and OUT/series (kernel/lib.sh
    user_patches' format), ORIGIN in its header.  OUT is replaced whole,
    never mixed with an earlier series."""
    tmp = out + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    names = []
    for i, p in enumerate(patches, 1):
        name = "%04d-%s.patch" % (i, slug(p.subject or p.name))
        with open(os.path.join(tmp, name), "wb") as f:
            f.write(p.mail)
        names.append(name)
    with open(os.path.join(tmp, "series"), "w") as f:
        f.write("# kernel/series/user-series from %s (kernel/lib.sh user_patches)\n" % origin)
        f.write("".join(n + "\n" for n in names))
    shutil.rmtree(out, ignore_errors=True)
    os.rename(tmp, out)
    return names


# The lab's bases and series, for main() and check()'s defaults.
TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FETCH_BASE = os.path.join(TOP, "kernel", "builder", "fetch-base")
# The variant anyone's patches go on top of, per --on.
VARIANT = {"base": "baseline", "ours": "patched"}
GROUPS = {"baseline": ("lab",), "patched": ("lab", "feature", "lab-patched")}


def own_patches(base, variant):
    """The variant's patch files of BASE's series, in order (the grammar
    of kernel/lib.sh series_patches)."""
    pdir = os.path.join(TOP, baselib.field(base, "patches"))
    groups, cur, out = GROUPS[variant], None, {}
    with open(os.path.join(pdir, "series")) as f:
        for line in f:
            line = "".join(line.split("#", 1)[0].split())
            if line.startswith("["):
                cur = line.strip("[]")
            elif line and cur in groups:
                out.setdefault(cur, []).append(os.path.join(pdir, line))
    return [p for g in groups for p in out.get(g, [])]


def base_src(base):
    """The fetched tree of BASE, or None (fetch-base --print-path)."""
    r = subprocess.run([FETCH_BASE, "--base", base, "--print-path"], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, text=True)
    d = r.stdout.strip()
    return d if r.returncode == 0 and os.path.isdir(os.path.join(d, ".git")) else None


def describe_base(base, on):
    what = "the lab patches" if on == "base" else "the lab patches and our series"
    return "%s (%s %s) with %s" % (base, baselib.field(base, "package"), baselib.field(base, "pin"), what)


def check(path, base, on, note, src_of=None, own_of=None, about=None):
    """[Patch] of PATH, checked to apply on BASE (--on ON); Refused
    otherwise.  SRC_OF(base), OWN_OF(base, variant) and ABOUT(base, on):
    the fetched tree, the variant's patch files and the words for a base
    (base_src, own_patches, describe_base; the unit tests pass their own)."""
    src_of, own_of, describe = src_of or base_src, own_of or own_patches, about or describe_base
    patches = read_input(path, note)
    src = src_of(base)
    if src is None:
        raise Refused("base tree %s not fetched: run kernel/builder/fetch-base --base %s" % (base, base))
    failed = apply_series(src, "base", own_of(base, VARIANT[on]), patches)
    if failed is None:
        return patches
    if on == "ours" and apply_series(src, "base", own_of(base, "baseline"), patches) is None:
        raise Refused("\n".join(
            ["%s applies to %s but not on top of our series: it conflicts with it"
             % (path, describe(base, "base")),
             "  (measure it on the base: make t0 BASE=%s PATCH=%s, without ON=ours)" % (base, path)]
            + failure_text(patches, failed)))
    for other in baselib.names():
        osrc = src_of(other) if other != base else None
        if osrc and apply_series(osrc, "base", own_of(other, "baseline"), patches) is None:
            raise Refused("\n".join(
                ["%s does not apply to %s, but applies to %s: it is a patch for %s"
                 % (path, describe(base, on), describe(other, "base"), other),
                 "  (measure it there: make t0 BASE=%s PATCH=%s)" % (other, path)] + failure_text(patches, failed)))
    raise Refused("\n".join(["%s does not apply to %s" % (path, describe(base, on))] + failure_text(patches, failed)))


def main(argv=None):
    ap = argparse.ArgumentParser(prog="kernel/series/user-series", description="anyone's patches as a series to build")
    baselib.add_option(ap, "the base tree the patches apply to")
    ap.add_argument("--on", choices=sorted(VARIANT), default="base")
    ap.add_argument("--out", required=True, help="the patch directory to write (replaced whole)")
    ap.add_argument("file", help="an mbox, a git format-patch directory or one patch")
    args = ap.parse_args(argv)

    def note(text):
        print("[nftlab] %s" % text, file=sys.stderr)

    try:
        patches = check(args.file, args.base, args.on, note)
    except Refused as e:
        print("nftlab: %s" % e, file=sys.stderr)
        return 1
    names = write_dir(args.out, patches, args.file)
    for n in names:
        note("patch: %s" % n)
    print(args.out)
    return 0
