#!/bin/bash
# Session 31, second call: HEAD's clrdx (a quarter second of warm-up a configuration) on the host's
# Xeon (PoCL 5): segments by offsets of 64..65536 and the power-law mix against the native loop at
# 2^26 and 2^28, f32/i32 sums and f32 max, alternating rounds (as s30a). First one native run and
# one clrdx command, discarded: s31a found the instance's first half minute slow for every program.
set -u
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib RDX_CACHE_DIR=off
start=$(date +%s)
g++ -O3 -march=native -fopenmp -std=c++17 native_cpu_segmented.cpp -o /tmp/native_seg 2>> $OUT/log.txt
L=uniform:64,uniform:256,uniform:1024,uniform:4096,uniform:16384,uniform:65536,powerlaw
/tmp/native_seg 26 > /dev/null
./clrdx_cur bench --device cpu --type f32 --op sum --layouts $L --sizes 64Mi --repeat 10 > /dev/null 2>> /tmp/err.txt
echo "discarded warm-up until $(( $(date +%s) - start )) s" >> $OUT/log.txt
for r in 1 2 3; do
  for lg in 26 28; do
    /tmp/native_seg $lg | grep -E "uniform:(64|256|1024|4096|16384|65536)\"|powerlaw" | sed "s/^{/{\"ab_round\":$r,\"label\":\"native\",/" >> $OUT/all.jsonl
    echo "round $r native $lg at $(( $(date +%s) - start )) s" >> $OUT/log.txt
    for to in "f32 sum" "i32 sum" "f32 max"; do
      set -- $to
      ./clrdx_cur bench --device cpu --type $1 --op $2 --layouts $L --sizes $((1 << lg)) --repeat 10 --json /tmp/p.jsonl > /dev/null 2>> /tmp/err.txt
      sed "s/^{/{\"ab_round\":$r,\"label\":\"clrdx\",/" /tmp/p.jsonl >> $OUT/all.jsonl
    done
    echo "round $r clrdx $lg at $(( $(date +%s) - start )) s" >> $OUT/log.txt
    [ $(( $(date +%s) - start )) -gt 420 ] && break 2
  done
done
grep -v "^bench:" /tmp/err.txt | head > $OUT/err.txt
