#!/bin/bash
# Session 23 on the H200: flat auto against CUB (bench_vs_yardsticks.sh gpu 30, 3 rounds) and
# any_device / exact against run_to_run (3 rounds), clrdx of 5b58ce0 (clrdx_s23b).
cd "$(dirname "$0")"; m=$PWD
export LD_LIBRARY_PATH=$m/lib RDX_CACHE_DIR=off
nvidia-smi -L > $OUT/gpu.txt; nvidia-smi --query-gpu=driver_version --format=csv >> $OUT/gpu.txt
cd ../..
CLRDX=$m/clrdx_s23b RDX_BENCH_ROUNDS=3 RDX_BENCH_OUT=$OUT/flat bash bench/bench_vs_yardsticks.sh gpu 30 > $OUT/flat.txt 2> $OUT/flat_err.txt
echo "flat done at $SECONDS s" >> $OUT/gpu.txt
cd $m
for r in 1 2 3; do for t in f32 f64; do
  ./clrdx_s23b bench --device gpu --strategy auto --determinism run_to_run,any_device,exact --data random --sizes 64Mi,256Mi,1Gi --repeat 10 --type $t --json $OUT/p.jsonl >/dev/null 2>>$OUT/err.txt
  sed "s/^{/{\"round\":$r,\"label\":\"5b58ce0\",/" $OUT/p.jsonl >> $OUT/levels.jsonl
done; done
rm -f $OUT/p.jsonl
echo "levels done at $SECONDS s" >> $OUT/gpu.txt
