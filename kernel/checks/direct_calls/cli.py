# SPDX-License-Identifier: GPL-2.0
"""The command line of kernel/checks/check-direct-calls (see __init__)."""
import getopt
import os
import re
import shutil
import sys

from .image import Image, Tools, elf_kind
from .report import KSFT_SKIP, Tap, check_site
from .sites import series_sites

USAGE = "usage: check-direct-calls [-v] [-t SITE:REASON]... vmlinux|linux [MODULE.ko...]"
TODO_ARG = re.compile(r"[a-z].*:.+", re.DOTALL)


class Skip(Exception):
    """The check cannot run: "1..0 # SKIP REASON", exit status 4."""


class Usage(Exception):
    pass


def parse_args(argv):
    """(verbose, {site: reason}, files) of ARGV."""
    try:
        opts, files = getopt.getopt(argv, "vt:")
    except getopt.GetoptError as e:
        print("check-direct-calls: %s" % e, file=sys.stderr)
        raise Usage()
    verbose = False
    todo = {}
    for opt, value in opts:
        if opt == "-v":
            verbose = True
        else:
            if not TODO_ARG.fullmatch(value):
                raise Usage()
            site, reason = value.split(":", 1)
            # the first -t of a site stands
            todo.setdefault(site, reason)
    if not files:
        raise Usage()
    return verbose, todo, files


def load_images(files, tools):
    """The Images of FILES: a kernel image, then modules of its build."""
    images = []
    for i, path in enumerate(files):
        if not os.access(path, os.R_OK):
            raise Skip("cannot read %s" % path)
        kind = elf_kind(path)
        if i > 0 and kind != "rel":
            raise Skip("%s is not a module (relocatable object)" % path)
        image = Image.load(path, kind, tools)
        if not image.symbols:
            raise Skip("no symbols in %s (stripped?)" % path)
        images.append(image)
    if images[0].kind != "exec":
        raise Skip("%s is not a kernel image" % files[0])
    return images


def defined_in(images):
    return lambda name: any(image.addr(name) is not None for image in images)


def choose_flavor(requested, arch, image):
    """ARCH-retpoline or ARCH-eibrs.  auto: x86 images always have the
    thunks (eIBRS CPUs get them patched away at boot); a UML image is
    retpoline if its hook entry holds an inline retpoline's lfence."""
    if requested == "auto":
        if arch == "x86":
            return "x86-retpoline"
        if any("lfence" in line for line in image.disassembly(r"^nf_hook_slow$")):
            return "uml-retpoline"
        return "uml-eibrs"
    if requested in ("retpoline", "eibrs"):
        return "%s-%s" % (arch, requested)
    raise Usage()


def check(images, flavor_env, todo, verbose, out):
    """The whole report of IMAGES; the exit status."""
    defined = defined_in(images)
    if not defined("nf_hook_slow"):
        raise Skip("no nf_hook_slow in %s" % images[0].path)
    if not defined("nft_dynset_eval"):
        raise Skip("no nft_dynset_eval: nf_tables is a module? give its nf_tables.ko after %s"
                   % images[0].path)
    arch = "uml" if defined("linux_main") else "x86"
    flavor = choose_flavor(flavor_env, arch, images[0])
    tap = Tap(out, todo)
    tap.line("# image: %s (%s)" % (images[0].path, flavor))
    for image in images[1:]:
        tap.line("# module: %s" % image.path)
    for site in series_sites(arch, defined):
        check_site(tap, images, site, flavor, verbose)
    return tap.end()


def main(argv, environ=None, out=None):
    environ = os.environ if environ is None else environ
    out = out or sys.stdout
    try:
        verbose, todo, files = parse_args(argv)
        tools = Tools.from_env(environ)
        for tool in tools:
            if shutil.which(tool) is None:
                raise Skip("%s not found" % tool)
        images = load_images(files, tools)
        return check(images, environ.get("FLAVOR") or "auto", todo, verbose, out)
    except Usage:
        print(USAGE, file=sys.stderr)
        return KSFT_SKIP
    except Skip as e:
        out.write("1..0 # SKIP %s\n" % e)
        return KSFT_SKIP
