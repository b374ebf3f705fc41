#!/bin/bash
# Session 23, the final comparison on the Xeon (PoCL 5): HEAD (clrdx_s23 with HEAD's kernels,
# cl_old: one work-item a compute unit) against the change (clrdx_s23b: the run loop, 4 work-items
# a compute unit), each command timing run_to_run and any_device at their defaults; 5 rounds,
# alternating; the native loop (binned_native_probe) once a round. Then the device tests.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib RDX_CACHE_DIR=off
for r in 1 2 3 4 5; do
  OMP_PROC_BIND=close ./binned_native_probe 26 | grep "threads 16" | sed "s/^/r$r /" >> $OUT/native.txt
  for b in head change; do for t in f32 f64; do
    if [ $b = head ]; then env RDX_KERNEL_DIR=$PWD/cl_old ./clrdx_s23 bench --device cpu --strategy auto --determinism run_to_run,any_device --data random --sizes 16Mi,64Mi --repeat 10 --type $t --json $OUT/p.jsonl >/dev/null 2>>$OUT/err.txt
    else ./clrdx_s23b bench --device cpu --strategy auto --determinism run_to_run,any_device --data random --sizes 16Mi,64Mi --repeat 10 --type $t --json $OUT/p.jsonl >/dev/null 2>>$OUT/err.txt; fi
    sed "s/^{/{\"round\":$r,\"label\":\"$b\",/" $OUT/p.jsonl >> $OUT/bin.jsonl
  done; done
done
rm -f $OUT/p.jsonl
python3 ../tab.py $OUT/bin.jsonl | tee $OUT/table.txt   # tab.py beside the runs
RDX_DEVICE=cpu timeout 300 ./rdx_device_tests_s23 --test-case='binned*,*any_device*,*AnyDevice*' 2>&1 | tail -3 > $OUT/tests_cpu.txt
RDX_DEVICE=gpu timeout 200 ./rdx_device_tests_s23 --test-case='binned*,*any_device*,*AnyDevice*' 2>&1 | tail -3 > $OUT/tests_gpu.txt
