#!/usr/bin/env python3
"""Pair `clrdx bench --json` rows of one strategy with yardstick rows by (op, type, n) and print
the ratios against issue 4's targets, as a Markdown table.

Usage: compare_yardsticks.py CLRDX.jsonl YARDSTICK.jsonl [STRATEGY=auto]
  A key (op, type, n) seen R times on both sides (R alternating rounds) is judged on the median
  per-call times; the k-th rows of each side form round k, and the range of the per-round ratios
  is printed beside the median.
  GPU (yardstick impl "cub"): target: auto's per-call time <= CUB's; also device-only GB/s.
  CPU (impl "native-omp"): target: auto's throughput >= 0.8x the native loop at 2^24..2^28.
  Any device, n <= 2^16: auto's per-call time <= 1.2x the empty-kernel round trip.
"""
import collections
import json
import statistics
import sys


def rows(path):
    with open(path) as f:
        return [json.loads(l) for l in f if l.strip().startswith("{")]


def group(rs):
    by = collections.defaultdict(list)
    for r in rs:
        by[(r["op"], r["type"], r["n"])].append(r)
    return by


def median_row(rs):
    """The row with the median per-call time (the lower middle one for an even count)."""
    s = sorted(rs, key=lambda r: r["call_us"])
    return s[(len(s) - 1) // 2]


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    strategy = sys.argv[3] if len(sys.argv) > 3 else "auto"
    ours_all = group(r for r in rows(sys.argv[1]) if r.get("strategy") == strategy)
    yard_all = group(r for r in rows(sys.argv[2]) if "impl" in r)
    ours = {k: median_row(v) for k, v in ours_all.items()}
    yard = {k: median_row(v) for k, v in yard_all.items()}
    rounds = max(len(v) for v in ours_all.values()) if ours_all else 0
    print("| op | type | n | yardstick call | %s call | yardstick / %s | %s dev GB/s | round trip | target | met |"
          % (strategy, strategy, strategy))
    print("|---|---|---|---|---|---|---|---|---|---|")
    met_all = True
    for key in sorted(ours, key=lambda k: (k[0], k[1], k[2])):
        o = ours[key]
        y = yard.get(key)
        op, typ, n = key
        checks = []
        if y:
            ratio = y["call_us"] / o["call_us"]
            per_round = [a["call_us"] / b["call_us"] for a, b in zip(yard_all[key], ours_all[key])]
            if y["impl"] == "cub":
                checks.append(("<= CUB", ratio >= 1.0))
            elif y["impl"].startswith("native") and 1 << 24 <= n <= 1 << 28:
                checks.append((">= 0.8x native", ratio >= 0.8))
        if n <= 1 << 16:
            checks.append(("<= 1.2x round trip", o["call_us"] <= 1.2 * o["roundtrip_us"]))
        met = all(ok for _, ok in checks)
        met_all &= met
        print("| %s | %s | 2^%d | %s | %.1f us | %s | %.0f | %.1f us | %s | %s |" % (
            op, typ, n.bit_length() - 1,
            "%.1f us (%s)" % (y["call_us"], y["impl"]) if y else "-", o["call_us"],
            ("%.3f" % ratio + (" (%.2f-%.2f)" % (min(per_round), max(per_round)) if len(per_round) > 1 else ""))
            if y else "-", o.get("dev_GBps", 0), o["roundtrip_us"],
            ", ".join(c for c, _ in checks) or "-", ("yes" if met else "**no**") if checks else "-"))
    print()
    if rounds > 1:
        print("median of %d alternating rounds per row; per-round ratio range in brackets" % rounds)
        print()
    print("all targets met" if met_all else "some targets NOT met")


if __name__ == "__main__":
    main()
