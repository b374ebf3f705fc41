"""Medians of the rounds in a bin.jsonl of this folder's scripts: per type, n and label, any_device
over run_to_run per round, and both levels' call times (us)."""
import collections
import json
import statistics
import sys

d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    r = json.loads(line)
    level = "any_device" if r["strategy"].endswith(":any_device") else "run_to_run"
    d[(r["label"], r["type"], r["n"], level, r["round"])].append(r)
rounds = sorted({k[4] for k in d})
for t, n, label in sorted({(k[1], k[2], k[0]) for k in d}):
    a = [d[(label, t, n, "any_device", r)][0]["call_us"] for r in rounds]
    b = [d[(label, t, n, "run_to_run", r)][0]["call_us"] for r in rounds]
    ratio = [x / y for x, y in zip(a, b)]
    print(t, n, label, "any/rtr", ["%.2f" % x for x in ratio], "median %.2f" % statistics.median(ratio),
          "| any us", ["%.0f" % x for x in a], "median %.0f" % statistics.median(a),
          "| rtr us", ["%.0f" % x for x in b], "median %.0f" % statistics.median(b))
