#!/bin/bash
# Flat 2^18..2^22: grids capped at one group per work-item (host finish) up to RDX_X_HFCAP bytes, vs CUB.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib RDX_CACHE_DIR=$PWD/rdxcache
[ -x cub_reduce ] || nvcc -O3 -std=c++17 -arch=sm_90 -I/usr/local/cuda/include/cccl cub_reduce.cu -o cub_reduce || exit 1
S=262144,524288,1048576,2097152,4194304
for r in 1 2 3 4; do
  for v in base 4M 8M 16M; do
    for to in f32:sum i32:sum f32:max f64:sum u8:sum; do
      env $([ $v != base ] && echo RDX_X_HFCAP=$((${v%M} << 20))) ./clrdx_x bench --device gpu --strategy auto --type ${to%%:*} --op ${to##*:} --sizes $S --repeat 200 --peak 3350 --json $OUT/p.jsonl > /dev/null 2>$OUT/err.txt || cat $OUT/err.txt
      sed "s/^{/{\"round\":$r,\"label\":\"$v\",/" $OUT/p.jsonl >> $OUT/flat_clrdx.jsonl
    done
  done
  ./cub_reduce 22 | sed "s/^{/{\"round\":$r,\"label\":\"cub\",/" >> $OUT/flat_cub.jsonl
done
echo flat at $SECONDS
