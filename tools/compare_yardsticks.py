#!/usr/bin/env python3
"""Pair `clrdx bench --json` rows of one strategy with yardstick rows by (op, type, n) and print
the ratios against issue 4's targets, as a Markdown table.

Usage: compare_yardsticks.py CLRDX.jsonl YARDSTICK.jsonl [STRATEGY=auto]
  GPU (yardstick impl "cub"): target: auto's per-call time <= CUB's; also device-only GB/s.
  CPU (impl "native-omp"): target: auto's throughput >= 0.8x the native loop at 2^24..2^28.
  Any device, n <= 2^16: auto's per-call time <= 1.2x the empty-kernel round trip.
"""
import json
import sys


def rows(path):
    with open(path) as f:
        return [json.loads(l) for l in f if l.strip().startswith("{")]


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    strategy = sys.argv[3] if len(sys.argv) > 3 else "auto"
    ours = {(r["op"], r["type"], r["n"]): r for r in rows(sys.argv[1]) if r.get("strategy") == strategy}
    yard = {(r["op"], r["type"], r["n"]): r for r in rows(sys.argv[2]) if "impl" in r}
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
            "%.3f" % ratio if y else "-", o.get("dev_GBps", 0), o["roundtrip_us"],
            ", ".join(c for c, _ in checks) or "-", ("yes" if met else "**no**") if checks else "-"))
    print()
    print("all targets met" if met_all else "some targets NOT met")


if __name__ == "__main__":
    main()
