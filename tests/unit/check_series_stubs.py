#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The stub world of kernel/checks/check-series: the program runs there
as it runs for make check-series, but every program it calls (the kernel
builder, the lab runner, git, make, the compilers, the guests' helpers)
is tests/unit/fixtures/check-series/stub, which builds and boots nothing:
it logs its command line, where its output goes and does what the
scenario's rules say (a build that fails, a guest without a report, a
reproducer that does not reproduce...).  What the program printed, the
stubs' log interleaved, and its exit status make the scenario's
transcript, in tests/unit/fixtures/check-series/expected/SCENARIO.txt.

The transcripts were recorded from check-series as a bash script (the
commit before it became a Python program); tests/unit/test_check_series.py
runs the program of the checkout through every scenario and compares.

  python3 tests/unit/check_series_stubs.py check [SCENARIO...]
  python3 tests/unit/check_series_stubs.py record [--rev REV] [SCENARIO...]

check: diffs of the checkout's program against the stored transcripts.
record: stores the transcripts of the checkout's program, or of the
program at the commit REV (git archive: check-series, kernel/lib.sh,
lib/, the bases): after an intended change, or to prove that REV and the
checkout behave the same (record --rev REV, then git diff shows
nothing).  A scenario where the bash script did something else on
purpose says so (bash_differs) and keeps its transcript then.

