#!/bin/bash
# Session 29, first call: H200, segments by offsets: seg_reduce in a group-stride loop over its
# blocks (RDX_X_PERSIST=K: K groups a compute unit; an uncommitted build, clrdx_s29p) against the
# default one group a block (def), and CUB; 3 rounds, the variants' order reversed each round.
set -u
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib PATH=$PATH:/usr/local/cuda/bin RDX_CACHE_DIR=off
start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $OUT/gpu.txt 2>&1
[ -x /tmp/cubseg ] || nvcc -O3 -std=c++17 -arch=sm_90 -I/usr/local/cuda/include/cccl ../../bench/yardsticks/cub_segmented_reduce.cu -o /tmp/cubseg 2>> $OUT/log.txt
lay=uniform:1024,uniform:4096,uniform:16384,uniform:65536,uniform:262144,powerlaw,rows:4096
order=(def p4 p6 p8 p16)
for r in 1 2 3; do
  /tmp/cubseg 28 | sed "s/^{/{\"ab_round\":$r,/" >> $OUT/cub.jsonl
  if [ $r = 2 ]; then order=(p16 p8 p6 p4 def); fi
  if [ $r = 3 ]; then order=(p6 def p16 p4 p8); fi
  for v in "${order[@]}"; do
    for to in f32:sum i32:sum f32:max; do
      if [ $v = def ]; then unset RDX_X_PERSIST; else export RDX_X_PERSIST=${v#p}; fi
      ./clrdx_s29p bench --device gpu --type ${to%%:*} --op ${to##*:} --layouts $lay --sizes 256Mi \
        --repeat 10 --peak 4800 --json /tmp/p.jsonl > /dev/null 2>> /tmp/err.txt
      sed "s/^{/{\"variant\":\"$v\",\"ab_round\":$r,/" /tmp/p.jsonl >> $OUT/clrdx.jsonl
    done
  done
  echo "round $r at $(( $(date +%s) - start )) s" >> $OUT/log.txt
done
grep -v "^bench:" /tmp/err.txt | head -20 > $OUT/err.txt
