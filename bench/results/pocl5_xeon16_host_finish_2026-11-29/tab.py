#!/usr/bin/env python3
"""Prints the tables of docs/performance.md from this folder's data: python3 tab.py [s32a ...]."""
import json
import os
import statistics as st
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))


def rows(call, name):
    out = []
    for line in open(os.path.join(HERE, call, name)):
        r = json.loads(line)
        if not r["ok"]:
            sys.exit(f"{call}/{name}: a row was not checked ok: {line}")
        r["strategy"] = r["strategy"].split("#")[0]
        out.append(r)
    return out


def med(v):
    return st.median(v)


def ab(call, name, bins):
    """any_device against run_to_run for each binary: medians, their ratio, the rounds' range."""
    d = defaultdict(dict)
    for r in rows(call, name):
        d[(r["type"], r["n"], r["bin"], r["strategy"])][r["ab_round"]] = r["call_us"]
    print(f"\n{call}: median call (us), any_device / run_to_run (ratio of medians, rounds' range)")
    print("| type | n | " + " | ".join(f"{b}: run_to_run | {b}: any_device | {b}: ratio" for b in bins)
          + " | any_device saved (us) |")
    print("| --- | --- |" + " --- | --- | --- |" * len(bins) + " --- |")
    for t, n in sorted({(k[0], k[1]) for k in d}):
        cells, anys = [], []
        for b in bins:
            a, x = d[(t, n, b, "auto")], d[(t, n, b, "auto:any_device")]
            rs = [x[k] / a[k] for k in a]
            anys.append(med(x.values()))
            cells += [f"{med(a.values()):.0f}", f"{med(x.values()):.0f}",
                      f"{med(x.values()) / med(a.values()):.2f} ({min(rs):.2f}-{max(rs):.2f})"]
        print(f"| {t} | 2^{n.bit_length() - 1} | " + " | ".join(cells) + f" | {anys[0] - anys[1]:.0f} |")


def grid(call, per_cu):
    """Both levels against work-groups per compute unit: median call and, for any_device, the
    profiled partial."""
    d = defaultdict(dict)
    for r in rows(call, "grid.jsonl"):
        d[(r["type"], r["n"], r["strategy"])][r["ab_round"]] = (r["call_us"], r["dev_us"])
    print(f"\n{call}: median call (us) by work-groups a compute unit; any_device: call / kernel")
    print("| type | n | " + " | ".join(f"{g} a CU: run_to_run | {g}: any_device" for g in per_cu)
          + " | any_device rounds, against " + str(per_cu[0]) + " |")
    print("| --- | --- |" + " --- | --- |" * len(per_cu) + " --- |")
    for t, n in sorted({(k[0], k[1]) for k in d}):
        cells = []
        base = d[(t, n, f"auto/g{per_cu[0]}:any_device")]
        spans = []
        for g in per_cu:
            a, x = d[(t, n, f"auto/g{g}")], d[(t, n, f"auto/g{g}:any_device")]
            cells += [f"{med(v[0] for v in a.values()):.0f}",
                      f"{med(v[0] for v in x.values()):.0f} / {med(v[1] for v in x.values()):.0f}"]
            if g != per_cu[0]:
                rs = [x[k][0] / base[k][0] for k in base]
                spans.append(f"{g}: {min(rs):.2f}-{max(rs):.2f}")
        print(f"| {t} | 2^{n.bit_length() - 1} | " + " | ".join(cells) + " | " + ", ".join(spans) + " |")


TABLES = {
    "s32a": lambda: ab("s32a", "bin.jsonl", ["old", "new"]),
    "s32b": lambda: ab("s32b", "gpu.jsonl", ["old", "new"]),
    "s32c": lambda: grid("s32c", [1, 2, 4, 8]),
    "s32d": lambda: ab("s32d", "bin.jsonl", ["old", "new2"]),
    "s32e": lambda: grid("s32e", [8, 16, 32]),
    "s32f": lambda: ab("s32f", "bin.jsonl", ["old", "new3"]),
}

for call in sys.argv[1:] or TABLES:
    TABLES[call]()
