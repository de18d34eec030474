# SPDX-License-Identifier: GPL-2.0
"""Usage: kernel/series/postings plan PATCHES_DIR
       kernel/series/postings finish PATCHES_DIR NAME OUTDIR TREE BASE_LINE [AFTER_DIR PREREQ_IDS_FILE]
       kernel/series/postings widths FILE...

The logic of kernel/series/series-mail: what a base's series posts, and
how each posting's files get their changelog, recipients and trailers.

PATCHES_DIR/postings splits the series into postings (one per tree and
readiness: its format is in its own comment).  Every patch has a
changelog, PATCHES_DIR/changes/STEM.txt (STEM: the patch file's name
without .patch), newest version first:

    v6:
    - what changed from v5 to v6
      (a continuation line)
    v5:
    - ...

A posting's version is the newest version of its patches; each of them
must have an entry for it (say "- No change." where nothing changed), so
that a posting never goes out without saying what changed.  Version 1
has no version in the subject prefix and nothing below "---".

plan: checks the postings file and the changelogs, prints one line per
posting: NAME, subject prefix with the version, the posting it applies
on top of ("-": the base), the patch files (absolute), tab-separated.

finish: completes the files `git format-patch` wrote into OUTDIR for the
posting NAME: the changelog below each patch's "---", To:/Cc: headers
from TREE's scripts/get_maintainer.pl, the cover letter's subject and
text, and the base-commit: trailer (BASE_LINE) with a
prerequisite-patch-id: line per id of PREREQ_IDS_FILE (a posting that
applies on top of the one in AFTER_DIR).  Prints the posting's To: and
Cc: (the cover letter's, or the single patch's) as two lines.

widths: every line of a message (headers and the text above the diff)
at most 80 columns, tables, Fixes:/Link:/Closes: tags and identities
(From:, Signed-off-by: ...) excepted; lists the others as FILE:LINE: N
columns and exits 1.
"""
import os
import re
import subprocess
import sys
import textwrap

# expand_includes owns the "[[include PATH]]" format; the cover-include:
# files use it too, and a mail must go out with the tables, never the
# lines that name them.
import expand_includes as EXPAND  # noqa: E402

WIDTH = 80
# Lines a width limit does not apply to: tables (a column rule or a cell
# separator) and the lines that must not be wrapped: Fixes:, Link: and
# Closes: tags, and an identity (the From: header, Signed-off-by: and
# the other -by: tags), which is the submitter's and may be long.
TABLE = re.compile(r"(\s\|\s|\|$|-\+-)")
UNWRAPPED_TAG = re.compile(r"^(Fixes|Link|Closes|From|[A-Z][a-z]*(-[a-z]+)*-by): ")
KEYS = ("prefix", "after", "to-section", "to", "subject", "cover-from", "about", "cover-include",
        "patch")
REPEATED = ("to", "about", "cover-include", "patch")


class Error(Exception):
    """A problem with the postings data, naming the file it is in."""


class Posting:
    def __init__(self, name, where):
        self.name = name
        self.where = where
        self.fields = {k: [] for k in REPEATED}
        self.version = None

    def get(self, key, default=None):
        return self.fields.get(key, default)

    @property
    def patches(self):
        return self.fields["patch"]

    def prefix(self):
        """The subject prefix with the version (none for version 1)."""
        if self.version == 1:
            return self.fields["prefix"]
        return "%s v%d" % (self.fields["prefix"], self.version)


def content_lines(path):
    """(where, line) of each line of the file PATH that is neither blank
    nor a comment: the lines postings and changelog files are made of."""
    with open(path) as f:
        lines = f.read().split("\n")
    for n, line in enumerate(lines, 1):
        if line.strip() and not line.startswith("#"):
            yield "%s:%d" % (path, n), line


