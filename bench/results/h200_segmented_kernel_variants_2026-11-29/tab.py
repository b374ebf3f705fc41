"""Prints each script's table: per type, operator and layout, CUB's GB/s per round, each variant's
GB/s per round and, in brackets, the ratio of its median to CUB's; last, the last variant's median
over the first's.  python3 tab.py [s29a s29c s29d s29e s29f]"""
import collections
import json
import os
import statistics as st
import sys

VARIANTS = {"s29a": ["def", "p4", "p6", "p8", "p16"], "s29c": ["cur", "nc"], "s29d": ["cur", "p32"],
            "s29e": ["s29", "s29k"], "s29f": ["def", "v1u16"]}
LAYOUTS = ["uniform:256", "uniform:1024", "uniform:4096", "uniform:16384", "uniform:65536",
           "uniform:262144", "uniform:1048576", "powerlaw", "rows:4096"]

os.chdir(os.path.dirname(os.path.abspath(__file__)))
for s in sys.argv[1:] or VARIANTS:
    vs = VARIANTS[s]
    runs, cub = collections.defaultdict(list), collections.defaultdict(list)
    for line in open(f"{s}_clrdx.jsonl"):
        j = json.loads(line)
        assert j.get("ok", True), line
        runs[(j["type"], j["op"], j["layout"], j["variant"])].append(j["GBps"])
    for line in open(f"{s}_cub.jsonl"):
        j = json.loads(line)
        if "layout" in j:
            cub[(j["type"], j["op"], j["layout"])].append(j["GBps"])
    print(f"## {s}\n")
    for t, op in [("f32", "sum"), ("i32", "sum"), ("f32", "max")]:
        if not any(k[:2] == (t, op) for k in runs):
            continue
        print(f"{t} {op}\n\n| layout | CUB | " + " | ".join(vs) + f" | {vs[-1]} / {vs[0]} |")
        print("| --- " * (len(vs) + 3) + "|")
        for lay in LAYOUTS:
            if not runs.get((t, op, lay, vs[0])):
                continue
            c = cub.get((t, op, lay), [])
            row = [lay, " ".join(f"{x:.0f}" for x in c) or "-"]
            for v in vs:
                x = runs[(t, op, lay, v)]
                ratio = f" ({st.median(x) / st.median(c):.3f})" if c else ""
                row.append(" ".join(f"{y:.0f}" for y in x) + ratio)
            a, b = runs[(t, op, lay, vs[0])], runs[(t, op, lay, vs[-1])]
            row.append(f"{st.median(b) / st.median(a):.3f}")
            print("| " + " | ".join(row) + " |")
        print()
