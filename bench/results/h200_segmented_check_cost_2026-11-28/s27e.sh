#!/bin/bash
# Session 27, fifth call: H200, segments by offsets: what the offsets' check costs. An uncommitted
# build (clrdx_s27y) whose RDX_X_NOCHECK skips seg_check, the flag and its read (finish instead),
# against the same build as committed, and CUB; rows for reference. 3 rounds, f32 and i32 sums.
set -u
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib PATH=$PATH:/usr/local/cuda/bin RDX_CACHE_DIR=off
start=$(date +%s)
[ -x /tmp/cubseg ] || nvcc -O3 -std=c++17 -arch=sm_90 -I/usr/local/cuda/include/cccl ../../bench/yardsticks/cub_segmented_reduce.cu -o /tmp/cubseg 2>> $OUT/log.txt
lay=uniform:4096,uniform:16384,uniform:65536,uniform:262144,powerlaw,rows:4096,rows:65536
for r in 1 2 3; do
  /tmp/cubseg 28 | sed "s/^{/{\"ab_round\":$r,/" >> $OUT/cub.jsonl
  for v in def nochk; do
    for to in f32:sum i32:sum; do
      if [ $v = nochk ]; then export RDX_X_NOCHECK=1; else unset RDX_X_NOCHECK; fi
      ./clrdx_s27y bench --device gpu --type ${to%%:*} --op ${to##*:} --layouts $lay --sizes 256Mi \
        --repeat 10 --peak 4800 --json /tmp/p.jsonl > /dev/null 2>> /tmp/err.txt
      sed "s/^{/{\"variant\":\"$v\",\"ab_round\":$r,/" /tmp/p.jsonl >> $OUT/clrdx.jsonl
    done
  done
  echo "round $r at $(( $(date +%s) - start )) s" >> $OUT/log.txt
done
grep -v "^bench:" /tmp/err.txt | head -20 > $OUT/err.txt
