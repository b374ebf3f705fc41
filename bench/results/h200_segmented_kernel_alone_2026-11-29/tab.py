#!/usr/bin/env python3
"""Prints the tables of docs/performance.md ("H200: seg_reduce's kernel alone under Nsight
Compute") from this folder: python3 tab.py"""
import json
import os
import re
import statistics as st
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))


def path(*p):
    return os.path.join(HERE, *p)


def ncu(f):
    """The metrics the docs quote from one Nsight Compute report."""
    want = {"Duration": "us", "DRAM Throughput": "%", "Registers Per Thread": "",
            "Theoretical Occupancy": "%", "Achieved Occupancy": "%", "Block Limit Registers": ""}
    got = {}
    for line in open(f):
        for k in want:
            m = re.match(rf"\s+{re.escape(k)}\s+\S*\s+([\d.,]+)$", line)
            if m and k not in got:
                got[k] = m.group(1).replace(",", "")
    return got


print("Nsight Compute, f32 sum of 2^28 elements by offsets, one launch each")
print("| kernel | segments of | duration (us) | DRAM throughput % | registers | groups a SM "
      "(registers) | achieved occupancy % |")
print("| --- | --- | --- | --- | --- | --- | --- |")
for name, f in (("seg_reduce", "s33c_call5/ncu_seg_4096.txt"),
                ("CUB", "s33c_call3/ncu_cub_4096.txt"),
                ("seg_reduce", "s33c_call5/ncu_seg_16384.txt"),
                ("CUB", "s33c_call3/ncu_cub_16384.txt"),
                ("seg_reduce, .maxnreg 40", "s33e_call8/ncu_4096_cap40.txt"),
                ("seg_reduce, .maxnreg 32", "s33e_call8/ncu_4096_cap32.txt")):
    g = ncu(path(f))
    L = "16384" if "16384" in f else "4096"
    print(f"| {name} | {L} | {g['Duration']} | {g['DRAM Throughput']} | "
          f"{g['Registers Per Thread']} | {g['Block Limit Registers']} | {g['Achieved Occupancy']} |")

print("\nseg_ptx_run (CUDA events around each launch, median of 30), s33e's eighth call:")
d = defaultdict(list)
for line in open(path("s33e_call8", "runs.jsonl")):
    r = json.loads(line)
    if r["wrong"]:
        sys.exit(f"s33e: wrong results: {line}")
    d[(r["L"], r["cap"], r["regs"], r["local_bytes"])].append(r["median_us"])
print("| segments of | cap | registers | local memory (bytes) | rounds (us) | median |")
print("| --- | --- | --- | --- | --- | --- |")
for k in sorted(d):
    print(f"| {k[0]} | {k[1] or 'none'} | {k[2]} | {k[3]} | "
          + "/".join(f"{x:.1f}" for x in d[k]) + f" | {st.median(d[k]):.1f} |")


def ab(f, builds, layouts, ops):
    g = defaultdict(list)
    for line in open(path(f)):
        r = json.loads(line)
        if not r["checked"]:
            sys.exit(f"{f}: a row was not checked: {line}")
        g[(r["type"], r["op"], r["layout"], r["build"])].append(r["GBps"])
    print(f"\n{f}: GB/s, medians of the rounds; ratio to old")
    print("| op | layout | " + " | ".join(builds) + " | " +
          " | ".join(f"{b} / old" for b in builds[1:]) + " |")
    print("| --- | --- |" + " --- |" * (2 * len(builds) - 1))
    for t, op in ops:
        for L in layouts:
            m = [st.median(g[(t, op, L, b)]) for b in builds]
            print(f"| {t} {op} | {L} | " + " | ".join(f"{x:.0f}" for x in m) + " | " +
                  " | ".join(f"{x / m[0]:.3f}" for x in m[1:]) + " |")


ab("s33f/seg.jsonl", ["old", "new"],
   ["uniform:4096", "uniform:8192", "uniform:12288", "uniform:16384", "powerlaw", "rows:4096",
    "rows:8192"], [("f32", "sum"), ("i32", "sum"), ("f32", "max")])
ab("s33g/seg.jsonl", ["old", "noreqd", "new"], ["uniform:4096", "uniform:8192", "powerlaw"],
   [("f32", "sum")])

print("\ns33i: positions in 32 bits (p32) and also restrict (p32nc) against HEAD's kernel (cur)")
d = defaultdict(list)
for line in open(path("s33i", "runs.jsonl")):
    r = json.loads(line)
    if r["wrong"]:
        sys.exit(f"s33i: wrong results: {line}")
    d[(r["L"], r["variant"], r["regs"])].append(r["median_us"])
print("| segments of | kernel | registers | alone, rounds (us) | median |")
print("| --- | --- | --- | --- | --- |")
for k in sorted(d):
    print(f"| {k[0]} | {k[1]} | {k[2]} | " + "/".join(f"{x:.1f}" for x in d[k]) +
          f" | {st.median(d[k]):.1f} |")
ab_variants = defaultdict(list)
for line in open(path("s33i", "seg.jsonl")):
    r = json.loads(line)
    if not r["checked"]:
        sys.exit(f"s33i: a row was not checked: {line}")
    ab_variants[(r["layout"], r["variant"])].append(r["GBps"])
print("| layout (through clrdx, GB/s) | cur | p32 | p32nc | p32 / cur | p32nc / cur |")
print("| --- | --- | --- | --- | --- | --- |")
for L in ("uniform:4096", "uniform:16384", "powerlaw"):
    m = [st.median(ab_variants[(L, v)]) for v in ("cur", "p32", "p32nc")]
    print(f"| {L} | {m[0]:.0f} | {m[1]:.0f} | {m[2]:.0f} | {m[1] / m[0]:.3f} | {m[2] / m[0]:.3f} |")
