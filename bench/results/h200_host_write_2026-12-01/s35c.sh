#!/bin/bash
# Session 35, fourth call on the H200 device machine (HEAD's clrdx, as s35a): s35b's best grid at
# 2^30 (work-groups of 512, 32 a compute unit) and its neighbours against the default grid
# (256, 8 a compute unit) and CUB, flat f32/i32/f64 sums and f32 max at 2^26..2^30, 3 alternating
# rounds with CUB first in each.
set -u
root=$PWD
C=$root/.devprobe/clrdx
export RDX_CACHE_DIR=/tmp/rdxcache PATH=$PATH:/usr/local/cuda/bin
log() { echo "$* at $SECONDS s" >> $OUT/log.txt; }
nvcc -O3 -std=c++17 -arch=sm_90 -I/usr/local/cuda/include/cccl \
  bench/yardsticks/cub_reduce.cu -o /tmp/cubflat 2>> $OUT/log.txt
S=64Mi,128Mi,256Mi,512Mi,1Gi
for r in 1 2 3; do
  /tmp/cubflat 30 | grep -E '"n":(67108864|268435456|1073741824)' | sed "s/^{/{\"ab_round\":$r,/" >> $OUT/grid.jsonl
  for to in f32:sum i32:sum f64:sum f32:max; do
    t=${to%%:*} o=${to##*:}
    $C bench --device gpu --strategy auto --type $t --op $o --sizes $S --repeat 20 \
      --json /tmp/g.jsonl > /dev/null 2>> /tmp/err.txt
    sed "s/^{/{\"ab_round\":$r,/" /tmp/g.jsonl >> $OUT/grid.jsonl
    $C bench --device gpu --strategy auto --type $t --op $o --sizes $S --repeat 20 \
      --wg 512 --groups-per-cu 32,16 --label wg512 --json /tmp/g.jsonl > /dev/null 2>> /tmp/err.txt
    sed "s/^{/{\"ab_round\":$r,/" /tmp/g.jsonl >> $OUT/grid.jsonl
    $C bench --device gpu --strategy auto --type $t --op $o --sizes $S --repeat 20 \
      --wg 256 --groups-per-cu 32 --label wg256 --json /tmp/g.jsonl > /dev/null 2>> /tmp/err.txt
    sed "s/^{/{\"ab_round\":$r,/" /tmp/g.jsonl >> $OUT/grid.jsonl
  done
  log "round $r"
  [ $SECONDS -gt 420 ] && break
done
grep -iv '^bench:' /tmp/err.txt | head -20 >> $OUT/log.txt
