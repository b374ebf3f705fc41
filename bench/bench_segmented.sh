#!/usr/bin/env bash
# Segmented reductions against their yardstick (bench/yardsticks, or $RDX_YARDSTICKS) in one go on
# one machine, same contract and data (element i = i % 7, results kept where the reducer works):
#   bench/bench_segmented.sh gpu [log2_n=28]   NVIDIA OpenCL vs CUB's DeviceSegmentedReduce (nvcc)
#   bench/bench_segmented.sh cpu [log2_n=26]   PoCL vs the native OpenMP + SIMD segmented loop
# f32 sum, i32 sum and f32 max over the yardsticks' layouts (uniform:4 .. 2^20 by offsets, the
# power-law mix; on CPUs also columns:4 .. 2^20), plus clrdx's axis forms rows:W and columns:W.
# RDX_BENCH_ROUNDS=R (default 2) alternates the yardstick and clrdx R times; the table pairs the
# medians by (op, type, layout). Writes clrdx.jsonl, yardstick.jsonl and segmented.md into
# $RDX_BENCH_OUT (default build/bench).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
kind=${1:?cpu or gpu}
lg=${2:-$([ "$kind" = gpu ] && echo 28 || echo 26)}
yard=${RDX_YARDSTICKS:-$root/bench/yardsticks}
out=${RDX_BENCH_OUT:-$root/build/bench}
clrdx=${CLRDX:-${RDX_BUILD_DIR:-$root/build}/tools/clrdx/clrdx}
rounds=${RDX_BENCH_ROUNDS:-2}
mkdir -p "$out"
if [ "$kind" = gpu ]; then
  nvcc -O3 -std=c++17 -arch=sm_90 -I/usr/local/cuda/include/cccl "$yard/cub_segmented_reduce.cu" \
    -o "$out/segmented_yardstick"
else
  g++ -O3 -march=native -fopenmp -std=c++17 "$yard/native_cpu_segmented.cpp" \
    -o "$out/segmented_yardstick"
fi
layouts=$(python3 -c "
u = ['uniform:%d' % (1 << k) for k in range(2, 21, 2)] + ['powerlaw']
a = ['rows:%d' % (1 << k) for k in range(4, 21, 4)] + ['columns:%d' % (1 << k) for k in range(4 if '$kind' == 'gpu' else 2, 21, 2)]
print(','.join(u + a))")
: >"$out/yardstick.jsonl"
: >"$out/clrdx.jsonl"
for ((r = 1; r <= rounds; ++r)); do
  "$out/segmented_yardstick" "$lg" >>"$out/yardstick.jsonl"
  for to in f32:sum i32:sum f32:max; do
    "$clrdx" bench --device "$kind" --type "${to%%:*}" --op "${to##*:}" --layouts "$layouts" \
      --sizes "$((1 << lg))" --repeat 10 --json "$out/part.jsonl" >&2
    cat "$out/part.jsonl" >>"$out/clrdx.jsonl"
  done
done
python3 - "$out/clrdx.jsonl" "$out/yardstick.jsonl" <<'PY' | tee "$out/segmented.md"
import collections, json, statistics, sys
def rows(path):
    d = collections.defaultdict(list)
    for line in open(path):
        r = json.loads(line)
        if "layout" in r:
            d[(r["op"], r["type"], r["layout"])].append(r)
    return d
mine, yard = rows(sys.argv[1]), rows(sys.argv[2])
print("| op | type | layout | segments | clrdx GB/s (rounds) | yardstick GB/s (rounds) | ratio of medians |")
print("| --- | --- | --- | --- | --- | --- | --- |")
for key in sorted(mine, key=lambda k: (k[0], k[1], k[2].split(":")[0], int(k[2].split(":")[1]) if ":" in k[2] else 0)):
    m = [r["GBps"] for r in mine[key]]
    ok = all(r["checked"] for r in mine[key])
    y = [r["GBps"] for r in yard.get(key, [])]
    ratio = "%.2f" % (statistics.median(m) / statistics.median(y)) if y else "-"
    print("| %s | %s | %s | %d | %s%s | %s | %s |" % (key[0], key[1], key[2], mine[key][0]["segments"],
          " ".join("%.1f" % g for g in m), "" if ok else " WRONG", " ".join("%.1f" % g for g in y) or "-", ratio))
PY
