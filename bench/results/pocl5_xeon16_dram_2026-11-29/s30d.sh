#!/bin/bash
# Session 30, fourth call: the host's Xeon (PoCL 5): f32 max by offsets with HEAD's kernels
# (cl_old30) against the quick body for float min/max (cl_new30: the plain comparison first, the
# NaN-propagating VCOMBINE again only for a part that loaded a NaN), both through RDX_KERNEL_DIR
# with the same clrdx; segments of 64..65536 and the power-law mix at 2^26 and 2^28; f32 sum of
# 64 and 1024 (kernel unchanged) as the control; 3 alternating rounds, the native loop first.
set -u
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib RDX_CACHE_DIR=off
start=$(date +%s)
g++ -O3 -march=native -fopenmp -std=c++17 native_seg_some.cpp -o /tmp/nss 2>> $OUT/log.txt
L=uniform:64,uniform:256,uniform:1024,uniform:4096,uniform:16384,uniform:65536,powerlaw
for r in 1 2 3; do
  for lg in 26 28; do
    NATIVE_LAYOUTS=$L /tmp/nss $lg | grep '"max"' | sed "s/^{/{\"ab_round\":$r,\"label\":\"native\",/" >> $OUT/all.jsonl
    NATIVE_LAYOUTS=uniform:64,uniform:1024 /tmp/nss $lg | grep '"f32"' | grep '"sum"' | sed "s/^{/{\"ab_round\":$r,\"label\":\"native\",/" >> $OUT/all.jsonl
    for v in old new; do
      RDX_KERNEL_DIR=$PWD/cl_${v}30 ./clrdx_cur bench --device cpu --type f32 --op max --layouts $L --sizes $((1 << lg)) --repeat 10 --json /tmp/p.jsonl > /dev/null 2>> /tmp/err.txt
      sed "s/^{/{\"ab_round\":$r,\"label\":\"$v\",/" /tmp/p.jsonl >> $OUT/all.jsonl
      RDX_KERNEL_DIR=$PWD/cl_${v}30 ./clrdx_cur bench --device cpu --type f32 --op sum --layouts uniform:64,uniform:1024 --sizes $((1 << lg)) --repeat 10 --json /tmp/p.jsonl > /dev/null 2>> /tmp/err.txt
      sed "s/^{/{\"ab_round\":$r,\"label\":\"$v\",/" /tmp/p.jsonl >> $OUT/all.jsonl
    done
    echo "round $r n=2^$lg at $(( $(date +%s) - start )) s" >> $OUT/log.txt
    [ $(( $(date +%s) - start )) -gt 480 ] && break 2
  done
done
grep -v "^bench:" /tmp/err.txt | head > $OUT/err.txt
