#!/bin/bash
# 1099c5f on the H100: device tests of the cap, then argmax/prod (one element a load) at 2^18..2^20, old vs new.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib RDX_CACHE_DIR=$PWD/rdxcache
RDX_DEVICE=gpu timeout 150 ./rdx_device_tests "--test-case=fast_*,*finish*,custom: fast_strided*,custom: transform*" > $OUT/gpu_tests.txt 2>&1; echo "tests rc $?"; tail -3 $OUT/gpu_tests.txt
S=262144,524288,1048576
for r in 1 2 3 4; do
  for v in old new; do
    for to in f32:argmax i32:argmin f32:prod f32:sum; do
      ./clrdx_$v bench --device gpu --strategy auto --type ${to%%:*} --op ${to##*:} --sizes $S --repeat 200 --peak 3350 --json $OUT/p.jsonl > /dev/null 2>$OUT/err.txt || cat $OUT/err.txt
      sed "s/^{/{\"round\":$r,\"label\":\"$v\",/" $OUT/p.jsonl >> $OUT/flat_clrdx.jsonl
    done
  done
done
echo flat at $SECONDS