def parse_postings(path):
    """The postings of the file PATH, in file order; raises Error."""
    postings = []
    cur = None
    for where, line in content_lines(path):
        m = re.match(r"^\[([a-z0-9][a-z0-9.-]*)\]$", line)
        if m:
            if any(p.name == m.group(1) for p in postings):
                raise Error("%s: posting [%s] twice" % (where, m.group(1)))
            cur = Posting(m.group(1), where)
            postings.append(cur)
            continue
        m = re.match(r"^([a-z-]+):(?: (.*))?$", line)
        if not m or m.group(1) not in KEYS:
            raise Error("%s: not a 'key: value' line of a known key (%s): %s"
                        % (where, ", ".join(KEYS), line))
        if cur is None:
            raise Error("%s: '%s:' before the first [posting]" % (where, m.group(1)))
        key, value = m.group(1), (m.group(2) or "").rstrip()
        if key in REPEATED:
            cur.fields[key].append(value)
        elif key in cur.fields:
            raise Error("%s: [%s] has '%s:' twice" % (where, cur.name, key))
        else:
            cur.fields[key] = value
    if not postings:
        raise Error("%s: no posting" % path)
    names = []
    for p in postings:
        if not p.get("prefix"):
            raise Error("%s: [%s] has no 'prefix:'" % (p.where, p.name))
        if not p.patches:
            raise Error("%s: [%s] has no 'patch:'" % (p.where, p.name))
        after = p.get("after")
        if after is not None and after not in names:
            raise Error("%s: [%s] applies after [%s], which is not a posting above it"
                        % (p.where, p.name, after))
        if len(p.patches) > 1 and not p.get("subject") and not p.get("cover-from"):
            raise Error("%s: [%s] has %d patches, so a cover letter: give it 'subject:' or 'cover-from:'"
                        % (p.where, p.name, len(p.patches)))
        names.append(p.name)
    return postings


def changes_path(patches_dir, patch):
    stem = os.path.basename(patch)
    if stem.endswith(".patch"):
        stem = stem[:-len(".patch")]
    return os.path.join(patches_dir, "changes", stem + ".txt")


def parse_changes(path):
    """[(version, [lines])], newest first, of the changelog file PATH;
    raises Error."""
    if not os.path.isfile(path):
        raise Error("no changelog %s" % path)
    versions = []
    for where, line in content_lines(path):
        if len(line) > WIDTH - 2:
            raise Error("%s: %d columns, more than %d (it is indented below ---)"
                        % (where, len(line), WIDTH - 2))
        m = re.match(r"^v([1-9][0-9]*):$", line)
        if m:
            v = int(m.group(1))
            if versions and v >= versions[-1][0]:
                raise Error("%s: v%d after v%d: newest first" % (where, v, versions[-1][0]))
            versions.append((v, []))
        elif not versions:
            raise Error("%s: text before the first 'vN:' line" % where)
        elif line.startswith("- ") or (line.startswith("  ") and versions[-1][1]):
            versions[-1][1].append(line)
        else:
            raise Error("%s: an entry starts with '- ', a continuation with two spaces" % where)
    if not versions:
        raise Error("%s: no version" % path)
    for v, entries in versions:
        if not entries:
            raise Error("%s: v%d has no entry" % (path, v))
    return versions


def render_changes(versions):
    """The text below "---": every version but the first posting's."""
    out = []
    for v, entries in versions:
        if v == 1:
            continue
        out.append("Changes in v%d:" % v)
        out.extend(entries)
    return "\n".join(out)


def series_patches(patches_dir, groups=("feature", "stable")):
    """The series file's patches of GROUPS, relative to PATCHES_DIR."""
    out, cur = [], None
    with open(os.path.join(patches_dir, "series")) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            if line.startswith("["):
                cur = line.strip("[]")
            elif cur in groups:
                out.append(line)
    return out


def load(patches_dir):
    """The postings of PATCHES_DIR with their versions, every patch and
    changelog checked; raises Error."""
    postings = parse_postings(os.path.join(patches_dir, "postings"))
    seen = {}
    for p in postings:
        tops = {}
        for patch in p.patches:
            path = os.path.join(patches_dir, patch)
            if not os.path.isfile(path):
                raise Error("%s: [%s] names %s, which does not exist" % (p.where, p.name, patch))
            if patch in seen:
                raise Error("%s: %s is in [%s] and [%s]" % (p.where, patch, seen[patch], p.name))
            seen[patch] = p.name
            try:
                tops[patch] = parse_changes(changes_path(patches_dir, patch))[0][0]
            except Error as e:
                raise Error("%s (patch %s of [%s])" % (e, patch, p.name))
        p.version = max(tops.values())
        for patch, v in tops.items():
            if v != p.version:
                raise Error("%s: newest is v%d, but [%s] is v%d (the newest of its patches): "
                            "add a v%d entry" % (changes_path(patches_dir, patch), v, p.name,
                                                 p.version, p.version))
    missing = [x for x in series_patches(patches_dir) if x not in seen]
    if missing:
        raise Error("%s/postings: in no posting: %s" % (patches_dir, ", ".join(missing)))
    return postings


