#!/bin/bash
# The H200: any_device against run_to_run, and segments by offsets against CUB, one command.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib RDX_CACHE_DIR=off
nvidia-smi -L | tee $OUT/gpu.txt
nvcc -O3 -std=c++17 -arch=sm_90 -I/usr/local/cuda/include/cccl cub_segmented_reduce.cu -o cub_seg &
for t in f32 f64; do
  ./clrdx_new bench --device gpu --strategy auto --determinism run_to_run,any_device --data random --sizes 64Mi,256Mi,1Gi --repeat 10 --type $t 2>/dev/null | tee -a $OUT/binned.txt
done
wait
L=uniform:1024,uniform:4096,uniform:16384,uniform:65536,uniform:262144,uniform:1048576,powerlaw
for r in 1 2; do
  timeout 100 ./cub_seg 28 | sed "s/^{/{\"round\":$r,\"label\":\"cub\",/" >> $OUT/seg.jsonl
  for to in f32:sum i32:sum f32:max; do
    ./clrdx_new bench --device gpu --type ${to%%:*} --op ${to##*:} --layouts $L --sizes 256Mi --repeat 10 --json $OUT/p.jsonl >/dev/null 2>$OUT/err.txt || cat $OUT/err.txt
    sed "s/^{/{\"round\":$r,\"label\":\"clrdx\",/" $OUT/p.jsonl >> $OUT/seg.jsonl
  done
  python3 tab.py $OUT/seg.jsonl cub,clrdx | grep -v "nan" > $OUT/seg_table.md
  echo "round $r at $SECONDS s"
done
for t in f32; do
  ./clrdx_new bench --device gpu --strategy auto --determinism run_to_run,any_device --data random --sizes 64Mi,256Mi,1Gi --repeat 10 --type $t 2>/dev/null | tee -a $OUT/binned.txt
done
cat $OUT/seg_table.md
