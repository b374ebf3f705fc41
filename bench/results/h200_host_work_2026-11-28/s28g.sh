#!/bin/bash
# Session 28, seventh call: H200, flat auto against CUB at every size (bench_vs_yardsticks.sh gpu
# 30, 3 alternating rounds), clrdx of 20b2452 (clrdx_s28fold).
cd "$(dirname "$0")"; m=$PWD
export LD_LIBRARY_PATH=$m/lib RDX_CACHE_DIR=off PATH=$PATH:/usr/local/cuda/bin
nvidia-smi -L > $OUT/gpu.txt; nvidia-smi --query-gpu=driver_version --format=csv >> $OUT/gpu.txt
cd ../..
CLRDX=$m/clrdx_s28fold RDX_BENCH_ROUNDS=3 RDX_BENCH_OUT=$OUT/flat bash bench/bench_vs_yardsticks.sh gpu 30 > $OUT/flat.txt 2> $OUT/flat_err.txt
echo "flat done at $SECONDS s" >> $OUT/gpu.txt
