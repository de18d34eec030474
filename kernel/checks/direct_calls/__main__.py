# SPDX-License-Identifier: GPL-2.0
"""python3 kernel/checks/direct_calls ARGS: the check-direct-calls program."""
import os
import runpy
import signal
import sys

# run by its directory's path, the package is importable from its parent,
# kernel/checks/, which lib/bootstrap.py puts on sys.path with lib/ (tap)
runpy.run_path(os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..", "..", "lib", "bootstrap.py"))
from direct_calls.cli import main  # noqa: E402

# a reader that stops early (| head) ends the program as it ends a shell tool
signal.signal(signal.SIGPIPE, signal.SIG_DFL)
sys.exit(main(sys.argv[1:]))
