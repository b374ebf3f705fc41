#!/usr/bin/env python3
"""Prints s33a's table (docs/performance.md, "The fixed-bin partial without local memory"):
any_device and run_to_run, committed (old) and without local memory or barriers at a work-group
size of 1 (new), medians of 4 rounds. python3 tab.py"""
import json
import os
import statistics as st
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
call, dev = defaultdict(list), defaultdict(list)
for line in open(os.path.join(HERE, "ab.jsonl")):
    r = json.loads(line)
    if not r["ok"]:
        sys.exit(f"a row was not checked ok: {line}")
    k = (r["type"], r["n"], r["build"], r["strategy"])
    call[k].append(r["call_us"])
    dev[k].append(r["dev_us"])
print("| type | n | build | run_to_run call (us) | any_device call | any_device kernel | "
      "any_device / run_to_run | new / old (any_device call) |")
print("| --- | --- | --- | --- | --- | --- | --- | --- |")
for t, n in sorted({(k[0], k[1]) for k in call}):
    for b in ("old", "new"):
        rtr = st.median(call[(t, n, b, "auto")])
        any_ = st.median(call[(t, n, b, "auto:any_device")])
        kern = st.median(dev[(t, n, b, "auto:any_device")])
        vs = any_ / st.median(call[(t, n, "old", "auto:any_device")])
        print(f"| {t} | 2^{n.bit_length() - 1} | {b} | {rtr:.1f} | {any_:.1f} | {kern:.1f} | "
              f"{any_ / rtr:.2f} | {vs:.3f} |")
