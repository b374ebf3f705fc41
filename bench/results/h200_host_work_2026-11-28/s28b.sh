#!/bin/bash
# Session 28, second call: H200, flat auto at 2^10..2^24: HEAD's clrdx (71d6af8, "new") against the
# plan memo and typed fast-slot key ("memo"), alternating order in each round, CUB each round;
# probe_call_cost of the memo build (the whole call against the raw launch + polled read); the
# grid at 2^21..2^23 (probe grid: WG:GPC:UNROLL:MIN_PER_ITEM).
set -u
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib PATH=$PATH:/usr/local/cuda/bin RDX_CACHE_DIR=off
start=$(date +%s)
nvidia-smi -L > $OUT/gpu.txt
[ -x /tmp/cub ] || nvcc -O3 -std=c++17 -arch=sm_90 -I/usr/local/cuda/include/cccl ../../bench/yardsticks/cub_reduce.cu -o /tmp/cub 2>> $OUT/log.txt
sizes=1Ki,4Ki,16Ki,64Ki,256Ki,1Mi,4Mi,16Mi
for r in 1 2 3 4 5; do
  /tmp/cub 24 | sed "s/^{/{\"ab_round\":$r,/" >> $OUT/cub.jsonl
  if [ $((r % 2)) = 1 ]; then order="new memo"; else order="memo new"; fi
  for v in $order; do
    for to in f32:sum f32:max i32:sum; do
      ./clrdx_s28$v bench --device gpu --strategy auto --type ${to%%:*} --op ${to##*:} --sizes $sizes \
        --repeat 300 --json /tmp/p.jsonl > /dev/null 2>> /tmp/err.txt
      sed "s/^{/{\"variant\":\"$v\",\"ab_round\":$r,/" /tmp/p.jsonl >> $OUT/clrdx.jsonl
    done
  done
  echo "round $r at $(( $(date +%s) - start )) s" >> $OUT/log.txt
done
for r in 1 2; do for n in 1024 16384 262144 1048576 4194304; do
  ./probe_s28memo $n gpu | sed "s/^{/{\"variant\":\"memo\",\"ab_round\":$r,/" >> $OUT/probe.jsonl 2>> $OUT/log.txt
done; done
echo "probe done at $(( $(date +%s) - start )) s" >> $OUT/log.txt
./probe_s28memo grid gpu 3 2097152,4194304,8388608 256:8:2:0 256:4:2:0 256:2:2:0 256:16:2:0 256:8:4:0 256:4:4:0 512:4:2:0 512:2:4:0 1024:1:4:0 128:16:2:0 >> $OUT/grid.jsonl 2>> $OUT/log.txt
echo "done at $(( $(date +%s) - start )) s" >> $OUT/log.txt
grep -v "^bench:" /tmp/err.txt | head -20 > $OUT/err.txt
