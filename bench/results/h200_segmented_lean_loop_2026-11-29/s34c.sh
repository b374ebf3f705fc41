#!/bin/bash
# Session 34, third call: H200. (1) seg_cl_run (OpenCL alone, profiling events): cur, A, B and C,
# 2^28 f32 sum by offsets, 4096/16384/65536, 3 rounds rotating. (2) clrdx_old (HEAD) with
# RDX_KERNEL_DIR cl_cur, cl_B and cl_C, f32 sum, i32 sum, f32 max, 8 layouts, 2^28, 5 rounds
# rotating the order; CUB once after round 1. (3) the segmented device tests with cl_C.
cd "$(dirname "$0")"; m=$PWD
export LD_LIBRARY_PATH=$m/lib PATH=$PATH:/usr/local/cuda/bin
o=/tmp/o34c; rm -rf $o; mkdir -p $o
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $o/gpu.txt 2>&1
g++ -O2 -std=c++17 seg_cl_run.cpp -o /tmp/seg_cl_run -lOpenCL 2>> $o/err.txt
OPT="-DWG=256 -DLANES=256 -DPARTS=1 -DSEG_UNROLL=4 -DSEG_VEC=4 -DCHECKED -DSEG_SHUFFLE -DOFFSETS"
for order in "cur A B C" "C cur A B" "B C cur A"; do
  for L in 4096 16384 65536; do
    for v in $order; do
      /tmp/seg_cl_run src_$v.cl "$OPT" 28 $L 256 30 2>> $o/err.txt | sed "s/^{/{\"variant\":\"$v\",/" >> $o/cl.jsonl
    done
  done
done
echo "cl done at $SECONDS s" >> $o/log.txt
L=uniform:4096,uniform:8192,uniform:16384,uniform:65536,uniform:262144,powerlaw,rows:4096,rows:16384
r=0
for order in "cur B C" "C cur B" "B C cur" "cur C B" "C B cur"; do
  r=$((r + 1))
  for v in $order; do
    for to in f32:sum i32:sum f32:max; do
      RDX_KERNEL_DIR=$m/cl_$v RDX_CACHE_DIR=off ./clrdx_old bench --device gpu --type ${to%%:*} --op ${to##*:} --layouts $L --sizes 256Mi --repeat 10 --json /tmp/p.jsonl > /dev/null 2>> $o/err.txt
      sed "s/^{/{\"ab_round\":$r,\"variant\":\"$v\",/" /tmp/p.jsonl >> $o/seg.jsonl
    done
  done
  echo "round $r at $SECONDS s" >> $o/log.txt
  if [ $r = 1 ]; then
    nvcc -O3 -std=c++17 -arch=sm_90 -I/usr/local/cuda/include/cccl ../../bench/yardsticks/cub_segmented_reduce.cu -o /tmp/cubseg 2>> $o/err.txt
    /tmp/cubseg 28 > $o/cub.jsonl 2>> $o/err.txt
    echo "cub at $SECONDS s" >> $o/log.txt
  fi
done
RDX_KERNEL_DIR=$m/cl_C RDX_CACHE_DIR=off timeout 150 ./rdx_device_tests -tc="segmented: offsets around*,segmented: typed forms*,offsets: integers at odd*,segmented: every axis*" > $o/tests.txt 2>&1
echo "tests exit $? at $SECONDS s" >> $o/log.txt
tar czf $OUT/out.tgz -C /tmp o34c
