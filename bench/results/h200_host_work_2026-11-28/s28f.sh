#!/bin/bash
# Session 28, sixth call: H200, flat auto at 2^10..2^24: the plan memo build ("memo") against the
# same with the host's fold of the partials on the stack ("fold"), alternating order, CUB each round.
set -u
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib PATH=$PATH:/usr/local/cuda/bin RDX_CACHE_DIR=off
start=$(date +%s)
nvidia-smi -L > $OUT/gpu.txt
[ -x /tmp/cub ] || nvcc -O3 -std=c++17 -arch=sm_90 -I/usr/local/cuda/include/cccl ../../bench/yardsticks/cub_reduce.cu -o /tmp/cub 2>> $OUT/log.txt
sizes=1Ki,4Ki,16Ki,64Ki,256Ki,1Mi,4Mi,16Mi
for r in 1 2 3 4; do
  /tmp/cub 24 | sed "s/^{/{\"ab_round\":$r,/" >> $OUT/cub.jsonl
  if [ $((r % 2)) = 1 ]; then order="memo fold"; else order="fold memo"; fi
  for v in $order; do
    for to in f32:sum f32:max i32:sum f32:argmax; do
      ./clrdx_s28$v bench --device gpu --strategy auto --type ${to%%:*} --op ${to##*:} --sizes $sizes \
        --repeat 300 --json /tmp/p.jsonl > /dev/null 2>> /tmp/err.txt
      sed "s/^{/{\"variant\":\"$v\",\"ab_round\":$r,/" /tmp/p.jsonl >> $OUT/clrdx.jsonl
    done
  done
  echo "round $r at $(( $(date +%s) - start )) s" >> $OUT/log.txt
done
echo "done at $(( $(date +%s) - start )) s" >> $OUT/log.txt
grep -v "^bench:" /tmp/err.txt | head -20 > $OUT/err.txt
