#!/bin/bash
# Session 27, first call: the host's Xeon (PoCL 5): the wide form's work-group size (16, the
# default, against 32, 64, 128) on segments of 1024..65536 and the power-law mix, f32/i32 sums and
# f32 max, 2^26 elements, 2 alternating rounds, beside the native loop.
set -u
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib RDX_CACHE_DIR=off
start=$(date +%s)
lscpu | grep -E "Model name|^CPU\(s\)" > $OUT/log.txt
g++ -O3 -march=native -fopenmp -std=c++17 native_cpu_segmented.cpp -o /tmp/native_seg 2>> $OUT/log.txt
L=uniform:512,uniform:1024,uniform:4096,uniform:16384,uniform:65536,powerlaw
for r in 1 2; do
  /tmp/native_seg 26 | grep -E "uniform:(512|1024|4096|16384|65536)\"|powerlaw" | sed "s/^{/{\"ab_round\":$r,\"label\":\"native\",/" >> $OUT/all.jsonl
  for wg in 16 32 64 128; do
    for to in "f32 sum" "i32 sum" "f32 max"; do
      set -- $to
      ./clrdx_s27a bench --device cpu --type $1 --op $2 --wg $wg --layouts $L --sizes 64Mi --repeat 10 --json /tmp/p.jsonl > /dev/null 2>> /tmp/err.txt
      sed "s/^{/{\"ab_round\":$r,\"label\":\"wg$wg\",/" /tmp/p.jsonl >> $OUT/all.jsonl
    done
  done
  echo "round $r at $(( $(date +%s) - start )) s" >> $OUT/log.txt
done
grep -v "^bench:" /tmp/err.txt | head > $OUT/err.txt
