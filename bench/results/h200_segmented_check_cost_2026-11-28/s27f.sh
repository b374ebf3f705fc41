#!/bin/bash
# Session 27, sixth call: H200, segments by offsets: which half of the check costs: the launch of
# seg_check (nolaunch: not launched, the flag still read) or the read of its flag (noread: launched,
# finish instead of the read). Uncommitted build clrdx_s27z; 2 rounds, f32 and i32 sums.
set -u
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib PATH=$PATH:/usr/local/cuda/bin RDX_CACHE_DIR=off
start=$(date +%s)
[ -x /tmp/cubseg ] || nvcc -O3 -std=c++17 -arch=sm_90 -I/usr/local/cuda/include/cccl ../../bench/yardsticks/cub_segmented_reduce.cu -o /tmp/cubseg 2>> $OUT/log.txt
lay=uniform:4096,uniform:16384,uniform:65536,uniform:262144,powerlaw,rows:4096,rows:65536
for r in 1 2; do
  /tmp/cubseg 28 | sed "s/^{/{\"ab_round\":$r,/" >> $OUT/cub.jsonl
  for v in def nolaunch noread; do
    for to in f32:sum i32:sum; do
      unset RDX_X_NOLAUNCH RDX_X_NOREAD; [ $v = nolaunch ] && export RDX_X_NOLAUNCH=1; [ $v = noread ] && export RDX_X_NOREAD=1
      ./clrdx_s27z bench --device gpu --type ${to%%:*} --op ${to##*:} --layouts $lay --sizes 256Mi \
        --repeat 10 --peak 4800 --json /tmp/p.jsonl > /dev/null 2>> /tmp/err.txt
      sed "s/^{/{\"variant\":\"$v\",\"ab_round\":$r,/" /tmp/p.jsonl >> $OUT/clrdx.jsonl
    done
  done
  echo "round $r at $(( $(date +%s) - start )) s" >> $OUT/log.txt
done
grep -v "^bench:" /tmp/err.txt | head -20 > $OUT/err.txt
