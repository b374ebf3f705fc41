#!/usr/bin/env python3
"""Prints levels.jsonl (s26b.sh's second part) as a table: per type and n, each level's call
time per round, and any_device / run_to_run and exact / run_to_run per round."""
import collections, json, os, re, sys

path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "levels.jsonl")
t = collections.defaultdict(dict)
for line in open(path):
    r = json.loads(line)
    m = re.search(r"#(\d+)$", r["strategy"])
    level = re.sub(r"#\d+$", "", r["strategy"]).split(":")[-1]
    level = "run_to_run" if level == "auto" else level
    t[(r["type"], r["n"])][(level, int(m.group(1)) if m else 1)] = r["call_us"]
print("| type | n | run_to_run (us) | any_device (us) | exact (us) | any_device / run_to_run | exact / run_to_run |")
print("| --- | --- | --- | --- | --- | --- | --- |")
for (ty, n), v in sorted(t.items()):
    rounds = sorted({k[1] for k in v})
    col = lambda lv: ", ".join("%.1f" % v[(lv, r)] for r in rounds)
    ratio = lambda lv: ", ".join("%.2f" % (v[(lv, r)] / v[("run_to_run", r)]) for r in rounds)
    print("| %s | 2^%d | %s | %s | %s | %s | %s |" % (ty, n.bit_length() - 1, col("run_to_run"),
          col("any_device"), col("exact"), ratio("any_device"), ratio("exact")))
