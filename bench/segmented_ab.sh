#!/usr/bin/env bash
# Two clrdx builds against each other and the native OpenMP segmented loop on a CPU (PoCL), in
# alternating rounds on one machine:
#   CLRDX_BEFORE=old/clrdx CLRDX=new/clrdx bench/segmented_ab.sh [log2_n=26] [rounds=3]
# f32 sum, i32 sum, f32 max over uniform:4 .. 2^20, the power-law mix and rows:16 .. 2^20, and
# the exact form (f32 sum, --determinism exact) on five layouts. Writes native.jsonl, clrdx.jsonl
# (rows labelled clrdx_old / clrdx) and table.md into $RDX_BENCH_OUT (default build/bench_ab).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
lg=${1:-26}
rounds=${2:-3}
before=${CLRDX_BEFORE:?the build to compare against}
after=${CLRDX:-$root/build/tools/clrdx/clrdx}
yard=${RDX_YARDSTICKS:-$root/bench/yardsticks}
out=${RDX_BENCH_OUT:-$root/build/bench_ab}
mkdir -p "$out"
g++ -O3 -march=native -fopenmp -std=c++17 "$yard/native_cpu_segmented.cpp" -o "$out/native_seg"
L=$(python3 -c "print(','.join(['uniform:%d' % (1 << k) for k in range(2, 21, 2)] + ['powerlaw'] + ['rows:%d' % (1 << k) for k in range(4, 21, 4)]))")
: >"$out/native.jsonl"
: >"$out/clrdx.jsonl"
for ((r = 1; r <= rounds; ++r)); do
  "$out/native_seg" "$lg" | grep -v columns | sed "s/^{/{\"round\":$r,\"label\":\"native\",/" >>"$out/native.jsonl"
  for b in clrdx_old clrdx; do
    bin=$([ $b = clrdx_old ] && echo "$before" || echo "$after")
    for to in f32:sum i32:sum f32:max; do
      "$bin" bench --device cpu --type "${to%%:*}" --op "${to##*:}" --layouts "$L" \
        --sizes "$((1 << lg))" --repeat 10 --json "$out/part.jsonl" >/dev/null
      sed "s/^{/{\"round\":$r,\"label\":\"$b\",/" "$out/part.jsonl" >>"$out/clrdx.jsonl"
    done
    "$bin" bench --device cpu --type f32 --op sum --determinism exact \
      --layouts uniform:64,uniform:1024,uniform:65536,powerlaw,rows:256 --sizes "$((1 << lg))" \
      --repeat 5 --json "$out/part.jsonl" >/dev/null
    sed "s/^{/{\"round\":$r,\"label\":\"$b\",/" "$out/part.jsonl" >>"$out/clrdx.jsonl"
  done
done
rm -f "$out/part.jsonl"
python3 - "$out" <<'PY' | tee "$out/table.md"
import collections, json, statistics, sys
d = collections.defaultdict(list)
for f in ("native.jsonl", "clrdx.jsonl"):
    for line in open(sys.argv[1] + "/" + f):
        r = json.loads(line)
        if "layout" not in r:
            continue
        if not r.get("checked", True):
            sys.exit("a clrdx row did not match the host: %s" % line)
        lay = r["layout"] + (":" + r["determinism"] if r.get("determinism", "run_to_run") != "run_to_run" else "")
        d[(r["op"], r["type"], lay, r["label"])].append(r["GBps"])
def key(k):
    p = k[2].split(":")
    return (k[0], k[1], p[0], int(p[1]) if len(p) > 1 and p[1].isdigit() else 0, k[2])
fmt = lambda v: " ".join("%.0f" % x if x >= 20 else "%.1f" % x for x in v) if v else "-"
m = statistics.median
rat = lambda a, b: "%.2f" % (m(a) / m(b)) if a and b else "-"
print("| op | type | layout | native GB/s (rounds) | before GB/s | after GB/s | before / native | after / native | after / before |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
for k in sorted({k[:3] for k in d if k[3] != "native"}, key=key):
    n, o, w = d.get(k + ("native",)), d.get(k + ("clrdx_old",)), d.get(k + ("clrdx",))
    print("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (k + (fmt(n), fmt(o), fmt(w), rat(o, n), rat(w, n), rat(w, o))))
PY
