#!/bin/bash
# Session 35, third call on the H200 device machine (HEAD's clrdx, as s35a): two more alternating
# rounds of s35a's segments against CUB; flat f32 sums at 2^28 and 2^30 over a grid of tunables
# (groups a compute unit 4-32, loads in flight 2 and 4, work-groups of 256 and 512) alternating
# with CUB, 2 rounds; then s35a's CPU part (its test for PoCL missed: `clrdx devices` names the
# platform "Portable Computing Language").
set -u
root=$PWD
C=$root/.devprobe/clrdx
here=$root/bench/results/h200_host_write_2026-12-01
export RDX_CACHE_DIR=/tmp/rdxcache PATH=$PATH:/usr/local/cuda/bin
log() { echo "$* at $SECONDS s" >> $OUT/log.txt; }
nvcc -O3 -std=c++17 -arch=sm_90 -I/usr/local/cuda/include/cccl \
  bench/yardsticks/cub_segmented_reduce.cu -o /tmp/cubseg 2>> $OUT/log.txt
nvcc -O3 -std=c++17 -arch=sm_90 -I/usr/local/cuda/include/cccl \
  bench/yardsticks/cub_reduce.cu -o /tmp/cubflat 2>> $OUT/log.txt
L=uniform:4096,uniform:16384,uniform:65536,uniform:262144,powerlaw,rows:4096
for r in 2 3; do
  /tmp/cubseg 28 | grep -E 'uniform:(4096|16384|65536|262144)"|powerlaw' |
    sed "s/^{/{\"ab_round\":$r,/" >> $OUT/seg.jsonl
  for to in f32:sum i32:sum f32:max; do
    $C bench --device gpu --type ${to%%:*} --op ${to##*:} --layouts $L --sizes 256Mi --repeat 10 \
      --json /tmp/p.jsonl > /dev/null 2>> /tmp/seg_err.txt
    sed "s/^{/{\"ab_round\":$r,/" /tmp/p.jsonl >> $OUT/seg.jsonl
  done
  log "segments round $r"
done
for r in 1 2; do
  /tmp/cubflat 30 | grep '"f32"' | grep '"sum"' | sed "s/^{/{\"ab_round\":$r,/" >> $OUT/grid.jsonl
  for wg in 256 512; do
    $C bench --device gpu --strategy auto --type f32 --op sum --sizes 256Mi,1Gi --repeat 20 \
      --wg $wg --groups-per-cu 4,8,16,32 --unroll 2,4 --label wg$wg --json /tmp/g.jsonl \
      > /dev/null 2>> /tmp/grid_err.txt
    sed "s/^{/{\"ab_round\":$r,/" /tmp/g.jsonl >> $OUT/grid.jsonl
  done
  $C bench --device gpu --strategy auto --type f32 --op sum --sizes 256Mi,1Gi --repeat 20 \
    --json /tmp/g.jsonl > /dev/null 2>> /tmp/grid_err.txt
  sed "s/^{/{\"ab_round\":$r,/" /tmp/g.jsonl >> $OUT/grid.jsonl
  log "grid round $r"
done
if $C devices 2>&1 | grep -q 'Portable Computing Language'; then
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
cat /tmp/seg_err.txt /tmp/grid_err.txt /tmp/cpu_err.txt 2>/dev/null | grep -iv '^bench:' | head -20 >> $OUT/log.txt
