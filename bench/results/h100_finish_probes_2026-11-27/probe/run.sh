#!/bin/bash
# Session 22: (1) plain-OpenCL probe of groups and kernel length, read enqueued at once vs after
# polling the kernel's event; (2) flat auto vs CUB, HEAD vs RDX_X_KWAIT; (3) segmented tunables.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib RDX_CACHE_DIR=$PWD/rdxcache
nvidia-smi -L
g++ -O2 -std=c++17 probe_group_cost.cpp -lOpenCL -o pgc || exit 1
nvcc -O3 -std=c++17 -arch=sm_90 -I/usr/local/cuda/include/cccl cub_reduce.cu -o cub_reduce || exit 1
nvcc -O3 -std=c++17 -arch=sm_90 -I/usr/local/cuda/include/cccl cub_segmented_reduce.cu -o cub_seg || exit 1
echo built at $SECONDS
for r in 1 2 3; do
  ./pgc 1,2,4,8,16,32,64,128,256,512,1024 | sed "s/^{\"groups\"/{\"round\":$r,\"groups\"/" >> $OUT/groups.jsonl
  ./pgc spin 0,30,100,300,1000,3000,10000,30000 | sed "s/^{\"iters\"/{\"round\":$r,\"iters\"/" >> $OUT/spin.jsonl
done
echo probes at $SECONDS
S=1024,4096,16384,65536,262144,1048576,4194304,16777216
for r in 1 2 3 4 5; do
  ./cub_reduce 24 | sed "s/^{/{\"round\":$r,\"label\":\"cub\",/" >> $OUT/flat_cub.jsonl
  for v in base kw; do
    for to in f32:sum i32:sum f32:max; do
      env $([ $v = kw ] && echo RDX_X_KWAIT=1) ./clrdx_kw bench --device gpu --strategy auto --type ${to%%:*} --op ${to##*:} --sizes $S --repeat 200 --peak 3350 --json $OUT/p.jsonl > /dev/null 2>$OUT/err.txt || cat $OUT/err.txt
      sed "s/^{/{\"round\":$r,\"label\":\"$v\",/" $OUT/p.jsonl >> $OUT/flat_clrdx.jsonl
    done
  done
done
echo flat at $SECONDS
L=uniform:4096,uniform:16384,uniform:65536,uniform:262144,uniform:1048576
for r in 1 2; do
  ./cub_seg 28 | sed "s/^{/{\"round\":$r,\"label\":\"cub\",/" >> $OUT/seg_cub.jsonl
  for c in base kw wg512 wg128 u2 u8 parts1 lanes128; do
    case $c in
      base|kw) a="";; wg512) a="--wg 512";; wg128) a="--wg 128";; u2) a="--seg-unroll 2";;
      u8) a="--seg-unroll 8";; parts1) a="--parts 1";; lanes128) a="--lanes 128";;
    esac
    env $([ $c = kw ] && echo RDX_X_KWAIT=1) ./clrdx_kw bench --device gpu --type f32 --op sum --layouts $L --sizes 256Mi --repeat 10 $a --json $OUT/p.jsonl > /dev/null 2>$OUT/err.txt || { echo "$c failed"; cat $OUT/err.txt; }
    sed "s/^{/{\"round\":$r,\"label\":\"$c\",/" $OUT/p.jsonl >> $OUT/seg_clrdx.jsonl
  done
  echo "seg round $r at $SECONDS"
done
