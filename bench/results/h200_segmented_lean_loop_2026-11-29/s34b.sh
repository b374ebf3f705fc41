#!/bin/bash
# Session 34, second call: H200, why s34a's 32-register forms of seg_reduce ran faster alone
# (CUDA launch) but not through clrdx. (1) seg_cl_run: the same program sources (src_cur/A/B.cl:
# librdx's program for an f32 sum by offsets, segmented.cl of cl_cur/A/B) built and launched by
# OpenCL alone, kernel time by profiling events, 2^28, 4096/16384/65536, 3 rounds rotating.
# (2) seg_ptx_run with the shared-memory carveout preference unset, 0 and 100 (cur and A, 4096).
cd "$(dirname "$0")"; m=$PWD
export LD_LIBRARY_PATH=$m/lib PATH=$PATH:/usr/local/cuda/bin
o=/tmp/o34b; rm -rf $o; mkdir -p $o
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $o/gpu.txt 2>&1
nvcc -O2 -std=c++17 seg_ptx_run.cu -o /tmp/seg_ptx_run -lcuda 2>> $o/err.txt
g++ -O2 -std=c++17 seg_cl_run.cpp -o /tmp/seg_cl_run -lOpenCL 2>> $o/err.txt
OPT="-DWG=256 -DLANES=256 -DPARTS=1 -DSEG_UNROLL=4 -DSEG_VEC=4 -DCHECKED -DSEG_SHUFFLE -DOFFSETS"
for order in "cur A B" "B cur A" "A B cur"; do
  for L in 4096 16384 65536; do
    for v in $order; do
      /tmp/seg_cl_run src_$v.cl "$OPT" 28 $L 256 30 2>> $o/err.txt | sed "s/^{/{\"variant\":\"$v\",/" >> $o/cl.jsonl
    done
  done
done
echo "cl done at $SECONDS s" >> $o/log.txt
for order in "cur A" "A cur"; do
  for c in unset 0 100; do
    for v in $order; do
      if [ $c = unset ]; then /tmp/seg_ptx_run ptx34/seg_$v.ptx 28 4096 256 30; else CARVEOUT=$c /tmp/seg_ptx_run ptx34/seg_$v.ptx 28 4096 256 30; fi 2>> $o/err.txt | sed "s/^{/{\"variant\":\"$v\",/" >> $o/ptx.jsonl
    done
  done
done
echo "done at $SECONDS s" >> $o/log.txt
tar czf $OUT/out.tgz -C /tmp o34b
