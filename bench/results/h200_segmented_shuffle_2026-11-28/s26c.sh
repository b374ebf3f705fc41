#!/bin/bash
# Session 26, third call: (1) the fixed-bin sum's device tests on the H200 with 4 lanes for f64
# (clrdx_s26b's build); (2) segments of 4096 and more by offsets against CUB's
# DeviceSegmentedReduce, 2^28 elements, CUB and clrdx alternating, 2 rounds.
set -u
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib PATH=$PATH:/usr/local/cuda/bin RDX_CACHE_DIR=off
start=$(date +%s)
RDX_DEVICE=gpu timeout 240 ./rdx_device_tests_s26 --test-case='binned*,*any_device*,*AnyDevice*' > /tmp/t.txt 2>&1
echo "exit $?" >> /tmp/t.txt; tail -4 /tmp/t.txt > $OUT/tests_gpu.txt
echo "tests at $(( $(date +%s) - start )) s" >> $OUT/log.txt
nvcc -O3 -std=c++17 -arch=sm_90 -I/usr/local/cuda/include/cccl ../../bench/yardsticks/cub_segmented_reduce.cu -o /tmp/cubseg 2>> $OUT/log.txt
echo "nvcc at $(( $(date +%s) - start )) s" >> $OUT/log.txt
lay=uniform:4096,uniform:16384,uniform:65536,uniform:262144,uniform:1048576,powerlaw
for r in 1 2; do
  /tmp/cubseg 28 >> $OUT/cub.jsonl
  for to in f32:sum i32:sum f32:max; do
    ./clrdx_s26b bench --device gpu --type ${to%%:*} --op ${to##*:} --layouts $lay --sizes 256Mi \
      --repeat 10 --peak 4800 --json /tmp/p.jsonl > /dev/null 2>> /tmp/err.txt
    cat /tmp/p.jsonl >> $OUT/clrdx_seg.jsonl
  done
  echo "round $r at $(( $(date +%s) - start )) s" >> $OUT/log.txt
done
