#!/usr/bin/env python3
"""Tables of this folder's rows: call times (us) of each label, rounds side by side, and the
ratio to run_to_run in the same command (s24e) or round (s24c, s24d)."""
import json
import re
from collections import defaultdict


def rows(f):
    return [json.loads(l) for l in open(f)]


def sweep(f):
    t = defaultdict(list)
    for r in rows(f):
        label = re.sub(r"_r\d$", "", r["strategy"].split(":")[0])
        t[(r["type"], r["n"], label)].append(r["call_us"])
    rtr = {k[:2]: min(v) for k, v in t.items() if k[2] == "rtr"}
    print(f"\n{f}: type n label: call us by round; slowest round / fastest run_to_run")
    for k in sorted(t):
        v = t[k]
        print(f"{k[0]} 2^{k[1].bit_length() - 1} {k[2]:5s} " + " ".join(f"{x:8.1f}" for x in v)
              + f"   {max(v) / rtr[k[:2]]:.3f}")


def same_command(f):
    base = {}
    out = []
    for r in rows(f):
        label = r["strategy"]
        rnd = label.split(":")[0]
        key = (r["type"], r["n"], rnd)
        if ":" not in label:
            base[key] = r["call_us"]
        else:
            out.append((key, r["call_us"]))
    print(f"\n{f}: any_device / run_to_run in the same command")
    for (t, n, rnd), us in out:
        print(f"{t} 2^{n.bit_length() - 1} {rnd} run_to_run {base[(t, n, rnd)]:8.1f} any_device {us:8.1f} "
              f"ratio {us / base[(t, n, rnd)]:.3f}")


sweep("s24c_sweep.jsonl")
sweep("s24d_random.jsonl")
same_command("s24e_default_unroll4.jsonl")
