# SPDX-License-Identifier: GPL-2.0
"""python3 kernel/checks/direct_calls ARGS: the check-direct-calls program."""
import os
import signal
import sys

if not __package__:
    # run by its directory's path: the package is importable from its parent
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from direct_calls.cli import main  # noqa: E402

# a reader that stops early (| head) ends the program as it ends a shell tool
signal.signal(signal.SIGPIPE, signal.SIG_DFL)
sys.exit(main(sys.argv[1:]))
