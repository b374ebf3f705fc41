#!/usr/bin/env python3
"""Prints the tables of docs/performance.md from this folder's calls (s35a, s35b, s35c, probe_r*).
Usage: python3 tab.py [probe|flat|seg|grid|large|cpu ...] (default: all)"""
import collections
import json
import statistics as st
import sys


def rows(path):
    return [json.loads(l) for l in open(path) if l.strip().startswith("{")]


def lg(n):
    return n.bit_length() - 1


def probe():
    print("## probe_host_write, 3 runs (us; -1: the watched words never changed)")
    runs = [json.load(open(f"probe_r{r}.json"))["rows"] for r in (1, 2, 3)]
    for i, first in enumerate(runs[0]):
        cells = [run[i] for run in runs]
        keys = [k for k in first if k.endswith("_us")]
        what = f"spin {first['steps']}" if first["kernel"] == "spin" else f"ticket {first['groups']}"
        print(what, " ".join(f"{k}={min(c[k] for c in cells):.1f}-{max(c[k] for c in cells):.1f}"
                              for k in keys), "ok" if all(c["ok"] for c in cells) else "NOT OK")


def flat():
    print("## s35a: flat auto against CUB (medians of 3 rounds; bench_vs_yardsticks.sh's table)")
    print(open("s35a/flat_ratios.md").read())


def seg():
    print("## s35a + s35b: segments against CUB, 3 rounds (medians of the call, CUB / clrdx)")
    r = rows("s35a/seg.jsonl") + rows("s35b/seg.jsonl")
    assert all(x.get("checked", True) for x in r)
    by = collections.defaultdict(list)
    for x in r:
        by[(x["impl"].startswith("cub"), x["type"], x["op"], x["layout"])].append(x["call_us"])
    print("| layout | f32 sum | i32 sum | f32 max |\n| --- | --- | --- | --- |")
    for layout in ["uniform:4096", "uniform:16384", "uniform:65536", "uniform:262144", "powerlaw",
                   "rows:4096"]:
        cells = []
        for t, o in [("f32", "sum"), ("i32", "sum"), ("f32", "max")]:
            mine = by[(False, t, o, layout)]
            cub = by[(True, t, o, "uniform:4096" if layout == "rows:4096" else layout)]
            cells.append(f"{st.median(cub) / st.median(mine):.3f} ({len(mine)} rounds)")
        print(f"| {layout} | " + " | ".join(cells) + " |")
    print("(rows:4096 against CUB's segments of 4096 by offsets)")


def grid_table(path, title):
    print(title)
    by = collections.defaultdict(list)
    for x in rows(path):
        assert x.get("ok", True)
        by[(x["type"], x["op"], x["n"], x.get("impl") or x["strategy"])].append(x["call_us"])
    for key in sorted({k[:3] for k in by}, key=lambda k: (k[0], k[1], k[2])):
        cells = {k[3]: v for k, v in by.items() if k[:3] == key}
        if "auto" not in cells:
            continue  # a size only CUB ran
        base = st.median(cells["auto"])
        line = "  ".join(f"{s} {st.median(v):.1f}" + (f" ({base / st.median(v):.3f})")
                         for s, v in sorted(cells.items()))
        print(f"{key[0]} {key[1]} 2^{lg(key[2])}: {line}")
    print("(call medians in us; in brackets auto's median over the row's: > 1 is faster than auto)")


def grid():
    grid_table("s35b/grid.jsonl", "## s35b: f32 sums over grids, 2 rounds")


def large():
    grid_table("s35c/grid.jsonl", "## s35c: the large grid against the default and CUB, 1 round")


def cpu():
    print("## s35b: f32 max of short segments on the Xeon (PoCL), 2^28, 3 rounds (GB/s medians)")
    by = collections.defaultdict(list)
    for x in rows("s35b/cpu.jsonl"):
        assert x.get("checked", True)
        who = "clrdx" if x["impl"] == "clrdx_segmented" else "native_" + x["op"]
        by[(who, x["layout"])].append(x["GBps"])
    print("| layout | native max | native max_nan | clrdx max | clrdx / native max | clrdx / max_nan |")
    print("| --- | --- | --- | --- | --- | --- |")
    for layout in ["uniform:64", "uniform:256", "uniform:1024"]:
        a, b, c = (st.median(by[(w, layout)]) for w in ("native_max", "native_max_nan", "clrdx"))
        print(f"| {layout} | {a:.1f} | {b:.1f} | {c:.1f} | {c / a:.2f} | {c / b:.2f} |")


if __name__ == "__main__":
    for name in sys.argv[1:] or ["probe", "flat", "seg", "grid", "large", "cpu"]:
        globals()[name]()
        print()
