# SPDX-License-Identifier: GPL-2.0
"""Small text files in and out (plans, reports, key=value files, JSON)."""
import json
import os


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def read_kv(path, sep="="):
    """{key: value} of a file of KEY<sep>VALUE lines ({} if absent)."""
    out = {}
    if os.path.isfile(path):
        for line in open(path):
            if sep in line:
                k, v = line.rstrip("\n").split(sep, 1)
                out[k] = v
    return out


def read_json(path):
    """The JSON content of PATH, None if absent."""
    if not os.path.isfile(path):
        return None
    with open(path) as f:
        return json.load(f)


def cpu_model():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"
