# SPDX-License-Identifier: GPL-2.0
"""Questions to kernel/lib.sh, the one owner of the kernel/ scripts'
paths, the base, the cache layout and the toolchains' make variables
(README: "ask it, never recompute").  Each question sources lib.sh in a
bash of its own, under the environment check-series runs in, and calls
one of its functions; the function's messages go to our stderr."""
import os
import subprocess

# set -uo pipefail: the options check-series ran lib.sh's functions under
SCRIPT = 'set -uo pipefail; . "$0" && "$@"'


class LibSh:
    def __init__(self, top):
        self.path = os.path.join(top, "kernel", "lib.sh")

    def call(self, func, *args):
        """(exit status, stdout without its trailing newlines) of the
        lib.sh function FUNC ARGS, as $(FUNC ARGS) gives it."""
        r = subprocess.run(["bash", "-c", SCRIPT, self.path, func] + list(args),
                           stdout=subprocess.PIPE)
        return r.returncode, r.stdout.decode("utf-8", "surrogateescape").rstrip("\n")

    def text(self, func, *args):
        """The output of FUNC ARGS, whatever its status (a function that
        dies inside $(...) leaves what it printed, and the caller goes on)."""
        return self.call(func, *args)[1]

    def value(self, name):
        """The value lib.sh gives the variable NAME (NFTLAB_JOBS, ...)."""
        return self.text("eval", 'printf "%s\\n" "${' + name + '}"')