# --- recipients -------------------------------------------------------

def parse_maintainers(text):
    """[(address, [roles])] of get_maintainer.pl's output with role stats
    ("Name <a@b> (maintainer:NETFILTER,open list:...)")."""
    out = []
    for line in text.split("\n"):
        line = line.strip()
        if not line:
            continue
        # the address ("Name <a@b>" or a@b), then its roles, which may
        # hold parentheses of their own (a K: keyword's regex)
        m = re.match(r"^([^<>]*<[^<>]+>|[^\s<>]+@[^\s<>]+) \((.*)\)$", line)
        addr, roles = (m.group(1), m.group(2).split(",")) if m else (line, [])
        out.append((addr, [r.strip() for r in roles]))
    return out


def address_key(addr):
    m = re.search(r"<([^<>]+)>", addr)
    return (m.group(1) if m else addr).strip().lower()


def split_recipients(first, section, extra_to):
    """To: of a posting: EXTRA_TO, then the maintainers of SECTION and its
    first list among the get_maintainer entries FIRST of its first patch."""
    to = list(extra_to)
    lists = []
    for addr, roles in first:
        if "maintainer:" + section in roles:
            to.append(addr)
        elif any(r.endswith("list:" + section) for r in roles):
            lists.append(addr)
    if section and not any("maintainer:" + section in r for _, r in first):
        raise Error("get_maintainer.pl names no maintainer of section %s for the first patch" % section)
    return unique(to + lists[:1])


def unique(addrs, exclude=()):
    seen = {address_key(a) for a in exclude}
    out = []
    for a in addrs:
        k = address_key(a)
        if k not in seen:
            seen.add(k)
            out.append(a)
    return out


def fold_header(name, values):
    """A header NAME with one value per continuation line."""
    return "%s: %s" % (name, ",\n ".join(values))


def fold_subject(subject):
    """A Subject: header folded at spaces to lines of at most 78 columns,
    as git format-patch folds a patch's."""
    words = ("Subject: " + subject.strip()).split(" ")
    lines = [words[0]]
    for w in words[1:]:
        if len(lines[-1]) + 1 + len(w) <= 78 or lines[-1] == "Subject:":
            lines[-1] += " " + w
        else:
            lines.append(" " + w)
    return "\n".join(lines)


