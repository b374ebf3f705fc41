#!/bin/bash
# Session 33, ninth call: H200, segments by offsets and rows through clrdx: the register cap where
# a lane's share of a mean segment is under 4 rounds of loads (clrdx_new: -cl-nv-maxrregcount=32,
# seg_reduce without a required work-group size) against HEAD (clrdx_old, abe6ec6), f32 sum, i32
# sum and f32 max, 2^28 elements, 3 rounds alternating the builds' order; CUB once between rounds
# 1 and 2; then the segmented device tests with the new build.
cd "$(dirname "$0")"; m=$PWD
export LD_LIBRARY_PATH=$m/lib RDX_CACHE_DIR=off PATH=$PATH:/usr/local/cuda/bin
o=/tmp/o33f; rm -rf $o; mkdir -p $o
nvidia-smi -L > $o/gpu.txt
L=uniform:4096,uniform:8192,uniform:12288,uniform:16384,powerlaw,rows:4096,rows:8192
r=0
for order in "old new" "new old" "old new"; do
  r=$((r + 1))
  for b in $order; do
    for to in f32:sum i32:sum f32:max; do
      ./clrdx_$b bench --device gpu --type ${to%%:*} --op ${to##*:} --layouts $L --sizes 256Mi --repeat 10 --json /tmp/p.jsonl > /dev/null 2>> $o/err.txt
      sed "s/^{/{\"ab_round\":$r,\"build\":\"$b\",/" /tmp/p.jsonl >> $o/seg.jsonl
    done
  done
  echo "round $r at $SECONDS s" >> $o/gpu.txt
  if [ $r = 1 ]; then
    nvcc -O3 -std=c++17 -arch=sm_90 -I/usr/local/cuda/include/cccl ../../bench/yardsticks/cub_segmented_reduce.cu -o /tmp/cubseg 2>> $o/err.txt
    /tmp/cubseg 28 > $o/cub.jsonl 2>> $o/err.txt
    echo "cub at $SECONDS s" >> $o/gpu.txt
  fi
done
timeout 200 ./rdx_device_tests_new -tc="segmented*,offsets*,views*" > $o/tests.txt 2>&1
echo "tests exit $? at $SECONDS s" >> $o/gpu.txt
tar czf $OUT/out.tgz -C /tmp o33f
