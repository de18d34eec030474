# SPDX-License-Identifier: GPL-2.0
"""python3 kernel/checks/check_series [--dry-run]: the check-series program
(kernel/checks/check-series runs it after sourcing kernel/lib.sh)."""
import os
import runpy
import signal
import sys

# run by its directory's path, the package is importable from its parent,
# kernel/checks/, which lib/bootstrap.py puts on sys.path with lib/ (tap)
runpy.run_path(os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..", "..", "lib", "bootstrap.py"))
from check_series.cli import main  # noqa: E402

# a reader that stops early (| head) ends the program as it ends a shell tool
signal.signal(signal.SIGPIPE, signal.SIG_DFL)
# the bytes of a console or a report pass as they are, whatever they are
sys.stdout.reconfigure(errors="surrogateescape")
sys.stderr.reconfigure(errors="surrogateescape")
try:
    sys.exit(main(sys.argv[1:]))
except KeyboardInterrupt:
    sys.exit(130)
