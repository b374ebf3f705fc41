#!/bin/bash
# Session 30, fifth call: the same two kernels as s30d (cl_old30, cl_new30), f32 max only, segments
# of 64, 1024 and 16384 and the power-law mix at 2^26 and 2^28, 8 rounds, the order of the two
# swapped every round (ABBA), to see past this machine's spread.
set -u
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib RDX_CACHE_DIR=off
start=$(date +%s)
L=uniform:64,uniform:1024,uniform:16384,powerlaw
for r in 1 2 3 4 5 6 7 8; do
  order="old new"; [ $((r % 2)) = 0 ] && order="new old"
  for lg in 26 28; do
    for v in $order; do
      RDX_KERNEL_DIR=$PWD/cl_${v}30 ./clrdx_cur bench --device cpu --type f32 --op max --layouts $L --sizes $((1 << lg)) --repeat 10 --json /tmp/p.jsonl > /dev/null 2>> /tmp/err.txt
      sed "s/^{/{\"ab_round\":$r,\"label\":\"$v\",/" /tmp/p.jsonl >> $OUT/all.jsonl
    done
  done
  echo "round $r at $(( $(date +%s) - start )) s" >> $OUT/log.txt
  [ $(( $(date +%s) - start )) -gt 420 ] && break
done
grep -v "^bench:" /tmp/err.txt | head > $OUT/err.txt
