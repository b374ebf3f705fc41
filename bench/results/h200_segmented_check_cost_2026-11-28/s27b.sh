#!/bin/bash
# Session 27, second call: H200, segments by offsets, 2^28 elements: does seg_reduce's wait for
# the offsets' flag before its loads cost time? CUB, the committed kernels (cur), the flag loaded
# at the start and tested at the store (late), and late with an empty seg_check (late0), 2 rounds.
set -u
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib PATH=$PATH:/usr/local/cuda/bin RDX_CACHE_DIR=off
start=$(date +%s)
nvcc -O3 -std=c++17 -arch=sm_90 -I/usr/local/cuda/include/cccl ../../bench/yardsticks/cub_segmented_reduce.cu -o /tmp/cubseg 2>> $OUT/log.txt
lay=uniform:1024,uniform:4096,uniform:16384,uniform:65536,uniform:262144,uniform:1048576,powerlaw,rows:4096,rows:65536
for r in 1 2; do
  /tmp/cubseg 28 | sed "s/^{/{\"ab_round\":$r,/" >> $OUT/cub.jsonl
  for v in cur late late0; do
    for to in f32:sum i32:sum f32:max; do
      RDX_KERNEL_DIR=$PWD/cl_$v ./clrdx_s27a bench --device gpu --type ${to%%:*} --op ${to##*:} --layouts $lay --sizes 256Mi \
        --repeat 10 --peak 4800 --json /tmp/p.jsonl > /dev/null 2>> /tmp/err.txt
      sed "s/^{/{\"variant\":\"$v\",\"ab_round\":$r,/" /tmp/p.jsonl >> $OUT/clrdx.jsonl
    done
  done
  echo "round $r at $(( $(date +%s) - start )) s" >> $OUT/log.txt
done
grep -v "^bench:" /tmp/err.txt | head -20 > $OUT/err.txt
