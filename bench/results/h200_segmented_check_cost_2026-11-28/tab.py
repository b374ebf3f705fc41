"""Prints each script's table: per layout, CUB's GB/s per round, then each variant's GB/s per round
and, in brackets, the ratio of its median to CUB's median.  python3 tab.py [s27b s27d s27e s27f]"""
import collections
import json
import statistics
import os
import sys

VARIANTS = {"s27b": ["cur", "late", "late0"], "s27d": ["def", "r32"], "s27e": ["def", "nochk"],
            "s27f": ["def", "nolaunch", "noread"], "s27g": ["cur", "wf"], "s27h": ["wf", "cur"]}
LAYOUTS = ["uniform:16", "uniform:64", "uniform:256", "uniform:1024", "uniform:4096",
           "uniform:16384", "uniform:65536", "uniform:262144", "uniform:1048576", "powerlaw",
           "rows:256", "rows:4096", "rows:65536"]

os.chdir(os.path.dirname(os.path.abspath(__file__)))
for s in sys.argv[1:] or VARIANTS:
    runs, cub = collections.defaultdict(list), collections.defaultdict(list)
    for line in open(f"{s}_clrdx.jsonl"):
        j = json.loads(line)
        runs[(j["type"], j["op"], j["layout"], j["variant"])].append(j["GBps"])
    for line in open(f"{s}_cub.jsonl"):
        j = json.loads(line)
        if "layout" in j:
            cub[(j["type"], j["op"], j["layout"])].append(j["GBps"])
    ops = sorted({(k[0], k[1]) for k in runs}, key=lambda x: (x[1] != "sum", x[0]))
    print(f"## {s}\n")
    for t, op in ops:
        vs = VARIANTS[s]
        print(f"{t} {op}\n\n| layout | CUB | " + " | ".join(vs) + " |")
        print("| --- " * (len(vs) + 2) + "|")
        for lay in LAYOUTS:
            if not any((t, op, lay, v) in runs for v in vs):
                continue
            c = cub.get((t, op, lay), [])
            row = [lay, " ".join(f"{x:.0f}" for x in c) or "-"]
            for v in vs:
                x = runs.get((t, op, lay, v), [])
                ratio = f" ({statistics.median(x) / statistics.median(c):.3f})" if c and x else ""
                row.append(" ".join(f"{y:.0f}" for y in x) + ratio)
            print("| " + " | ".join(row) + " |")
        print()
