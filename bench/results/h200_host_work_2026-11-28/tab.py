#!/usr/bin/env python3
"""Medians of the alternating rounds of s28a.sh / s28b.sh: each variant's call time per size and
CUB's (same rounds), CUB over the variant. Usage: tab.py DIR (s28a or s28b)."""
import collections
import json
import statistics as st
import sys

d = sys.argv[1]
rows = [json.loads(l) for l in open(d + "/clrdx.jsonl")]
cub = [json.loads(l) for l in open(d + "/cub.jsonl")]
t = collections.defaultdict(list)
for r in rows:
    t[(r["type"], r["op"], r["n"], r["variant"])].append(r["call_us"])
c = collections.defaultdict(list)
for r in cub:
    if "type" in r:
        c[(r["type"], r["op"], r["n"])].append(r["call_us"])
variants = sorted({k[3] for k in t})
print("| type op | n | CUB | " + " | ".join(variants) + " |")
print("| --- | --- | --- |" + " --- |" * len(variants))
for (ty, op, n) in sorted({k[:3] for k in t}):
    cu = st.median(c[(ty, op, n)]) if c[(ty, op, n)] else None  # CUB has no argmax row
    cells = []
    for v in variants:
        x = st.median(t[(ty, op, n, v)])
        cells.append(f"{x:.1f}" + (f" ({cu / x:.2f})" if cu else ""))
    print(f"| {ty} {op} | {n} | {f'{cu:.1f}' if cu else '-'} | " + " | ".join(cells) + " |")
