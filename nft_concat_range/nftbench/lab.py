# SPDX-License-Identifier: GPL-2.0
"""The lab as the suite's runners see it: where the project's kernel
scripts are (one name per script, so that moving one is a one-line change
here), the kernel cache with --no-build, a kernel's BUILD-INFO, and the
kernel/lab-run command line of one boot.  bench (host.py) and T0
(t0run.py) both boot through this module."""
import hashlib
import os
import subprocess

SUITE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))   # nft_concat_range/
TOP = os.path.dirname(SUITE)

KERNEL_BUILD = os.path.join(TOP, "kernel", "build")
LAB_RUN = os.path.join(TOP, "kernel", "lab-run")
RUN_PLAN = os.path.join(SUITE, "guest", "run-plan")
NFTLAB = os.path.join(TOP, "userspace", "build", "nftlab")

# The image kernel/build leaves in a kernel directory, per architecture.
IMAGES = {"um": "linux", "x86_64": "bzImage"}


def cache():
    """The kernel cache (kernel/lib.sh's NFTLAB_CACHE default)."""
    return os.environ.get("NFTLAB_CACHE", os.path.expanduser("~/.cache/nftlab"))


def base_version():
    """The base tree's version as kernel/fetch-base recorded it, None before a fetch."""
    try:
        with open(os.path.join(cache(), "base", "current")) as f:
            return f.read().strip()
    except OSError:
        return None


def base_src():
    """The base tree (kernel/lib.sh's base_src)."""
    return os.path.join(cache(), "src", "linux-%s" % (base_version() or "unknown"))


def kernel_dir(arch, variant, flavor, build, log=None):
    """The directory of a built kernel, or None.  BUILD: ask kernel/build,
    which builds it if needed (its progress goes to stderr); else only a
    kernel the cache holds already, with its image and BUILD-INFO."""
    if build:
        if log:
            log("kernel %s %s %s: kernel/build (10-20 min if not built yet)" % (arch, variant, flavor))
        r = subprocess.run([KERNEL_BUILD, arch, variant, flavor], stdout=subprocess.PIPE, text=True)
        return (r.stdout.strip() or None) if r.returncode == 0 else None
    base = base_version()
    if base is None:
        return None
    d = os.path.join(cache(), "kernels", base, "%s-%s-%s" % (arch, variant, flavor))
    ok = os.path.isfile(os.path.join(d, IMAGES[arch])) and os.path.getsize(os.path.join(d, IMAGES[arch])) > 0
    return d if ok and os.path.isfile(os.path.join(d, "BUILD-INFO")) else None


def build_info(kdir):
    """{key: value} of KDIR's BUILD-INFO (kernel/build's "key: value"
    lines) and the checksum of its config; None without BUILD-INFO.  Read
    when a boot starts: the cache may hold another build by the time the
    report is rendered."""
    info = {}
    try:
        with open(os.path.join(kdir, "BUILD-INFO")) as f:
            for line in f:
                if ": " in line:
                    k, v = line.rstrip("\n").split(": ", 1)
                    info[k] = v
    except OSError:
        return None
    try:
        with open(os.path.join(kdir, "config"), "rb") as f:
            info["config_sha256"] = hashlib.sha256(f.read()).hexdigest()
    except OSError:
        pass
    return info


def lab_run(arch, kdir, results, timeout, cmd, append=None, qemu_args=()):
    """kernel/lab-run's command line booting KDIR and running CMD (a list)
    in it, RESULTS writable, killed after TIMEOUT seconds."""
    argv = [LAB_RUN, "--arch", arch, "--kernel", kdir, "--results", results, "--timeout", str(timeout)]
    if append:
        argv += ["--append", append]
    for a in qemu_args:
        argv += ["--qemu-arg", a]
    return argv + ["--"] + list(cmd)
