#!/usr/bin/env python3
"""Prints s33b's table (docs/performance.md, "Small calls against the work-group size"): auto's
call and kernel time at 2^10 and 2^12 for each work-group size and vector width (2 rounds each),
the empty launch + read, and CUB's calls before and after. python3 tab.py"""
import json
import os
import statistics as st
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
call, dev, trip = defaultdict(list), defaultdict(list), []
for line in open(os.path.join(HERE, "wg.jsonl")):
    r = json.loads(line)
    if not r["ok"]:
        sys.exit(f"a row was not checked ok: {line}")
    k = (r["type"], r["n"], r["wg"], r["strategy"].split("#")[0].split("/")[1])
    call[k].append(r["call_us"])
    dev[k].append(r["dev_us"])
    trip.append(r["roundtrip_us"])
print(f"empty launch + blocking 4-byte read (roundtrip_us): {min(trip):.1f}-{max(trip):.1f} us, "
      f"median {st.median(trip):.1f}")
print("| type | n | vector | " + " | ".join(f"wg {w}" for w in (32, 64, 128, 256, 512, 1024)) + " |")
print("| --- | --- | --- |" + " --- |" * 6)
for t in ("f32", "i32"):
    for n in (1024, 4096):
        for v in ("vw1", "vw4"):
            cells = []
            for w in (32, 64, 128, 256, 512, 1024):
                c, d = call[(t, n, w, v)], dev[(t, n, w, v)]
                cells.append("/".join(f"{x:.1f}" for x in c) + f" ({st.median(d):.1f})")
            print(f"| {t} | 2^{n.bit_length() - 1} | {v[2:]} | " + " | ".join(cells) + " |")
print("\nCUB (cub_reduce 12), call us (kernel us, CUDA events), before / after:")
for name in ("cub1.jsonl", "cub2.jsonl"):
    for line in open(os.path.join(HERE, name)):
        r = json.loads(line)
        if "impl" in r:
            print(f"  {name}: {r['type']} {r['op']} 2^{r['n'].bit_length() - 1}: "
                  f"{r['call_us']:.1f} ({r['dev_us']:.2f})")

# s33h: the plan's work-group size (256) against 64, with CUB in every round.
flat, cub = defaultdict(list), defaultdict(list)
for line in open(os.path.join(HERE, "s33h", "flat.jsonl")):
    r = json.loads(line)
    if not r["ok"]:
        sys.exit(f"s33h: a row was not checked ok: {line}")
    flat[(r["type"], r["op"], r["n"], r["wg"])].append(r["call_us"])
for line in open(os.path.join(HERE, "s33h", "cub.jsonl")):
    r = json.loads(line)
    if "impl" in r:
        cub[(r["type"], r["op"], r["n"])].append(r["call_us"])
print("\ns33h: call us, each round's row (median of 300 calls); CUB over auto (ratio of medians)")
print("| type op | n | wg 256 | wg 64 | CUB | CUB / wg 256 | CUB / wg 64 |")
print("| --- | --- | --- | --- | --- | --- | --- |")
for t, op in (("f32", "sum"), ("i32", "sum"), ("f64", "sum"), ("f32", "max")):
    for n in (1024, 4096, 16384, 65536, 262144):
        a, b, c = flat[(t, op, n, 256)], flat[(t, op, n, 64)], cub[(t, op, n)]
        fmt = lambda v: "/".join(f"{x:.1f}" for x in v)
        print(f"| {t} {op} | 2^{n.bit_length() - 1} | {fmt(a)} | {fmt(b)} | {fmt(c)} | "
              f"{st.median(c) / st.median(a):.3f} | {st.median(c) / st.median(b):.3f} |")

# s33k: bench/probe_group_cost with the flags finish, 3 runs.
print("\ns33k: probe_group_cost, median call (us) of each run; every result checked")
runs = [json.load(open(os.path.join(HERE, "s33k", f"run{k}.json")))["rows"] for k in (1, 2, 3)]
cols = ("empty_us", "partial_us", "counter_us", "twokern_us", "flags_us")
print("| groups | " + " | ".join(c[:-3] for c in cols) + " |")
print("| --- |" + " --- |" * len(cols))
for i, row in enumerate(runs[0]):
    for run in runs:
        if not (run[i]["counter_ok"] and run[i]["twokern_ok"] and run[i]["flags_ok"]):
            sys.exit(f"s33k: a wrong result at {row['groups']} groups")
    print(f"| {row['groups']} | " +
          " | ".join("/".join(f"{run[i][c]:.1f}" for run in runs) for c in cols) + " |")
