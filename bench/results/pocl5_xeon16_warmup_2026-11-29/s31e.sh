#!/bin/bash
# Session 31, fifth call: what PoCL 5 built for any_device's binned_partial on the host's Xeon
# (f32 and f64): the kernel libraries from a fresh PoCL cache, their vector registers counted and
# the binned_partial workgroup function disassembled.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib RDX_CACHE_DIR=off POCL_CACHE_DIR=/tmp/pc31
rm -rf /tmp/pc31
for t in f32 f64; do
  ./clrdx_cur bench --device cpu --strategy auto --determinism any_device --data random --sizes 1Mi --repeat 3 --type $t > /dev/null 2>&1
done
for so in $(find /tmp/pc31 -name "*.so"); do
  if nm -D "$so" 2>/dev/null | grep -q binned_partial || objdump -d "$so" | grep -q "binned_partial"; then
    echo "== $so" >> $OUT/regs.txt
    objdump -d --no-show-raw-insn "$so" > /tmp/d.s
    echo "zmm $(grep -c zmm /tmp/d.s) ymm $(grep -c ymm /tmp/d.s) xmm $(grep -c xmm /tmp/d.s) lines $(wc -l < /tmp/d.s)" >> $OUT/regs.txt
    grep -E "^[0-9a-f]+ <" /tmp/d.s | head -20 >> $OUT/regs.txt
    n=$(ls $OUT | grep -c "^binned_")
    cp /tmp/d.s $OUT/binned_$n.s
  fi
done
find /tmp/pc31 -name "*.so" | head -20 >> $OUT/regs.txt
# The native fixed-bin loop and the plain sum at every thread count (the probe's own 1, 2, 4, 8, 16),
# 2^24 and 2^26, twice, after a discarded run.
g++ -O3 -march=skylake-avx512 -mprefer-vector-width=512 -fopenmp probe_binned_native.cpp -o /tmp/binned_native_probe
OMP_PROC_BIND=close /tmp/binned_native_probe 26 > /dev/null
for r in 1 2; do for lg in 24 26; do OMP_PROC_BIND=close /tmp/binned_native_probe $lg | sed "s/^/r$r n=2^$lg /" >> $OUT/native.txt; done; done
{ lscpu; cat /sys/devices/system/cpu/cpu0/topology/thread_siblings_list; cat /sys/devices/system/cpu/cpu0/topology/core_cpus_list 2>/dev/null; } > $OUT/cpu.txt 2>&1
