#!/usr/bin/env python3
"""clrdx's axis reductions against NumPy's on the same array, in one run on one machine.

  bench/bench_numpy_axis.py [--clrdx PATH] [--device cpu] [--log2 26] [--rounds 3] [--out DIR]

An (n / W) x W row-major array (element i = i % 7, n = 2^log2) reduced along axis 1 (rows:W) and
axis 0 (columns:W), W = 16, 256, 4096, 65536, 2^20; f32 sum, i32 sum (NumPy with dtype=int32, as
clrdx accumulates) and f32 max. NumPy: the median of `--repeat` calls of a.sum(axis=K) after a
warm-up, results into a new host array. clrdx: `clrdx bench --layouts rows:W,columns:W`, the input
already in a device buffer (host memory on a CPU device), results left in a device buffer. The
rounds alternate NumPy and clrdx; the table pairs the medians of the rounds. Needs numpy
(Debian: python3-numpy). Writes numpy.jsonl, clrdx.jsonl and numpy_axis.md into DIR (default
build/bench).
"""
import argparse
import collections
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np

CASES = [("f32", "sum"), ("i32", "sum"), ("f32", "max")]
WIDTHS = [1 << k for k in (4, 8, 12, 16, 20)]


def numpy_round(n, repeat):
    rows = []
    for type_, op in CASES:
        dtype = np.float32 if type_ == "f32" else np.int32
        a = (np.arange(n, dtype=np.int64) % 7).astype(dtype)
        for w in WIDTHS:
            m = a.reshape(n // w, w)
            for kind, axis in (("rows", 1), ("columns", 0)):
                if op == "sum":
                    call = lambda: m.sum(axis=axis, dtype=dtype)
                else:
                    call = lambda: m.max(axis=axis)
                call()
                times = []
                for _ in range(repeat):
                    t = time.perf_counter()
                    call()
                    times.append(time.perf_counter() - t)
                s = statistics.median(times)
                rows.append({"impl": "numpy", "op": op, "type": type_,
                             "layout": "%s:%d" % (kind, w), "n": n,
                             "call_us": s * 1e6, "GBps": a.nbytes / s / 1e9})
    return rows


def clrdx_round(clrdx, device, n, repeat, part):
    layouts = ",".join("%s:%d" % (k, w) for w in WIDTHS for k in ("rows", "columns"))
    rows = []
    for type_, op in CASES:
        subprocess.run([clrdx, "bench", "--device", device, "--type", type_, "--op", op,
                        "--layouts", layouts, "--sizes", str(n), "--repeat", str(repeat),
                        "--json", part], check=True, stdout=subprocess.DEVNULL)
        with open(part) as f:
            rows += [json.loads(line) for line in f]
    return rows


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clrdx", default=os.path.join(root, "build/tools/clrdx/clrdx"))
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--log2", type=int, default=26)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=10)
    ap.add_argument("--out", default=os.path.join(root, "build/bench"))
    a = ap.parse_args()
    n = 1 << a.log2
    os.makedirs(a.out, exist_ok=True)
    mine, theirs = [], []
    for r in range(a.rounds):
        print("round %d of %d" % (r + 1, a.rounds), file=sys.stderr)
        theirs += numpy_round(n, a.repeat)
        mine += clrdx_round(a.clrdx, a.device, n, a.repeat, os.path.join(a.out, "part.jsonl"))
    for name, rows in (("numpy.jsonl", theirs), ("clrdx.jsonl", mine)):
        with open(os.path.join(a.out, name), "w") as f:
            f.writelines(json.dumps(r) + "\n" for r in rows)

    def by_key(rows):
        d = collections.defaultdict(list)
        for r in rows:
            d[(r["op"], r["type"], r["layout"])].append(r)
        return d

    m, t = by_key(mine), by_key(theirs)
    device = mine[0].get("device", a.device) if mine else a.device
    lines = ["clrdx on %s against NumPy %s, n = 2^%d, %d rounds" % (device, np.__version__,
                                                                     a.log2, a.rounds), "",
             "| op | type | layout | clrdx GB/s (rounds) | NumPy GB/s (rounds) | ratio of medians |",
             "| --- | --- | --- | --- | --- | --- |"]
    for key in sorted(t, key=lambda k: (k[0], k[1], k[2].split(":")[0], int(k[2].split(":")[1]))):
        g = [r["GBps"] for r in m.get(key, [])]
        ok = all(r.get("checked", False) for r in m.get(key, []))
        y = [r["GBps"] for r in t[key]]
        ratio = "%.2f" % (statistics.median(g) / statistics.median(y)) if g else "-"
        lines.append("| %s | %s | %s | %s%s | %s | %s |" % (
            key[0], key[1], key[2], " ".join("%.1f" % v for v in g) or "-",
            "" if ok else " WRONG", " ".join("%.1f" % v for v in y), ratio))
    text = "\n".join(lines) + "\n"
    with open(os.path.join(a.out, "numpy_axis.md"), "w") as f:
        f.write(text)
    sys.stdout.write(text)
    return 0 if all(r.get("checked", False) for r in mine) else 1


if __name__ == "__main__":
    sys.exit(main())
