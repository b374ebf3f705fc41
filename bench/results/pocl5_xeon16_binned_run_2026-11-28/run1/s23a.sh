#!/bin/bash
# Session 23: the binned sum's CPU run loop (cl_new) against HEAD's kernel (cl_old), one binary
# (clrdx_s23) with RDX_KERNEL_DIR; PoCL on the Xeon: machine facts, per-core rates, objdump.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib RDX_CACHE_DIR=off
(lscpu; nproc; cat /proc/meminfo | head -3) > $OUT/lscpu.txt 2>&1
./clrdx_s23 devices > $OUT/devices.txt 2>&1
# correctness of the new kernel on PoCL 5 and the GPU
RDX_DEVICE=cpu timeout 300 ./rdx_device_tests_s23 --test-case='binned*' > $OUT/tests_cpu.txt 2>&1; echo "cpu tests rc $?" >> $OUT/tests_cpu.txt
RDX_DEVICE=gpu timeout 200 ./rdx_device_tests_s23 --test-case='binned*' > $OUT/tests_gpu.txt 2>&1; echo "gpu tests rc $?" >> $OUT/tests_gpu.txt
# objdump of both kernels as PoCL 5 compiles them
for k in old new; do
  rm -rf /tmp/pc_$k; POCL_CACHE_DIR=/tmp/pc_$k RDX_KERNEL_DIR=$PWD/cl_$k ./clrdx_s23 bench --device cpu --strategy auto --determinism any_device --data random --sizes 1Mi --repeat 1 --type f32 >/dev/null 2>&1
  f=$(find /tmp/pc_$k -path '*binned_partial*' -name '*.so' | head -1); objdump -d --no-show-raw-insn "$f" > $OUT/bp_$k.s 2>&1
done
# alternating rounds, all 16 CUs and 1 CU
for r in 1 2 3; do for cu in 16 1; do for k in old new; do for t in f32 f64; do
  s=16Mi,64Mi; [ $cu = 1 ] && s=16Mi
  POCL_CPU_MAX_CU_COUNT=$cu RDX_KERNEL_DIR=$PWD/cl_$k ./clrdx_s23 bench --device cpu --strategy auto --determinism run_to_run,any_device --data random --sizes $s --repeat 10 --type $t --json $OUT/p.jsonl >/dev/null 2>>$OUT/err.txt
  sed "s/^{/{\"round\":$r,\"label\":\"$k:cu$cu\",/" $OUT/p.jsonl >> $OUT/bin.jsonl
done; done; done; done
rm -f $OUT/p.jsonl
python3 ../tab.py $OUT/bin.jsonl | tee $OUT/table.txt   # tab.py beside the runs
