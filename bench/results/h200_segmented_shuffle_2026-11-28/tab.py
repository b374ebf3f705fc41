#!/usr/bin/env python3
"""Prints s26e's table: per operator, type and layout, CUB's GB/s, the local-memory tree's
(clrdx_s26b) and the shuffles' (clrdx_s26e) per round, and the ratios of the medians."""
import collections, json, os, statistics

here = os.path.dirname(os.path.abspath(__file__))
mine, cub = collections.defaultdict(list), collections.defaultdict(list)
for line in open(os.path.join(here, "s26e_clrdx.jsonl")):
    r = json.loads(line)
    mine[(r["op"], r["type"], r["layout"], r["variant"])].append(r)
for line in open(os.path.join(here, "s26e_cub.jsonl")):
    r = json.loads(line)
    if "layout" in r:
        cub[(r["op"], r["type"], r["layout"])].append(r["GBps"])
order = lambda k: (k[0], k[1], int(k[2].split(":")[1]) if ":" in k[2] else 1 << 30)
print("| op | type | layout | CUB GB/s | tree GB/s | shuffles GB/s | tree / CUB | shuffles / CUB | shuffles / tree |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
for k in sorted({k[:3] for k in mine}, key=order):
    t = [r["GBps"] for r in mine[k + ("s26b",)]]
    s = [r["GBps"] for r in mine[k + ("s26e",)]]
    assert all(r["checked"] for r in mine[k + ("s26b",)] + mine[k + ("s26e",)])
    mt, ms, mc = statistics.median(t), statistics.median(s), statistics.median(cub[k])
    f = lambda v: " ".join("%.0f" % x for x in v)
    print("| %s | %s | %s | %s | %s | %s | %.2f | %.2f | %.3f |" % (k + (f(cub[k]), f(t), f(s), mt / mc, ms / mc, ms / mt)))