def get_maintainer(tree, patch):
    r = subprocess.run(["./scripts/get_maintainer.pl", "--no-git", "--no-git-fallback", "--no-fixes",
                        "--rolestats", os.path.abspath(patch)],
                       cwd=tree, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        raise Error("get_maintainer.pl %s: %s" % (patch, r.stderr.strip()))
    return parse_maintainers(r.stdout)


# --- the files of one posting ------------------------------------------

def split_mail(text):
    """(headers, body) of a format-patch file."""
    head, _, body = text.partition("\n\n")
    return head, body


def set_headers(head, to, cc, subject=None):
    lines = head.split("\n")
    out = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if subject is not None and line.startswith("Subject: "):
            i += 1
            while i < len(lines) and lines[i].startswith(" "):
                i += 1
            out.append(fold_subject(subject))
            continue
        out.append(line)
        i += 1
    out.append(fold_header("To", to))
    if cc:
        out.append(fold_header("Cc", cc))
    return "\n".join(out)


def subject_of(head):
    m = re.search(r"^Subject: (.*(?:\n .*)*)", head, re.M)
    return re.sub(r"\n ", " ", m.group(1)) if m else ""


def add_trailer(body, lines):
    """LINES before the signature ("-- " line) that ends BODY, as
    git format-patch --base writes base-commit:."""
    if not lines:
        return body
    pos = body.rfind("\n-- \n")
    if pos < 0:
        raise Error("no signature line to put base-commit: above")
    return body[:pos].rstrip("\n") + "\n\n" + "\n".join(lines) + body[pos:]


def below_dashes(body, text, where):
    """TEXT after the "---" line that ends the message of BODY."""
    if not text:
        return body
    m = re.search(r"^---$", body, re.M)
    if not m:
        raise Error("%s: no '---' line" % where)
    return body[:m.end()] + "\n" + text + "\n" + body[m.end():]


def cover_text(posting, top, base_line, after_subject, version):
    """The cover letter's text: the first paragraph of 'cover-from:', the
    'about:' lines, then where it applies and where the lab's data is."""
    parts = []
    if posting.get("cover-from"):
        with open(os.path.join(top, posting.get("cover-from"))) as f:
            text = f.read().strip("\n")
        if text.startswith("Subject: "):
            text = text.partition("\n")[2].lstrip("\n")
        parts.append(text.split("\n\n", 1)[0])
    if posting.get("about"):
        parts.append("\n".join(posting.get("about")).strip("\n"))
    for path in posting.get("cover-include") or ():
        with open(os.path.join(top, path)) as f:
            parts.append(EXPAND.expand(f.read(), path).strip("\n"))
    tail = []
    if after_subject:
        tail.append('It applies on top of the posting "%s".' % after_subject)
    tail.append("Base: %s." % base_line)
    tail.append("Every figure comes from a run stored in the nftlab repository (not "
                "published), with the command that reproduces it.")
    if version > 1:
        tail.append("Each patch lists what changed since v%d below its \"---\" line."
                    % (version - 1))
    parts.append(textwrap.fill("  ".join(tail), 72))
    return "\n\n".join(parts)


def finish(patches_dir, name, outdir, tree, base_line, after_dir=None, prereq_file=None):
    postings = load(patches_dir)
    posting = next((p for p in postings if p.name == name), None)
    if posting is None:
        raise Error("%s/postings: no posting [%s]" % (patches_dir, name))
    top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    files = sorted(f for f in os.listdir(outdir) if f.endswith(".patch"))
    cover = [f for f in files if f.startswith("0000-")]
    patches = [f for f in files if not f.startswith("0000-")]
    if len(patches) != len(posting.patches):
        raise Error("%s: %d patches formatted, [%s] has %d" % (outdir, len(patches), name,
                                                                len(posting.patches)))
    if bool(cover) != (len(patches) > 1):
        raise Error("%s: a cover letter goes with more than one patch" % outdir)
    after_subject = None
    if after_dir:
        first = sorted(f for f in os.listdir(after_dir) if f.endswith(".patch"))[0]
        with open(os.path.join(after_dir, first)) as f:
            after_subject = subject_of(split_mail(f.read())[0])
    trailer = ["base-commit: %s" % base_line]
    if prereq_file:
        with open(prereq_file) as f:
            trailer += ["prerequisite-patch-id: %s" % x for x in f.read().split()]
    maint = [get_maintainer(tree, os.path.join(outdir, f)) for f in patches]
    to = split_recipients(maint[0], posting.get("to-section", "NETFILTER"), posting.get("to"))
    ccs = [unique([a for a, _ in m], exclude=to) for m in maint]
    for f, src, cc in zip(patches, posting.patches, ccs):
        path = os.path.join(outdir, f)
        with open(path) as fh:
            head, body = split_mail(fh.read())
        note = render_changes(parse_changes(changes_path(patches_dir, src)))
        if after_subject and not cover:
            note = (note + "\n\n" if note else "") + textwrap.fill(
                'Applies on top of "%s" (prerequisite-patch-id: lines below).' % after_subject, 72)
        body = below_dashes(body, note, path)
        if not cover:
            body = add_trailer(body, trailer)
        with open(path, "w") as fh:
            fh.write(set_headers(head, to, cc) + "\n\n" + body)
    cover_cc = unique([a for cc in ccs for a in cc], exclude=to)
    if cover:
        path = os.path.join(outdir, cover[0])
        with open(path) as fh:
            head, body = split_mail(fh.read())
        subject = posting.get("subject")
        if not subject:
            with open(os.path.join(top, posting.get("cover-from"))) as fh:
                first = fh.readline().rstrip("\n")
            if not first.startswith("Subject: "):
                raise Error("%s: [%s] has no 'subject:' and %s no 'Subject:' line"
                            % (patches_dir, name, posting.get("cover-from")))
            subject = first[len("Subject: "):]
        prefix = re.match(r"^\[[^]]*\] ", subject_of(head))
        body = body.replace("*** BLURB HERE ***",
                            cover_text(posting, top, base_line, after_subject, posting.version))
        body = add_trailer(body, trailer)
        with open(path, "w") as fh:
            fh.write(set_headers(head, to, cover_cc, prefix.group(0) + subject) + "\n\n" + body)
    print(",".join(to))
    print(",".join(cover_cc if cover else ccs[0]))


# --- the stored copies --------------------------------------------------

def _message_and_diff(path):
    """(subject without its [prefix], message, the diff's file and +/-
    lines) of a patch file."""
    with open(path) as f:
        head, body = split_mail(f.read())
    subject = re.sub(r"^\[[^]]*\] ", "", subject_of(head))
    message = body.split("\n---\n", 1)[0]
    diff, in_diff = [], False
    for line in body.split("\n"):
        if line == "-- ":
            break
        if line.startswith("diff --git "):
            in_diff = True
        if in_diff and (line.startswith(("diff --git ", "+", "-"))):
            diff.append(line)
    return subject, message, diff


def stale_copies(patches_dir):
    """What differs between the stored postings (PATCHES_DIR/mail/, written
    by series-mail --store) and the patches and changelogs they come from:
    [] when they are current."""
    stored = os.path.join(patches_dir, "mail")
    out = []
    for p in load(patches_dir):
        d = os.path.join(stored, p.name)
        if not os.path.isdir(d):
            out.append("%s: missing" % d)
            continue
        files = sorted(f for f in os.listdir(d) if f.endswith(".patch") and not f.startswith("0000-"))
        if len(files) != len(p.patches):
            out.append("%s: %d patches, [%s] has %d" % (d, len(files), p.name, len(p.patches)))
            continue
        if not os.path.isfile(os.path.join(d, "send-email-dry-run.txt")):
            out.append("%s: no send-email-dry-run.txt" % d)
        for f, src in zip(files, p.patches):
            got = _message_and_diff(os.path.join(d, f))
            want = _message_and_diff(os.path.join(patches_dir, src))
            for what, a, b in zip(("subject", "message", "diff"), got, want):
                if a != b:
                    out.append("%s/%s: its %s is not %s's" % (d, f, what, src))
            note = render_changes(parse_changes(changes_path(patches_dir, src)))
            with open(os.path.join(d, f)) as fh:
                if "\n---\n" + note not in fh.read():
                    out.append("%s/%s: its changelog is not changes/%s's" % (d, f, os.path.basename(
                        changes_path(patches_dir, src))))
    return out


# --- widths --------------------------------------------------------------

def width_problems(path):
    """[(line number, columns)] of the message lines of PATH over WIDTH."""
    with open(path) as f:
        lines = f.read().split("\n")
    out = []
    for n, line in enumerate(lines, 1):
        # the message ends at "---" (a patch) or at the shortlog (a cover letter)
        if line == "---" or line.startswith("diff --git ") or re.match(r"^\S.* \(\d+\):$", line):
            break
        if len(line) > WIDTH and not TABLE.search(line) and not UNWRAPPED_TAG.match(line) \
                and not line.startswith("From "):
            out.append((n, len(line)))
    return out


def main(argv):
    if not argv:
        sys.exit(__doc__.strip())
    try:
        if argv[0] == "plan" and len(argv) == 2:
            for p in load(argv[1]):
                print("\t".join([p.name, p.prefix(), p.get("after") or "-"]
                                + [os.path.join(os.path.abspath(argv[1]), x) for x in p.patches]))
        elif argv[0] == "finish" and len(argv) in (6, 8):
            finish(*argv[1:])
        elif argv[0] == "widths" and len(argv) > 1:
            bad = [(f, n, c) for f in argv[1:] for n, c in width_problems(f)]
            for f, n, c in bad:
                print("%s:%d: %d columns" % (f, n, c))
            sys.exit(1 if bad else 0)
        else:
            sys.exit(__doc__.strip())
    except Error as e:
        sys.exit("postings: %s" % e)

