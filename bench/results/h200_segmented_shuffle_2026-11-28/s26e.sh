#!/bin/bash
# Session 26, fifth call: the build with warp shuffles in seg_reduce (clrdx_s26e) on the H200.
# (1) device tests of the segmented, view, offset and stats cases; (2) segments by offsets, 2^28
# elements: CUB's DeviceSegmentedReduce, the build before (clrdx_s26b, the local-memory tree)
# and the change, alternating, 2 rounds.
set -u
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib PATH=$PATH:/usr/local/cuda/bin RDX_CACHE_DIR=off
start=$(date +%s)
RDX_DEVICE=gpu timeout 240 ./rdx_device_tests_s26e --test-case='segmented*,views*,offsets*,stats accuracy*,exact segments*,concurrency: segmented*' > /tmp/t.txt 2>&1
echo "exit $?" >> /tmp/t.txt; grep -v "^\[doctest\] \(doctest\|run with\)" /tmp/t.txt | tail -15 > $OUT/tests_gpu.txt
echo "tests at $(( $(date +%s) - start )) s" >> $OUT/log.txt
nvcc -O3 -std=c++17 -arch=sm_90 -I/usr/local/cuda/include/cccl ../../bench/yardsticks/cub_segmented_reduce.cu -o /tmp/cubseg 2>> $OUT/log.txt
lay=uniform:4,uniform:16,uniform:64,uniform:256,uniform:1024,uniform:4096,uniform:16384,uniform:65536,uniform:262144,uniform:1048576,powerlaw
for r in 1 2; do
  /tmp/cubseg 28 | sed "s/^{/{\"ab_round\":$r,/" >> $OUT/cub.jsonl
  for v in s26b s26e; do
    for to in f32:sum i32:sum f32:max; do
      ./clrdx_$v bench --device gpu --type ${to%%:*} --op ${to##*:} --layouts $lay --sizes 256Mi \
        --repeat 10 --peak 4800 --json /tmp/p.jsonl > /dev/null 2>> /tmp/err.txt
      sed "s/^{/{\"variant\":\"$v\",\"ab_round\":$r,/" /tmp/p.jsonl >> $OUT/clrdx.jsonl
    done
  done
  echo "round $r at $(( $(date +%s) - start )) s" >> $OUT/log.txt
done
grep -v "^bench:" /tmp/err.txt | head -20 > $OUT/err.txt
