# SPDX-License-Identifier: GPL-2.0
"""The JSON report of a guest program (--report FILE): written whatever
happened, so that a failed run still leaves its counts behind."""
import json


def write(path, report):
    """Writes REPORT to PATH as indented JSON; no PATH, no file."""
    if not path:
        return
    with open(path, "w") as f:
        json.dump(report, f, indent=1)
