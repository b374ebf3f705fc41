#!/bin/bash
# Session 30, seventh call: PoCL's thread pinning (POCL_AFFINITY=1) for any_device and run_to_run
# on the host's Xeon (PoCL 5), HEAD's clrdx at its defaults, f32 and f64 at 2^26 and 2^28, 4 rounds
# alternating unpinned / pinned (order swapped every round); the native probe with and without
# OMP_PROC_BIND=close in rounds 1 and 4.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib RDX_CACHE_DIR=off
start=$(date +%s)
g++ -O3 -march=skylake-avx512 -mprefer-vector-width=512 -fopenmp probe_binned_native.cpp -o /tmp/binned_native_probe 2>> $OUT/log.txt
for r in 1 2 3 4; do
  if [ $r = 1 ] || [ $r = 4 ]; then
    for lg in 26 28; do
      OMP_PROC_BIND=close /tmp/binned_native_probe $lg | grep "threads 16" | sed "s/^/r$r bind=close n=2^$lg /" >> $OUT/native.txt
      /tmp/binned_native_probe $lg | grep "threads 16" | sed "s/^/r$r bind=none n=2^$lg /" >> $OUT/native.txt
    done
  fi
  order="0 1"; [ $((r % 2)) = 0 ] && order="1 0"
  for aff in $order; do
    for t in f32 f64; do
      POCL_AFFINITY=$aff ./clrdx_cur bench --device cpu --strategy auto --determinism run_to_run,any_device --data random --sizes 64Mi,256Mi --repeat 10 --type $t --json /tmp/p.jsonl >/dev/null 2>>/tmp/err.txt
      sed "s/^{/{\"ab_round\":$r,\"affinity\":$aff,/" /tmp/p.jsonl >> $OUT/bin.jsonl
    done
  done
  echo "round $r at $(( $(date +%s) - start )) s" >> $OUT/log.txt
  [ $(( $(date +%s) - start )) -gt 400 ] && break
done
grep -v "^bench:" /tmp/err.txt | head > $OUT/err.txt
