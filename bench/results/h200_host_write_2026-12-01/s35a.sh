#!/bin/bash
# Session 35, second call on the H200 device machine: HEAD's clrdx (27c6c08, whose library code is
# 92fc349's) against CUB, flat auto at every size (bench_vs_yardsticks.sh gpu 30, 3 alternating
# rounds) and segments by offsets of 4096..262144, the power-law mix and rows of 4096 (3
# alternating rounds, CUB first in each); then, on the host's Xeon where PoCL is registered, f32
# max of segments of 64, 256 and 1024 at 2^28 against the native loop's max and its max_nan
# (NumPy's max: NaN propagates), 3 alternating rounds after half a minute of discarded runs.
# Run from the repository root with clrdx in .devprobe/; files land in $OUT.
set -u
root=$PWD
C=$root/.devprobe/clrdx
here=$root/bench/results/h200_host_write_2026-12-01
export RDX_CACHE_DIR=/tmp/rdxcache PATH=$PATH:/usr/local/cuda/bin
log() { echo "$* at $SECONDS s" >> $OUT/log.txt; }
nvidia-smi -L > $OUT/machine.txt
nvidia-smi --query-gpu=driver_version --format=csv >> $OUT/machine.txt
$C devices >> $OUT/machine.txt 2>&1
lscpu | head -20 >> $OUT/machine.txt
CLRDX=$C RDX_BENCH_ROUNDS=3 RDX_BENCH_OUT=/tmp/flat bash bench/bench_vs_yardsticks.sh gpu 30 \
  > $OUT/flat_ratios.md 2> /tmp/flat_err.txt
cp /tmp/flat/clrdx.jsonl $OUT/flat_clrdx.jsonl
cp /tmp/flat/yardstick.jsonl $OUT/flat_cub.jsonl
log "flat done"
nvcc -O3 -std=c++17 -arch=sm_90 -I/usr/local/cuda/include/cccl \
  bench/yardsticks/cub_segmented_reduce.cu -o /tmp/cubseg 2>> $OUT/log.txt
L=uniform:4096,uniform:16384,uniform:65536,uniform:262144,powerlaw,rows:4096
for r in 1 2 3; do
  /tmp/cubseg 28 | grep -E 'uniform:(4096|16384|65536|262144)"|powerlaw' |
    sed "s/^{/{\"ab_round\":$r,/" >> $OUT/seg.jsonl
  for to in f32:sum i32:sum f32:max; do
    $C bench --device gpu --type ${to%%:*} --op ${to##*:} --layouts $L --sizes 256Mi --repeat 10 \
      --json /tmp/p.jsonl > /dev/null 2>> /tmp/seg_err.txt
    sed "s/^{/{\"ab_round\":$r,/" /tmp/p.jsonl >> $OUT/seg.jsonl
  done
  log "segments round $r"
  [ $SECONDS -gt 330 ] && break
done
if $C devices 2>&1 | grep -qi pocl; then
  g++ -O3 -march=native -fopenmp -std=c++17 $here/native_seg_nan.cpp -o /tmp/nsn 2>> $OUT/log.txt
  CL=uniform:64,uniform:256,uniform:1024
  export NATIVE_MAX_ONLY=1 NATIVE_LAYOUTS=$CL
  t0=$SECONDS
  while [ $((SECONDS - t0)) -lt 30 ]; do
    /tmp/nsn 26 > /dev/null
    $C bench --device cpu --type f32 --op max --layouts $CL --sizes 64Mi --repeat 5 > /dev/null 2>&1
  done
  log "cpu warm-up"
  for r in 1 2 3; do
    /tmp/nsn 28 | sed "s/^{/{\"ab_round\":$r,/" >> $OUT/cpu.jsonl
    $C bench --device cpu --type f32 --op max --layouts $CL --sizes 256Mi --repeat 10 \
      --json /tmp/c.jsonl > /dev/null 2>> /tmp/cpu_err.txt
    sed "s/^{/{\"ab_round\":$r,/" /tmp/c.jsonl >> $OUT/cpu.jsonl
    log "cpu round $r"
    [ $SECONDS -gt 540 ] && break
  done
else
  log "no PoCL device"
fi
cat /tmp/flat_err.txt /tmp/seg_err.txt /tmp/cpu_err.txt 2>/dev/null | grep -iv '^bench:' | head -20 >> $OUT/log.txt
