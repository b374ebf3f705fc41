#!/bin/bash
# Session 31, first call: HEAD's clrdx (89c2064's code: a quarter second of warm-up a configuration,
# any_device at 8 work-items a compute unit on CPUs) on the host's Xeon (PoCL 5). First, the same
# size twice in one command (f32 at 2^26, both levels), 2 rounds: does the warm-up make the first
# configuration like the second? Then any_device against run_to_run, f32 and f64 at 2^24, 2^26,
# 2^28, rounds with the sizes' order reversed every other round; the native fixed-bin probe at 2^26
# and 2^28 in the first and last rounds.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib RDX_CACHE_DIR=off
start=$(date +%s)
g++ -O3 -march=skylake-avx512 -mprefer-vector-width=512 -fopenmp probe_binned_native.cpp -o /tmp/binned_native_probe 2>> $OUT/log.txt
for r in 1 2; do
  ./clrdx_cur bench --device cpu --strategy auto --determinism run_to_run,any_device --data random --sizes 64Mi,64Mi --repeat 10 --type f32 --json /tmp/p.jsonl >/dev/null 2>>/tmp/err.txt
  sed "s/^{/{\"ab_round\":$r,/" /tmp/p.jsonl >> $OUT/twice.jsonl
done
echo "twice at $(( $(date +%s) - start )) s" >> $OUT/log.txt
native() { for lg in 26 28; do OMP_PROC_BIND=close /tmp/binned_native_probe $lg | grep "threads 16" | sed "s/^/r$1 n=2^$lg /" >> $OUT/native.txt; done; }
native 1
for r in 1 2 3 4 5 6 7 8; do
  if [ $((r % 2)) = 1 ]; then S=16Mi,64Mi,256Mi; else S=256Mi,64Mi,16Mi; fi
  for t in f32 f64; do
    ./clrdx_cur bench --device cpu --strategy auto --determinism run_to_run,any_device --data random --sizes $S --repeat 10 --type $t --json /tmp/p.jsonl >/dev/null 2>>/tmp/err.txt
    sed "s/^{/{\"ab_round\":$r,/" /tmp/p.jsonl >> $OUT/bin.jsonl
  done
  echo "round $r at $(( $(date +%s) - start )) s" >> $OUT/log.txt
  [ $(( $(date +%s) - start )) -gt 440 ] && break
done
native last
echo "end at $(( $(date +%s) - start )) s" >> $OUT/log.txt
grep -v "^bench:" /tmp/err.txt | head > $OUT/err.txt
