#!/bin/bash
# Session 29, sixth call: H200, segments by offsets: CUB's load pattern through the tunables
# (1-element loads, 16 in flight a work-item: --seg-vector 1 --seg-unroll 16, "v1u16") against
# the default (4-element loads, 4 in flight, "def"), clrdx of af637c1, and CUB; 2 rounds, the
# order reversed in the second.
set -u
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib PATH=$PATH:/usr/local/cuda/bin RDX_CACHE_DIR=off
start=$(date +%s)
[ -x /tmp/cubseg ] || nvcc -O3 -std=c++17 -arch=sm_90 -I/usr/local/cuda/include/cccl ../../bench/yardsticks/cub_segmented_reduce.cu -o /tmp/cubseg 2>> $OUT/log.txt
lay=uniform:4096,uniform:16384,uniform:65536,powerlaw
for r in 1 2; do
  /tmp/cubseg 28 | sed "s/^{/{\"ab_round\":$r,/" >> $OUT/cub.jsonl
  order=(def v1u16); [ $r = 2 ] && order=(v1u16 def)
  for v in "${order[@]}"; do
    extra=""; [ $v = v1u16 ] && extra="--seg-vector 1 --seg-unroll 16"
    for to in f32:sum f32:max; do
      ./clrdx_s29 bench --device gpu --type ${to%%:*} --op ${to##*:} --layouts $lay --sizes 256Mi \
        --repeat 10 --peak 4800 $extra --json /tmp/p.jsonl > /dev/null 2>> /tmp/err.txt
      sed "s/^{/{\"variant\":\"$v\",\"ab_round\":$r,/" /tmp/p.jsonl >> $OUT/clrdx.jsonl
    done
  done
  echo "round $r at $(( $(date +%s) - start )) s" >> $OUT/log.txt
done
grep -v "^bench:" /tmp/err.txt | head -20 > $OUT/err.txt
