#!/bin/bash
# Session 30, third call: the host's Xeon (PoCL 5): short segments by offsets (64, 128, 256) at
# 2^26 and 2^28, f32/i32 sums and f32 max: the default against work-groups of 256 and 1024 (and
# for f32 max 4 accumulators), 3 alternating rounds, the native loop on the same layouts first in
# each round.
set -u
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib RDX_CACHE_DIR=off
start=$(date +%s)
g++ -O3 -march=native -fopenmp -std=c++17 native_seg_some.cpp -o /tmp/nss 2>> $OUT/log.txt
L=uniform:64,uniform:128,uniform:256
for r in 1 2 3; do
  for lg in 26 28; do
    NATIVE_LAYOUTS=$L /tmp/nss $lg | sed "s/^{/{\"ab_round\":$r,\"label\":\"native\",/" >> $OUT/all.jsonl
    for cfg in default wg256 wg1024 u4; do
      case $cfg in default) o="";; wg256) o="--wg 256";; wg1024) o="--wg 1024";; u4) o="--seg-unroll 4";; esac
      for to in "f32 sum" "i32 sum" "f32 max"; do
        set -- $to
        [ $cfg = u4 ] && [ $2 = sum ] && continue
        ./clrdx_cur bench --device cpu --type $1 --op $2 $o --layouts $L --sizes $((1 << lg)) --repeat 10 --json /tmp/p.jsonl > /dev/null 2>> /tmp/err.txt
        sed "s/^{/{\"ab_round\":$r,\"label\":\"$cfg\",/" /tmp/p.jsonl >> $OUT/all.jsonl
      done
    done
    echo "round $r n=2^$lg at $(( $(date +%s) - start )) s" >> $OUT/log.txt
    [ $(( $(date +%s) - start )) -gt 500 ] && break 2
  done
done
grep -v "^bench:" /tmp/err.txt | head > $OUT/err.txt
