# SPDX-License-Identifier: GPL-2.0
"""The lab as the suite's runners see it: where the project's kernel
scripts are (one name per script, so that moving one is a one-line change
here), the kernel cache with --no-build, a kernel's BUILD-INFO, the
kernel/runner/lab-run command line of one boot, and the name of the lab's
force-indirect sysctl (owned by kernel/series/force-indirect-sysctl, which
lab patch 0006 registers).  bench (host.py) and T0 (t0/run.py) both boot
through this module."""
import hashlib
import os
import subprocess

import bases as baselib  # lib/bases.py

from .files import read_kv

SUITE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))   # nft_concat_range/
TOP = os.path.dirname(SUITE)

KERNEL_BUILD = os.path.join(TOP, "kernel", "builder", "build")
FETCH_BASE = os.path.join(TOP, "kernel", "builder", "fetch-base")
LAB_RUN = os.path.join(TOP, "kernel", "runner", "lab-run")
KNOB_FILE = os.path.join(TOP, "kernel", "series", "force-indirect-sysctl")
# The option of the kernels that have the knob (6.12's patched ones).
KNOB_CONFIG_FILE = os.path.join(TOP, "kernel", "series", "force-indirect-config")
RUN_PLAN = os.path.join(SUITE, "guest", "run-plan")
NFTLAB = os.path.join(TOP, "userspace", "build", "nftlab")

# The image kernel/builder/build leaves in a kernel directory, per architecture.
IMAGES = {"um": "linux", "x86_64": "bzImage"}


def base_src(base):
    """BASE's tree (kernel/builder/fetch-base --print-path: the cache
    layout is kernel/lib.sh's)."""
    r = subprocess.run([FETCH_BASE, "--base", base, "--print-path"], stdout=subprocess.PIPE, text=True)
    return r.stdout.strip() if r.returncode == 0 else None


def kernel_dir(base, arch, variant, flavor, build, log=None):
    """The directory of a built kernel, or None.  BUILD: ask
    kernel/builder/build, which builds it if needed (its progress goes to
    stderr); else only a kernel the cache holds already (--print-path),
    with its image and BUILD-INFO."""
    if build:
        if log:
            log("kernel %s %s %s: kernel/builder/build (10-20 min if not built yet)" % (arch, variant, flavor))
        r = subprocess.run([KERNEL_BUILD, "--base", base, arch, variant, flavor], stdout=subprocess.PIPE, text=True)
        return (r.stdout.strip() or None) if r.returncode == 0 else None
    r = subprocess.run([KERNEL_BUILD, "--base", base, "--print-path", arch, variant, flavor],
                       stdout=subprocess.PIPE, text=True)
    d = r.stdout.strip() if r.returncode == 0 else ""
    ok = d and os.path.isfile(os.path.join(d, IMAGES[arch])) and os.path.getsize(os.path.join(d, IMAGES[arch])) > 0
    return d if ok and os.path.isfile(os.path.join(d, "BUILD-INFO")) else None


def build_info(kdir):
    """{key: value} of KDIR's BUILD-INFO (kernel/builder/build's "key: value"
    lines) and the checksum of its config; None without BUILD-INFO.  Read
    when a boot starts: the cache may hold another build by the time the
    report is rendered."""
    path = os.path.join(kdir, "BUILD-INFO")
    if not os.path.isfile(path):
        return None
    info = read_kv(path, ": ")
    try:
        with open(os.path.join(kdir, "config"), "rb") as f:
            info["config_sha256"] = hashlib.sha256(f.read()).hexdigest()
    except OSError:
        pass
    return info


def lab_run(base, arch, kdir, results, timeout, cmd, append=None, qemu_args=(), nft=None, cpus=1, max_time=None,
            mem=None):
    """kernel/runner/lab-run's command line booting KDIR (a kernel of BASE) and running CMD (a list)
    in it, RESULTS writable, killed after TIMEOUT seconds without progress
    (lab-run --timeout) or MAX_TIME seconds in all (--max-time; None:
    lab-run's default, 4 x TIMEOUT); NFT: the guest's nft (lab-run --nft:
    host, current or a prefix; None: lab-run's default for the base); CPUS:
    vCPUs (lab-run --cpus); MEM: guest memory (lab-run --mem; None: its
    default)."""
    argv = [LAB_RUN, "--base", base, "--arch", arch, "--kernel", kdir, "--results", results, "--timeout", str(timeout)]
    if max_time:
        argv += ["--max-time", str(max_time)]
    if nft:
        argv += ["--nft", nft]
    if cpus != 1:
        argv += ["--cpus", str(cpus)]
    if mem:
        argv += ["--mem", mem]
    if append:
        argv += ["--append", append]
    for a in qemu_args:
        argv += ["--qemu-arg", a]
    return argv + ["--"] + list(cmd)


def knob_sysctl():
    with open(KNOB_FILE) as f:
        return f.read().strip()


def knob_config():
    """The option of the kernels that have the knob (KNOB_CONFIG_FILE)."""
    with open(KNOB_CONFIG_FILE) as f:
        return f.read().strip()


def sets_knob(config):
    """Whether the config file or fragment CONFIG sets the knob's option."""
    want = "%s=y" % knob_config()
    try:
        with open(config) as f:
            return any(line.strip() == want for line in f)
    except OSError:
        return False


def has_knob(kdir):
    """Whether the kernel in KDIR (kernel/builder/build's output) has the
    lab knob: its config sets the option of KNOB_CONFIG_FILE."""
    return sets_knob(os.path.join(kdir, "config"))


def feature_config(base):
    """BASE's fragment of the patched kernels (kernel/lib.sh feature_config)."""
    configs = os.environ.get("NFTLAB_CONFIGS") or os.path.join(TOP, "kernel", "config")
    return os.path.join(configs, "base-%s-feature.config" % base)


def base_has_knob(base):
    """Whether BASE's patched kernels have the knob, known before any is
    built: its feature fragment sets the option (6.12's lab patch adds it;
    7.3 has no such patch)."""
    return sets_knob(feature_config(base))


def knob_bases():
    """The bases whose patched kernels have the knob."""
    return [b for b in baselib.names() if base_has_knob(b)]
