#!/bin/bash
# Session 31, sixth call: f32 max of short segments on the host's Xeon (PoCL 5), HEAD's clrdx
# (clrdx_cur) against the same with the float min/max vector combine written as
# select(select(b, a, a > b), a, a != a) (clrdx_new31: the same function, one comparison for the
# NaN test instead of isnan's integer add and compare), segments of 64, 256 and 1024 at 2^26 and
# 2^28, rounds with the order swapped every round (ABBA), after half a minute of discarded commands;
# the native loop (its max does not propagate NaN) at both sizes in the first and last rounds.
set -u
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib RDX_CACHE_DIR=off
start=$(date +%s)
g++ -O3 -march=native -fopenmp -std=c++17 native_seg_some.cpp -o /tmp/nss 2>> $OUT/log.txt
L=uniform:64,uniform:256,uniform:1024
while [ $(( $(date +%s) - start )) -lt 30 ]; do
  ./clrdx_cur bench --device cpu --type f32 --op max --layouts $L --sizes 64Mi --repeat 10 > /dev/null 2>> /tmp/err.txt
done
echo "discarded until $(( $(date +%s) - start )) s" >> $OUT/log.txt
native() { for lg in 26 28; do NATIVE_LAYOUTS=$L /tmp/nss $lg | grep '"max"' | grep '"f32"' | sed "s/^{/{\"ab_round\":$1,\"label\":\"native\",/" >> $OUT/all.jsonl; done; }
native 0
for r in 1 2 3 4 5 6 7 8 9 10; do
  order="cur new31"; [ $((r % 2)) = 0 ] && order="new31 cur"
  for lg in 26 28; do
    for v in $order; do
      ./clrdx_$v bench --device cpu --type f32 --op max --layouts $L --sizes $((1 << lg)) --repeat 10 --json /tmp/p.jsonl > /dev/null 2>> /tmp/err.txt
      sed "s/^{/{\"ab_round\":$r,\"label\":\"$v\",/" /tmp/p.jsonl >> $OUT/all.jsonl
    done
  done
  echo "round $r at $(( $(date +%s) - start )) s" >> $OUT/log.txt
  [ $(( $(date +%s) - start )) -gt 290 ] && break
done
native 99
echo "end at $(( $(date +%s) - start )) s" >> $OUT/log.txt
grep -v "^bench:" /tmp/err.txt | head > $OUT/err.txt
