#!/bin/bash
# Flat 2^16..2^26: the last group's atomic finish (base) against a second one-group launch (RDX_X_TWOK), vs CUB.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib RDX_CACHE_DIR=$PWD/rdxcache
[ -x cub_reduce ] || nvcc -O3 -std=c++17 -arch=sm_90 -I/usr/local/cuda/include/cccl cub_reduce.cu -o cub_reduce || exit 1
S=65536,262144,1048576,4194304,16777216,67108864
C="256:8:2:0 256:8:4:0 256:4:2:0"
for r in 1 2 3 4; do
  ./cub_reduce 26 | sed "s/^{/{\"round\":$r,\"label\":\"cub\",/" >> $OUT/flat_cub.jsonl
  ./probe_x grid gpu 2 $S $C | sed "s/^{/{\"r\":$r,\"label\":\"base\",/" >> $OUT/grid.jsonl
  RDX_X_TWOK=1 ./probe_x grid gpu 2 $S $C | sed "s/^{/{\"r\":$r,\"label\":\"twok\",/" >> $OUT/grid.jsonl
done
echo grid at $SECONDS
for r in 1 2 3; do
  for v in base twok; do
    for to in f32:sum i32:sum f32:max f64:sum i32:argmax; do
      env $([ $v = twok ] && echo RDX_X_TWOK=1) ./clrdx_x bench --device gpu --strategy auto --type ${to%%:*} --op ${to##*:} --sizes $S --repeat 200 --peak 3350 --json $OUT/p.jsonl > /dev/null 2>$OUT/err.txt || cat $OUT/err.txt
      sed "s/^{/{\"round\":$r,\"label\":\"$v\",/" $OUT/p.jsonl >> $OUT/flat_clrdx.jsonl
    done
  done
  ./cub_reduce 26 | sed "s/^{/{\"round\":$r,\"label\":\"cub2\",/" >> $OUT/flat_cub.jsonl
done
echo flat at $SECONDS
