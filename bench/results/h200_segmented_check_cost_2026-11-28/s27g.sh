#!/bin/bash
# Session 27, seventh call: H200, seg_reduce's tree for 64 lanes and more warp first (each warp by
# shuffles, the warps' states through local memory, one barrier, the first warp by shuffles;
# cl_wf through RDX_KERNEL_DIR) against the committed kernels (cl_cur) and CUB; 2^28 elements,
# 2 alternating rounds; then the segmented device tests with cl_wf.
set -u
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib PATH=$PATH:/usr/local/cuda/bin RDX_CACHE_DIR=off
start=$(date +%s)
[ -x /tmp/cubseg ] || nvcc -O3 -std=c++17 -arch=sm_90 -I/usr/local/cuda/include/cccl ../../bench/yardsticks/cub_segmented_reduce.cu -o /tmp/cubseg 2>> $OUT/log.txt
lay=uniform:1024,uniform:4096,uniform:16384,uniform:65536,uniform:262144,uniform:1048576,powerlaw,rows:4096,rows:65536
for r in 1 2; do
  /tmp/cubseg 28 | sed "s/^{/{\"ab_round\":$r,/" >> $OUT/cub.jsonl
  for v in cur wf; do
    for to in f32:sum i32:sum f32:max; do
      RDX_KERNEL_DIR=$PWD/cl_$v ./clrdx_s27a bench --device gpu --type ${to%%:*} --op ${to##*:} --layouts $lay --sizes 256Mi \
        --repeat 10 --peak 4800 --json /tmp/p.jsonl > /dev/null 2>> /tmp/err.txt
      sed "s/^{/{\"variant\":\"$v\",\"ab_round\":$r,/" /tmp/p.jsonl >> $OUT/clrdx.jsonl
    done
  done
  echo "round $r at $(( $(date +%s) - start )) s" >> $OUT/log.txt
done
RDX_KERNEL_DIR=$PWD/cl_wf RDX_DEVICE=gpu timeout 200 ./rdx_device_tests_s26h --test-case='segmented*,views*,offsets*,stats accuracy*,concurrency: segmented*' > /tmp/t.txt 2>&1
echo "exit $?" >> /tmp/t.txt; grep -v "^\[doctest\] \(doctest\|run with\)" /tmp/t.txt | tail -15 > $OUT/tests_gpu.txt
grep -v "^bench:" /tmp/err.txt | head -20 > $OUT/err.txt
