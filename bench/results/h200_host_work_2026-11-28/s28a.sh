#!/bin/bash
# Session 28, first call: H200, flat auto at 2^10..2^24 (f32 sum, f32 max): clrdx of a3b5203 (the
# build of the first H200 table, 14.2 us at 2^10) against HEAD's (71d6af8), alternating order in
# each round, CUB's DeviceReduce each round; probe_call_cost of both; the plain-queue floor.
set -u
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib PATH=$PATH:/usr/local/cuda/bin RDX_CACHE_DIR=off
start=$(date +%s)
nvidia-smi -L > $OUT/gpu.txt; nvidia-smi --query-gpu=driver_version,clocks.sm,clocks.mem --format=csv >> $OUT/gpu.txt
nvcc -O3 -std=c++17 -arch=sm_90 -I/usr/local/cuda/include/cccl ../../bench/yardsticks/cub_reduce.cu -o /tmp/cub 2>> $OUT/log.txt
g++ -O2 -std=c++17 ../../bench/yardsticks/ocl_floor_probe.cpp -lOpenCL -o /tmp/floor 2>> $OUT/log.txt
sizes=1Ki,4Ki,16Ki,64Ki,256Ki,1Mi,4Mi,16Mi
for r in 1 2 3 4; do
  /tmp/floor >> $OUT/floor.jsonl 2>> $OUT/log.txt
  /tmp/cub 24 | sed "s/^{/{\"ab_round\":$r,/" >> $OUT/cub.jsonl
  if [ $((r % 2)) = 1 ]; then order="old new"; else order="new old"; fi
  for v in $order; do
    for to in f32:sum f32:max i32:sum; do
      ./clrdx_s28$v bench --device gpu --strategy auto --type ${to%%:*} --op ${to##*:} --sizes $sizes \
        --repeat 300 --json /tmp/p.jsonl > /dev/null 2>> /tmp/err.txt
      sed "s/^{/{\"variant\":\"$v\",\"ab_round\":$r,/" /tmp/p.jsonl >> $OUT/clrdx.jsonl
    done
  done
  echo "round $r at $(( $(date +%s) - start )) s" >> $OUT/log.txt
done
for r in 1 2; do for v in old new; do for n in 1024 16384 262144 1048576; do
  ./probe_s28$v $n gpu | sed "s/^{/{\"variant\":\"$v\",\"ab_round\":$r,/" >> $OUT/probe.jsonl 2>> $OUT/log.txt
done; done; done
echo "done at $(( $(date +%s) - start )) s" >> $OUT/log.txt
grep -v "^bench:" /tmp/err.txt | head -20 > $OUT/err.txt
