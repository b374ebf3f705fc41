#!/bin/bash
# Session 23: 2^24 and 2^26 on the Xeon: the native inner loop (binned_native_probe) against
# clrdx's kernel, HEAD's (cl_old) and the run loop (cl_new), alternating; cl_new also with 4
# work-items a compute unit (--groups-per-cu 4).
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib RDX_CACHE_DIR=off
for r in 1 2 3; do
  OMP_PROC_BIND=close ./binned_native_probe 24 | grep "threads 16" | sed "s/^/r$r /"
  OMP_PROC_BIND=close ./binned_native_probe 26 | grep "threads 16" | sed "s/^/r$r /"
  for k in old new new4; do for t in f32 f64; do
    g=""; [ $k = new4 ] && g="--groups-per-cu 4"; kd=cl_${k%4}
    RDX_KERNEL_DIR=$PWD/$kd ./clrdx_s23 bench --device cpu --strategy auto --determinism run_to_run,any_device --data random --sizes 16Mi,64Mi --repeat 10 --type $t $g --json $OUT/p.jsonl >/dev/null 2>>$OUT/err.txt
    sed "s/^{/{\"round\":$r,\"label\":\"$k\",/" $OUT/p.jsonl >> $OUT/bin.jsonl
  done; done
done > $OUT/native.txt 2>&1
rm -f $OUT/p.jsonl
python3 ../tab.py $OUT/bin.jsonl | tee $OUT/table.txt   # tab.py beside the runs
