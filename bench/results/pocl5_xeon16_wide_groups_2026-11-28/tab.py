"""The wide form's work-group size on the Xeon (s27a.jsonl): GB/s per round for the native loop
and each size, and each size's median over the native loop's median.  python3 tab.py"""
import collections
import json
import os
import statistics

os.chdir(os.path.dirname(os.path.abspath(__file__)))
runs = collections.defaultdict(list)
for line in open("s27a.jsonl"):
    j = json.loads(line)
    runs[(j["type"], j["op"], j["layout"], j["label"])].append(j["GBps"])
labels = ["native", "wg16", "wg32", "wg64", "wg128"]
for t, op in [("f32", "sum"), ("i32", "sum"), ("f32", "max")]:
    print(f"{t} {op}\n\n| layout | " + " | ".join(labels) + " |\n" + "| --- " * 6 + "|")
    for lay in ["uniform:512", "uniform:1024", "uniform:4096", "uniform:16384", "uniform:65536",
                "powerlaw"]:
        nat = runs.get((t, op, lay, "native"), [])
        row = [lay]
        for lab in labels:
            x = runs.get((t, op, lay, lab), [])
            ratio = (f" ({statistics.median(x) / statistics.median(nat):.2f})"
                     if nat and x and lab != "native" else "")
            row.append((" ".join(f"{y:.0f}" for y in x) or "-") + ratio)
        print("| " + " | ".join(row) + " |")
    print()
