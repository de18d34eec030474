# SPDX-License-Identifier: GPL-2.0
"""Plain-text rendering shared by the tables: aligned tables, summaries,
the report header (with the run's noise floor) and invalid samples."""
import datetime

from .stats import median


def render_table(header, rows):
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    sep = "-+-".join("-" * w for w in widths)

    def line(r):
        return " | ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip()
    return "\n".join([line(header), sep] + [line(r) for r in rows])


def fmt_num(v, nd=3):
    return "-" if v is None else ("%.*f" % (nd, v))


def fmt_summary(sm, nd=3, scale=1.0):
    if sm is None:
        return "-"
    m = sm["median"] * scale
    if sm["ci"]:
        return "%.*f [%.*f,%.*f]" % (nd, m, nd, sm["ci"][0] * scale, nd, sm["ci"][1] * scale)
    return "%.*f (n=%d, no CI)" % (nd, m, sm["n"])


def cell_text(st, sm, nd=3, scale=1.0):
    if st != "ok":
        return st
    return fmt_summary(sm, nd, scale)


def paired(t, what="repetition"):
    """How a table T's paired costs pair their samples: per WHAT
    ("repetition"), or per boot under the boot-best estimator."""
    return "boot (the two bests of a boot)" if t.get("estimator") == "boot-best" else what


def samples_word(t):
    """What a table T's values are: samples, or the boots' bests."""
    return "boots' bests" if t.get("estimator") == "boot-best" else "samples"


def noise_lines(noise):
    """Header lines: a WARNING when the A/A pair differs, then the noise
    floor as observed."""
    if not noise:
        return []
    out = []
    if noise["aa_state"] == "fail":
        out.append("WARNING:     %s: this run's noise is larger than its confidence intervals say; "
                   "treat every verdict below as unproven" % noise["aa_text"])
    if "aa_rel" in noise:
        aa = "A/A pair %+.2f%% +/- %.2f%% (ns per lookup, 95%% CI)" % (noise["aa_rel"], noise["aa_rel_half"])
    else:
        aa = noise["aa_text"]
    if noise.get("cells"):
        spread = ("same-cell spread: coefficient of variation of ns/packet %smedian %.1f%%, 90th percentile "
                  "%.1f%%, max %.1f%% over %d cells"
                  % ("of the boots' bests " if noise.get("estimator") == "boot-best" else "",
                     noise["cv_median"], noise["cv_p90"], noise["cv_max"], noise["cells"]))
    else:
        spread = "same-cell spread: no cell has 2 %s" % ("boots with a valid sample"
                                                         if noise.get("estimator") == "boot-best"
                                                         else "valid samples")
    out.append("noise floor: %s; %s" % (aa, spread))
    return out


def boot_seconds(boots):
    """"; a guest ran N-M s" over BOOTS, from each guest's start and end
    records; "" when none has both."""
    secs = []
    for b in boots:
        g = b.get("guest") or {}
        try:
            t0, t1 = (datetime.datetime.strptime(g[k], "%Y-%m-%dT%H:%M:%SZ") for k in ("start", "end"))
        except (KeyError, TypeError, ValueError):
            continue
        secs.append(int((t1 - t0).total_seconds()))
    return "; a guest ran %d-%d s" % (min(secs), max(secs)) if secs else ""


def header_text(meta, boots, noise=None):
    warn = [ln for ln in noise_lines(noise) if ln.startswith("WARNING")]
    lines = warn + ["nftlab performance suite: nft_concat_range/bench (%s)" % meta.get("mode", "?"),
                    "date:        %s" % meta.get("date", "?")]
    if meta.get("measure_s") is not None:
        lines.append("duration:    %d min %02d s from the first boot to the report (kernel builds not included)%s"
                     % (divmod(meta["measure_s"], 60) + (boot_seconds(boots),)))
    lines += ["base:        %s" % (meta.get("base") or "unknown (no BUILD-INFO)"),
              "CPU:         %s (%s CPUs on the host; guests run on one)" % (meta.get("cpu", "?"), meta.get("nproc", "?"))]
    if meta.get("arch", "um") == "um":
        lines.append("target:      um (User-mode Linux lab kernels%s)"
                     % (", %s userspace, 1 vCPU" % meta["userspace"] if meta.get("userspace") else ""))
    else:
        lines.append("target:      %s under QEMU TCG: a functional run; its rates are emulation speed, "
                     "not performance figures" % meta["arch"])
    for role, k in sorted(meta.get("kernels", {}).items()):
        lines.append("kernel:      %-19s %s" % (role, k.get("status") if k.get("status") != "ok" else
                                                 "%s (commit %s)" % (k.get("dir", "?"), (k.get("commit") or "?")[:12])))
    series = {k.get("series") for k in meta.get("kernels", {}).values() if k.get("series") is not None}
    for s in sorted(series):
        lines.append("series:      %s" % (s or "(none: lab patches only)"))
    lines += ["repetitions: %s per cell (%s boots x %s interleaved repetitions per boot), %s s per sample" % (
        meta.get("reps_total"), meta.get("rounds"), meta.get("reps_per_boot"), meta.get("duration")),
        "confidence:  95% (medians with order-statistics CIs; A/B verdicts by ministat, Student's t)"]
    if meta.get("estimator") == "boot-best":
        lines.append("estimator:   each boot's fastest sample of a cell (the best of its repetitions in the boot): "
                     "medians, CIs and verdicts are over the boots, per-lookup costs pair the bests of a boot")
    lines += [
        "packets:     pktgen xmit_mode netif_receive on a dummy device, netdev ingress chain, burst %s"
        % meta.get("burst", "?"),
        "knob:        %s" % meta.get("knob", "?")]
    loads = meta.get("load_during", [])
    if loads:
        lines.append("host load:   %s" % "; ".join(loads))
    steal = meta.get("steal")
    if steal:
        worst = max(steal, key=steal.get)
        lines.append("host steal:  %.1f%% of the host's CPU time went to other guests during the boots (median; "
                     "max %.1f%% in %s)" % (median(list(steal.values())), steal[worst], worst))
    if meta.get("builds_running"):
        lines.append("WARNING:     kernel builds (cc1) were running during the measurement: timings are unreliable")
    inval = sum(1 for b in boots for s in b["samples"] if not s["valid"])
    total = sum(len(b["samples"]) for b in boots)
    lines.append("samples:     %d, of which %d invalid (counters did not match or pktgen failed)" % (total, inval))
    lines += [ln for ln in noise_lines(noise) if not ln.startswith("WARNING")]
    failed = [b for b in boots if b.get("status") not in (None, 0, "0")]
    for b in failed:
        lines.append("boot failed: %s (%s, exit %s)" % (b["dir"], b.get("role"), b.get("status")))
    return "\n".join(lines)


def invalid_details(boots, limit=20):
    out = []
    for b in boots:
        for s in b["samples"]:
            if not s["valid"]:
                out.append("  %s %s rep %s: %s (sofar %s counter %s)" % (b["role"], s["cell"], s["rep"], s["reason"],
                                                                       s["sofar"], s["counter"]))
    if len(out) > limit:
        out = out[:limit] + ["  ... %d more" % (len(out) - limit)]
    return out