The world: a copy of the program and what it sources or imports
(kernel/lib.sh, lib/, kernel/builder/bases/) in a temporary checkout,
the stubs at the paths of the programs it runs, a PATH of the stubs and
the host's own basic tools only (no real clang, git or make),
NFTLAB_CACHE, HOME and build/ in the temporary directory, the fixture
series (NFTLAB_PATCHES) and feature fragments (NFTLAB_CONFIGS),
LC_ALL=C."""
import argparse
import difflib
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field

TOP = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
FIXTURES = os.path.join(TOP, "tests", "unit", "fixtures", "check-series")
EXPECTED = os.path.join(FIXTURES, "expected")

# What check-series is made of, copied into the world.
PROGRAM = ("kernel/checks/check-series", "kernel/checks/check_series", "kernel/lib.sh", "lib/tap.sh",
           "lib/tap.py", "lib/bootstrap.py", "lib/bases.py", "kernel/builder/bases")
# The programs it runs by their path in the checkout: stubs there.
STUBBED = ("kernel/builder/build", "kernel/builder/fetch-base", "kernel/builder/prepare-tree",
           "kernel/builder/install-deps", "kernel/runner/lab-run", "kernel/checks/check-direct-calls",
           "tests/lab/extract-selftests", "tests/lab/stable-kselftest", "tests/reliability/open-interval.sh",
           "tests/reliability/hookstress.sh")
# ... and those it finds on PATH.
PATH_STUBS = ("git", "make", "clang", "clang-16", "clang-19", "ld.lld", "ld.lld-16", "ld.lld-19")
# The host's tools the world keeps: what bash scripts and lib.sh use.
HOST_TOOLS = ("bash", "sh", "python3", "sed", "grep", "paste", "sort", "tail", "cat", "mkdir", "rm", "cp",
              "cmp", "flock", "nproc", "dirname", "basename", "tr", "cut", "sha256sum", "realpath", "head",
              "readlink", "env", "ls", "chmod", "touch", "mktemp", "wc", "tee", "date", "sleep", "true",
              "false", "printf", "test", "[", "ln", "mv", "uname", "id", "stat")
# The fetched base versions (NFTLAB_CACHE/base*/current).
VERSIONS = {"base": "6.12.117-1~deb12u1", "base-7.3": "7.3.4-1~bpo13+1"}
# The W=1 candidates (git diff and git grep answers) and the objects the
# llvm kernel has: all of them (what a dry run takes for granted), or all
# but one that its config does not build.
DIFF = "net/netfilter/nft_lookup.c net/netfilter/nf_tables_core.c net/core/dev.c"
GREP = "net/netfilter/core.c net/bridge/br_netfilter_hooks.c net/core/dev.c"
ALL_OBJS = ("net/netfilter/nft_lookup.o net/netfilter/nf_tables_core.o net/core/dev.o net/netfilter/core.o "
            "net/bridge/br_netfilter_hooks.o")
SOME_OBJS = "net/netfilter/nft_lookup.o net/netfilter/nf_tables_core.o net/core/dev.o net/netfilter/core.o"


@dataclass
class Scenario:
    name: str
    base: str
    env: dict = field(default_factory=dict)
    # (glob on "NAME ARGS...", actions): see the stub's header
    rules: tuple = ()
    series: str = ""        # a fixture series directory; default series-BASE
    missing: tuple = ()     # PATH stubs left out (a toolchain not installed)
    commits: int = 0        # commits past the baseline; default: the series'
    # OPTION=N: the feature option exists from commit cN on
    kconfig: str = "NFT_LAB_FORCE_INDIRECT=2 NFT_LAB_SECOND=3 NFT_SEVEN=3"
    objs: str = ALL_OBJS    # the objects an x86_64 kernel has built
    # why the bash script's transcript differs, if it does: record --rev
    # keeps the stored one, the Python program's
    bash_differs: str = ""


SCENARIOS = (
    # every part of both bases, all passing
    Scenario("default-6.12", "6.12"),
    Scenario("default-7.3", "7.3"),
    Scenario("kernels-6.12", "6.12", {"NFTLAB_SERIES_PARTS": "kernels"}),
    Scenario("kernels-7.3", "7.3", {"NFTLAB_SERIES_PARTS": "kernels"}, rules=(
        ("kernel/builder/build x86_64 baseline retpoline", "fail"),
        ("kernel/runner/lab-run * --results */kernels-7.3/um-eibrs *", "noreport rc=1"),
        ("kernel/runner/lab-run * --results */kernels-7.3/um-plain *", "failreport partial rc=1"),
    )),
    # a failure of each kind, and later steps going on as before
    Scenario("failures-6.12", "6.12", series="series-stray-fix", missing=("clang-16",), objs=SOME_OBJS, rules=(
        ("kernel/builder/build --rev c2 --tag series um * retpoline", "fail"),
        ("kernel/builder/build --rev c3 --tag series um patched plain", "nolinux"),
        ("kernel/runner/lab-run * --results */bisect/4-retpoline *", "rc=1 nonl"),
        ("tests/lab/extract-selftests *", "fail"),
        ("kernel/runner/lab-run * --results */matrix-modules/guest *", "noreport rc=124"),
        ("kernel/builder/build x86_64 patched plain", "lacks=RETPOLINE"),
        ("kernel/checks/check-direct-calls */--toolchain_llvm_x86_64_patched_retpoline/vmlinux", "fail"),
        ("make * W=1 *", "nocc=net/core/dev.o"),
        ("tests/lab/compare-warnings.py * */w1-planted.log", "rc=0"),
        ("tests/lab/compare-warnings.py * */w1-patched.log", "rc=1"),
        ("kernel/builder/build --with ibt x86_64 patched retpoline", "fail"),
        ("kernel/runner/lab-run * --results */matrix-kprobes/kprobe *", "failreport partial rc=1"),
        ("kernel/runner/lab-run * --results */stable-6.12/rbtree-expired.sh-baseline *", "rc=0"),
        ("kernel/builder/build --with smp x86_64 stable retpoline", "fail"),
        ("kernel/runner/lab-run * --results */stable-6.12/chain-update-hook-type.sh-stable *",
         "rc=2 nonl"),
    )),
    Scenario("failures-7.3", "7.3", {"NFTLAB_SERIES_PARTS": "stable matrix",
                                     "NFTLAB_MATRIX": "llvm modules kcfi"}, rules=(
        ("kernel/builder/install-deps clang-19 lld-19 llvm-19", "rc=100"),
        ("kernel/builder/build --with modules x86_64 patched retpoline", "rc=0 lacks=NFT_CT"),
        ("kernel/checks/check-direct-calls *", "skip"),
        ("tests/reliability/open-interval.sh --build", "rc=1"),
        ("tests/lab/stable-kselftest */kselftest nft_chain_update_hooks.sh", "fail"),
        ("kernel/runner/lab-run * --results */stable-7.3/nft_interval_open.sh-baseline *", "rc=4"),
        ("git -C * checkout *", "rc=1"),
    )),
    # toolchains from the environment; one that lacks ld.lld-19
    Scenario("toolchains-7.3", "7.3", {"NFTLAB_SERIES_PARTS": "bisect matrix",
                                       "NFTLAB_SERIES_FLAVORS": "plain eibrs",
                                       "NFTLAB_MATRIX": "llvm kcfi", "NFTLAB_KCFI_TOOLCHAIN": "llvm"},
             missing=("ld.lld-19",)),
    Scenario("toolchains-6.12", "6.12", {"NFTLAB_SERIES_PARTS": "matrix", "NFTLAB_MATRIX": "kcfi llvm",
                                         "NFTLAB_LLVM_TOOLCHAIN": "llvm-16",
                                         "NFTLAB_KCFI_TOOLCHAIN": "llvm-19"}, objs=SOME_OBJS),
    # selections: parts in any order (they run in theirs), some stable
    # fixes, an unknown matrix item after a known one
    Scenario("selection-6.12", "6.12", {"NFTLAB_SERIES_PARTS": "matrix  stable",
                                        "NFTLAB_STABLE_FIXES": "0003-* 0001-*",
                                        "NFTLAB_MATRIX": "plain bogus kprobes"}),
    Scenario("selects-none-7.3", "7.3", {"NFTLAB_SERIES_PARTS": "stable", "NFTLAB_STABLE_FIXES": "9999-*"}),
    # the default parts of a base without feature patches, and without
    # stable fixes
    Scenario("lab-only-7.3", "7.3", series="series-lab-only"),
    Scenario("no-stable-6.12", "6.12", {"NFTLAB_MATRIX": "ibt", "NFTLAB_SERIES_FLAVORS": "retpoline"},
             series="series-no-stable"),
    # no base tree, no branches, no base
    Scenario("fetch-fails-6.12", "6.12", rules=(("kernel/builder/fetch-base", "rc=1"),)),
    Scenario("prepare-fails-7.3", "7.3", rules=(("kernel/builder/prepare-tree baseline", "fail"),)),
    Scenario("unknown-base", "9.9", series="series-6.12"),
    Scenario("stable-without-fixes-6.12", "6.12", {"NFTLAB_SERIES_PARTS": "stable"},
             series="series-no-stable", bash_differs=(
                 "with NFTLAB_STABLE_FIXES unset, the bash script stopped at its"
                 " set -u (\"NFTLAB_STABLE_FIXES: unbound variable\", exit 1, no plan"
                 " line); the program says that no fix was selected (exit 1)")),
)


def _series_patches(path, groups=("[lab]", "[feature]", "[lab-patched]", "[stable]")):
    """The patches of GROUPS in the fixture series PATH."""
    names, group = [], None
    with open(os.path.join(path, "series")) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line.startswith("["):
                group = line
            elif line and group in groups:
                names.append(line)
    return names


def _series_commits(path):
    """The commits past the baseline of the fixture series PATH: one per
    feature and lab-patched patch."""
    return len(_series_patches(path, ("[feature]", "[lab-patched]")))


def _copy_program(top, rev):
    """The program into TOP: from the checkout, or from the commit REV."""
    if rev is None:
        for path in PROGRAM:
            src, dst = os.path.join(TOP, path), os.path.join(top, path)
            if not os.path.exists(src):
                continue
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            if os.path.isdir(src):
                shutil.copytree(src, dst, ignore=shutil.ignore_patterns("__pycache__"))
            else:
                shutil.copy2(src, dst)
        return
    names = subprocess.run(["git", "-C", TOP, "ls-tree", "-r", "--name-only", rev, "--"] + list(PROGRAM),
                           check=True, stdout=subprocess.PIPE, text=True).stdout.split()
    archive = subprocess.run(["git", "-C", TOP, "archive", rev, "--"] + names, check=True,
                             stdout=subprocess.PIPE).stdout
    subprocess.run(["tar", "-x", "-C", top], input=archive, check=True)


def _link(target, path):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    os.symlink(target, path)


def make_world(root, scenario, rev=None):
    """The world of SCENARIO in the empty directory ROOT; its environment."""
    top = os.path.join(root, "top")
    os.makedirs(top)
    _copy_program(top, rev)
    stub = os.path.join(root, "stub")
    shutil.copy2(os.path.join(FIXTURES, "stub"), stub)
    for path in STUBBED:
        _link(stub, os.path.join(top, path))
    bindir = os.path.join(root, "bin")
    for name in PATH_STUBS:
        if name not in scenario.missing:
            _link(stub, os.path.join(bindir, name))
    tools = os.path.join(root, "tools")
    os.makedirs(tools)
    for name in HOST_TOOLS:
        where = shutil.which(name)
        if where and name != "python3":
            os.symlink(where, os.path.join(tools, name))
    # python3 runs tests/lab/compare-warnings.py: the stub's, without a
    # Python's start; anything else (check-series itself): Python
    with open(os.path.join(tools, "python3"), "w") as f:
        f.write('#!%s\ncase "${1:-}" in\n*/tests/lab/compare-warnings.py)\n\tshift\n'
                '\texec %s --as tests/lab/compare-warnings.py "$@" ;;\nesac\nexec %s "$@"\n'
                % (shutil.which("bash"), shlex.quote(stub), shlex.quote(sys.executable)))
    os.chmod(os.path.join(tools, "python3"), 0o755)
    cache = os.path.join(root, "cache")
    for d, version in VERSIONS.items():
        os.makedirs(os.path.join(cache, d))
        with open(os.path.join(cache, d, "current"), "w") as f:
            f.write(version + "\n")
    series = os.path.join(root, "series")
    shutil.copytree(os.path.join(FIXTURES, scenario.series or "series-%s" % scenario.base), series)
    for name in _series_patches(series):
        # empty: lib.sh variant_key reads them, for the branch's name
        os.makedirs(os.path.dirname(os.path.join(series, name)), exist_ok=True)
        open(os.path.join(series, name), "w").close()
    configs = os.path.join(root, "config")
    shutil.copytree(os.path.join(FIXTURES, "config"), configs)
    rules = os.path.join(root, "rules")
    with open(rules, "w") as f:
        for glob, actions in scenario.rules:
            f.write("%s\t%s\n" % (glob, actions))
    os.makedirs(os.path.join(root, "home"))
    env = {
        "PATH": "%s:%s" % (bindir, tools), "HOME": os.path.join(root, "home"), "LC_ALL": "C",
        "NFTLAB_CACHE": cache, "NFTLAB_JOBS": "2", "NFTLAB_BASE": scenario.base,
        "NFTLAB_PATCHES": series, "NFTLAB_CONFIGS": configs,
        "STUB_TOP": top, "STUB_BIN": bindir, "STUB_OUT": os.path.join(root, "stdout"),
        "STUB_ERR": os.path.join(root, "stderr"), "STUB_RULES": rules, "STUB_WORLD": root,
        "STUB_COMMITS": str(scenario.commits or _series_commits(series)), "STUB_KCONFIG": scenario.kconfig,
        "STUB_DIFF": DIFF, "STUB_GREP": GREP, "STUB_OBJS": scenario.objs,
    }
    env.update(scenario.env)
    return top, env


def normalize(text, root):
    """TEXT without what differs from one run to another (the world's
    directory, the seconds a step took) and without the complaints of the
    text tools the bash script ran on a file a failed step did not write
    (grep, cat...): the Python program reads such a file as empty,
    silently."""
    for r in sorted({root, os.path.realpath(root)}, key=len, reverse=True):
        text = text.replace(r, "@W")
    text = re.sub(r"exited (\d+) after \d+s", r"exited \1 after Ns", text)
    text = re.sub(r"^(# matrix \w+: )\d+s$", r"\1Ns", text, flags=re.M)
    return re.sub(r"^(grep|cat|sed|tail|paste|cmp): .*: No such file or directory\n", "", text, flags=re.M)


def run_program(root, env, args=()):
    """(exit status, stdout with the stubs' log, stderr) of check-series
    ARGS in the world ROOT (make_world's ENV), normalized."""
    for name in ("STUB_OUT", "STUB_ERR"):
        open(env[name], "w").close()
    with open(env["STUB_OUT"], "ab") as out, open(env["STUB_ERR"], "ab") as err:
        rc = subprocess.run([os.path.join(env["STUB_TOP"], "kernel/checks/check-series")] + list(args),
                            stdout=out, stderr=err, stdin=subprocess.DEVNULL, env=env, cwd=root,
                            timeout=600).returncode
    texts = []
    for name in ("STUB_OUT", "STUB_ERR"):
        with open(env[name], encoding="utf-8", errors="surrogateescape") as f:
            texts.append(normalize(f.read(), root))
    return rc, texts[0], texts[1]


def world_files(root, skip):
    """{path: (size, mtime)} of every file below ROOT but SKIP."""
    found = {}
    for d, _, files in os.walk(root):
        for f in files:
            path = os.path.join(d, f)
            if path not in skip:
                st = os.lstat(path)
                found[path] = (st.st_size, st.st_mtime_ns)
    return found


def transcript(scenario, rev=None, dry=None):
    """The transcript of SCENARIO run by the checkout's program (or REV's).
    DRY, a dict: filled with what a dry run in the same world did next:
    "run" and "dry" (exit status, stdout, stderr) and "unchanged" (whether
    it left every file as it was)."""
    with tempfile.TemporaryDirectory(prefix="nftlab-check-series-") as root:
        _, env = make_world(root, scenario, rev)
        run = run_program(root, env)
        if dry is not None:
            logs = (env["STUB_OUT"], env["STUB_ERR"])
            before = world_files(root, logs)
            dry.update(run=run, dry=run_program(root, env, ["--dry-run"]),
                       unchanged=world_files(root, logs) == before)
        return "exit %d\n--- stdout\n%s--- stderr\n%s" % run


def expected_path(scenario):
    return os.path.join(EXPECTED, scenario.name + ".txt")


def expected(scenario):
    with open(expected_path(scenario), encoding="utf-8", errors="surrogateescape") as f:
        return f.read()


def difference(scenario, dry=None):
    """The unified diff of the stored transcript of SCENARIO against the
    checkout's program; "" when they are the same (DRY: transcript's)."""
    want, got = expected(scenario), transcript(scenario, dry=dry)
    return "".join(difflib.unified_diff(want.splitlines(True), got.splitlines(True),
                                        "expected/%s.txt" % scenario.name, "check-series now"))


def main(argv):
    parser = argparse.ArgumentParser(description="check-series in the stub world")
    parser.add_argument("what", choices=("check", "record"))
    parser.add_argument("--rev", help="record: the program at this commit")
    parser.add_argument("scenarios", nargs="*")
    args = parser.parse_intermixed_args(argv)
    chosen = [s for s in SCENARIOS if not args.scenarios or s.name in args.scenarios]
    status = 0
    for scenario in chosen:
        if args.what == "record":
            if args.rev and scenario.bash_differs:
                print("kept %s: %s" % (scenario.name, scenario.bash_differs))
                continue
            os.makedirs(EXPECTED, exist_ok=True)
            with open(expected_path(scenario), "w", encoding="utf-8", errors="surrogateescape") as f:
                f.write(transcript(scenario, args.rev))
            print("recorded %s" % scenario.name)
        else:
            diff = difference(scenario)
            print("%s %s" % ("same" if not diff else "DIFFERENT", scenario.name))
            sys.stdout.write(diff)
            status |= bool(diff)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
