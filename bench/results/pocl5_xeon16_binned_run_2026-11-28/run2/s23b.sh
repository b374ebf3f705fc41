#!/bin/bash
# Session 23: what the Xeon does natively with the binned sum's inner loop (binned_native_probe.cpp)
# against a plain sum, and clrdx's kernel (cl_old, cl_new) at 1 and 16 compute units, 2^22 and 2^24.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib RDX_CACHE_DIR=off
grep MHz /proc/cpuinfo | head -4 > $OUT/mhz.txt
for r in 1 2; do OMP_PROC_BIND=close ./binned_native_probe 22; OMP_PROC_BIND=close ./binned_native_probe 24; done > $OUT/native.txt 2>&1
for r in 1 2 3; do for cu in 1 16; do for k in old new; do
  POCL_CPU_MAX_CU_COUNT=$cu RDX_KERNEL_DIR=$PWD/cl_$k ./clrdx_s23 bench --device cpu --strategy auto --determinism run_to_run,any_device --data random --sizes 4Mi,16Mi --repeat 10 --type f32 --json $OUT/p.jsonl >/dev/null 2>>$OUT/err.txt
  sed "s/^{/{\"round\":$r,\"label\":\"$k:cu$cu\",/" $OUT/p.jsonl >> $OUT/bin.jsonl
done; done; done
rm -f $OUT/p.jsonl
python3 ../tab.py $OUT/bin.jsonl | tee $OUT/table.txt   # tab.py beside the runs
