#!/bin/bash
cd /work/main/build
export RDX_DEVICE=cpu POCL_CACHE_DIR=/tmp/shortab/pc RDX_CACHE_DIR=off
L=uniform:64,uniform:128,uniform:256,rows:64,rows:256
for r in $(seq 10); do
  for v in "def:" "v16u2:--seg-vector 16 --seg-unroll 2"; do
    for to in f32:min f32:nanmax i32:max f64:max i32:xor f64:sum; do
      ./tools/clrdx/clrdx bench --device cpu --type ${to%%:*} --op ${to##*:} --layouts $L --sizes 16Mi --repeat 10 ${v#*:} --json /tmp/shortab/p.jsonl >/dev/null 2>/tmp/shortab/err || cat /tmp/shortab/err
      sed "s/^{/{\"round\":$r,\"label\":\"${v%%:*}\",/" /tmp/shortab/p.jsonl >> /tmp/shortab/all2.jsonl
    done
  done
done
