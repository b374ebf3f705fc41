#!/bin/bash
# Is the wide form's gain for short CPU segments on the Xeon a matter of core count? The default
# form against 16-element loads (2 and 4 in flight) with 16 compute units and with 2 (PoCL's
# POCL_CPU_MAX_CU_COUNT, the process pinned to 2 cores), and the native loop on as many threads.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib RDX_CACHE_DIR=off
lscpu | grep -E "Model name|^CPU\(s\)"
g++ -O3 -march=native -fopenmp -std=c++17 native_cpu_segmented.cpp -o native_seg
for cu in 16 2; do
  pin="taskset -c 0-$((cu - 1))"
  POCL_CPU_MAX_CU_COUNT=$cu $pin ./clrdx devices 2>&1 | grep -i -A3 cpu | head -4
done
L=uniform:64,uniform:256,rows:256
for r in 1 2 3; do
  for cu in 16 2; do
    pin="taskset -c 0-$((cu - 1))"
    OMP_NUM_THREADS=$cu $pin ./native_seg 26 | grep -E "uniform:(64|256)\"|rows:256\"" | sed "s/^{/{\"round\":$r,\"label\":\"native$cu\",/" >> $OUT/all.jsonl
    for v in "def:" "v16u2:--seg-vector 16 --seg-unroll 2" "v16u4:--seg-vector 16 --seg-unroll 4"; do
      for to in f32:sum i32:sum; do
        POCL_CPU_MAX_CU_COUNT=$cu $pin ./clrdx bench --device cpu --type ${to%%:*} --op ${to##*:} --layouts $L --sizes 64Mi --repeat 10 ${v#*:} --json $OUT/p.jsonl >/dev/null 2>$OUT/err.txt || cat $OUT/err.txt
        sed "s/^{/{\"round\":$r,\"label\":\"${v%%:*}$cu\",/" $OUT/p.jsonl >> $OUT/all.jsonl
      done
    done
  done
  echo "round $r at $SECONDS s"
done
python3 tab.py $OUT/all.jsonl native16,def16,v16u216,v16u416,native2,def2,v16u22,v16u42 | tee $OUT/table.md
