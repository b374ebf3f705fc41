#!/bin/bash
# Flat auto against CUB on the device machine: clrdx_old (built between c7eb343 and aa26d19: the
# flat path of b6b900f) and clrdx_new, alternating, after the GPU device tests of the flat path.
# Beside the binaries, cub_reduce.cu and lib/. S=sizes, OPS=type:op list, CUB=0 skips CUB
# (items16/: the defaults; scalar/: see README.md).
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib RDX_CACHE_DIR=$PWD/rdxcache
nvidia-smi -L
TESTS=${TESTS:-fast_*,*finish*,auto*,documented*,custom: fast_strided*,custom: transform*}
RDX_DEVICE=gpu timeout 200 ./rdx_device_tests "--test-case=$TESTS" > $OUT/gpu_tests.txt 2>&1; echo "tests rc $?"; tail -3 $OUT/gpu_tests.txt
S=${S:-1024,4096,16384,65536,262144,524288,1048576,2097152,4194304,16777216,67108864}
OPS=${OPS:-f32:sum i32:sum f32:max f64:sum}
CUB=${CUB:-1}
[ "$CUB" = 0 ] || [ -x cub_reduce ] || nvcc -O3 -std=c++17 -arch=sm_90 -I/usr/local/cuda/include/cccl cub_reduce.cu -o cub_reduce || exit 1
for r in 1 2 3 4; do
  [ "$CUB" = 0 ] || ./cub_reduce 26 | sed "s/^{/{\"round\":$r,\"label\":\"cub\",/" >> $OUT/flat_cub.jsonl
  for v in old new; do
    for to in $OPS; do
      ./clrdx_$v bench --device gpu --strategy auto --type ${to%%:*} --op ${to##*:} --sizes $S --repeat 200 --peak 3350 --json $OUT/p.jsonl > /dev/null 2>$OUT/err.txt || cat $OUT/err.txt
      sed "s/^{/{\"round\":$r,\"label\":\"$v\",/" $OUT/p.jsonl >> $OUT/flat_clrdx.jsonl
    done
  done
done
echo flat at $SECONDS
