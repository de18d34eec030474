#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""check-report.py RESULTS add|remove: TAP checks of a `make t0 BASE=7.3
PATCH=...` run of one of the worked example's samples (tests/t0-patch/):
per packet of the drop and hash cells, one retpoline thunk more (add) or
fewer (remove) with spectre_v2=retpoline, and one plain indirect call
more or fewer with =off, per call of the function the sample changed
(nft_do_chain(), nft_objref_eval()); that function's code changed
(t0/code.json) and the report's attribution names it (t0/patch.md), and
the chart is there."""
import json
import os
import runpy
import sys
from fractions import Fraction

runpy.run_path(os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..", "lib", "bootstrap.py"))
from tap import Tap, done  # noqa: E402

SAMPLES = {"add": ("nft_do_chain", 1), "remove": ("nft_objref_eval", -1)}
CELLS = ("T0/net_port/drop/n0/k-", "T0/net_port/hash/n1/k-")


def main(results, sample):
    func, sign = SAMPLES[sample]
    t0dir = os.path.join(results, "t0")
    tap = Tap()
    with open(os.path.join(t0dir, "t0.json")) as f:
        t0 = json.load(f)
    rows = {(r["cell"], r["mitigation"], r["variant"]): r for r in t0["rows"]}
    for cell in CELLS:
        for mitigation, key in (("retpoline", "indirect_thunks"), ("off", "indirect_other")):
            a, b = rows.get((cell, mitigation, "baseline")), rows.get((cell, mitigation, "patched"))
            if not (a and b):
                tap.ok(False, "%s %s: counted in both kernels" % (cell, mitigation))
                continue
            calls = Fraction(a["calls"].get(func, "0"))
            got = Fraction(b[key]) - Fraction(a[key])
            tap.ok(calls > 0 and got == sign * calls,
                   "%s spectre_v2=%s: %s %+d per call of %s() (%s per packet)"
                   % (cell, mitigation, key, sign, func, calls),
                   "before %s, after %s, %s calls per packet" % (a[key], b[key], calls))
    with open(os.path.join(t0dir, "code.json")) as f:
        code = json.load(f)
    before, after = (code.get(v, {}).get("functions", {}).get(func) for v in ("baseline", "patched"))
    tap.ok(before and after and before != after, "%s()'s code differs between the kernels (code.json)" % func)
    with open(os.path.join(t0dir, "patch.md")) as f:
        report = f.read()
    lines = [ln for ln in report.splitlines() if ln.strip().startswith(func + " ") and ln.rstrip().endswith("changed")]
    tap.ok(bool(lines), "the report's attribution names %s() as changed" % func, report[-1500:])
    tap.ok(os.path.isfile(os.path.join(t0dir, "t0-categories.svg")), "the chart t0/t0-categories.svg is there")
    return done(tap)


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[2] not in SAMPLES:
        sys.exit("usage: check-report.py RESULTS add|remove")
    sys.exit(main(sys.argv[1], sys.argv[2]))
