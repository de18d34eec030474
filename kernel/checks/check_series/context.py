# SPDX-License-Identifier: GPL-2.0
"""What every part of check-series needs, and the project's programs it
runs (their paths are "${NFTLAB_TOP}/PATH", as the shell wrote them)."""
from dataclasses import dataclass

from .host import DEVNULL, TO_STDOUT
from .products import Kernel

BUILD = "kernel/builder/build"
LAB_RUN = "kernel/runner/lab-run"
SMOKE = "tests/lab/guest-smoke.sh"


@dataclass
class Context:
    top: str          # the checkout (NFTLAB_TOP)
    base: str         # NFTLAB_BASE
    settings: object  # settings.Settings
    series: object    # series_file.Series
    host: object      # host.Host or host.DryHost
    tap: object       # lib/tap.py Tap
    libsh: object     # libsh.LibSh
    src: str          # the base tree (kernel/lib.sh base_src)
    branch: str       # its branch of the patched variant
    lab_branch: str   # and of the baseline variant (the lab patches)
    out: str          # build/check/series: every part's directory is below

    def tool(self, path):
        """The project's program PATH (relative to the checkout)."""
        return "%s/%s" % (self.top, path)

    def diag(self, text):
        """One TAP comment line (lib/tap.sh tap_diag: TEXT as it is)."""
        self.tap.line("# %s" % text)

    def result(self, desc, status):
        """One test line from an exit status (lib/tap.sh tap_result)."""
        self.tap.ok(status == 0, desc)

    def git(self, *args):
        """git -C SRC ARGS..."""
        return ["git", "-C", self.src] + list(args)

    def build(self, args):
        """(exit status, Kernel) of kernel/builder/build ARGS; a dry run
        takes the directory --print-path names (or the expression)."""
        def where():
            rc, path = self.host.query_output([self.tool(BUILD), "--print-path"] + args, stderr=DEVNULL)
            return path if rc == 0 else "$(%s %s)" % (BUILD, " ".join(args))
        rc, path = self.host.output([self.tool(BUILD)] + args, stand_in=where)
        return rc, Kernel(path, self.host.dry)

    def lab_run(self, kernel, results, timeout, cmd, before=(), after=(), dry_status=0):
        """The exit status of CMD in a guest of KERNEL (kernel/runner/lab-run
        BEFORE... --kernel --results --timeout AFTER... -- CMD), its
        console into RESULTS/console.log; DRY_STATUS in a dry run."""
        argv = ([self.tool(LAB_RUN)] + list(before) +
                ["--kernel", kernel.path, "--results", results, "--timeout", str(timeout)] +
                list(after) + ["--"] + list(cmd))
        return self.host.run(argv, stdout="%s/console.log" % results, stderr=TO_STDOUT, dry_status=dry_status)
