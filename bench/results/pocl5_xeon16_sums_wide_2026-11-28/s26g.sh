#!/bin/bash
# Session 26, seventh call: the host's Xeon (PoCL): sums of short segments in 16-element loads on
# CPUs with 64-byte native vectors by default (clrdx_s26g) against the build before (clrdx_s26e,
# 4-element loads) and the native loop, 2^26 elements, 2 alternating rounds.
set -u
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib RDX_CACHE_DIR=off
start=$(date +%s)
lscpu | grep -E "Model name|^CPU\(s\)|Flags" | cut -c1-200 > $OUT/log.txt
./clrdx_s26g devices --json > $OUT/devices.json 2>&1
g++ -O3 -march=native -fopenmp -std=c++17 native_cpu_segmented.cpp -o /tmp/native_seg 2>> $OUT/log.txt
L=uniform:64,uniform:128,uniform:256,rows:256
for r in 1 2; do
  /tmp/native_seg 26 | grep -E "uniform:(64|128|256)\"" | grep "\"sum\"" | sed "s/^{/{\"ab_round\":$r,\"label\":\"native\",/" >> $OUT/all.jsonl
  for v in s26e s26g; do
    for t in f32 i32; do
      ./clrdx_$v bench --device cpu --type $t --op sum --layouts $L --sizes 64Mi --repeat 10 --json /tmp/p.jsonl > /dev/null 2>> /tmp/err.txt
      sed "s/^{/{\"ab_round\":$r,\"label\":\"$v\",/" /tmp/p.jsonl >> $OUT/all.jsonl
    done
  done
  echo "round $r at $(( $(date +%s) - start )) s" >> $OUT/log.txt
done
grep -v "^bench:" /tmp/err.txt | head > $OUT/err.txt
