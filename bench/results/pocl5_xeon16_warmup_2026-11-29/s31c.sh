#!/bin/bash
# Session 31, third call: H200, flat auto against CUB at every size (bench_vs_yardsticks.sh gpu 30,
# 3 alternating rounds), HEAD's clrdx (89c2064's code: clrdx bench warms each configuration up for
# a quarter of a second; the GPU path is 20b2452's, as in s28g).
cd "$(dirname "$0")"; m=$PWD
export LD_LIBRARY_PATH=$m/lib RDX_CACHE_DIR=off PATH=$PATH:/usr/local/cuda/bin
nvidia-smi -L > $OUT/gpu.txt; nvidia-smi --query-gpu=driver_version --format=csv >> $OUT/gpu.txt
cd ../..
CLRDX=$m/clrdx_cur RDX_BENCH_ROUNDS=3 RDX_BENCH_OUT=$OUT/flat bash bench/bench_vs_yardsticks.sh gpu 30 > $OUT/flat.txt 2> $OUT/flat_err.txt
echo "flat done at $SECONDS s" >> $OUT/gpu.txt
