#!/bin/bash
# Session 33, second call: H200, where a small flat call's device time goes. auto's plans at 2^10
# and 2^12 (reduce --json), then auto (clrdx_old, abe6ec6) with work-groups of 32 to 1024 and
# vector widths 1 and 4, f32 and i32 sums, 2^10 and 2^12, 300 calls a row, 2 rounds a command, and
# the empty launch + read (roundtrip_us); CUB (bench/yardsticks/run_nvidia.sh 12) before and after.
cd "$(dirname "$0")"; m=$PWD
export LD_LIBRARY_PATH=$m/lib RDX_CACHE_DIR=off PATH=$PATH:/usr/local/cuda/bin
nvidia-smi -L > $OUT/gpu.txt; nvidia-smi --query-gpu=driver_version --format=csv >> $OUT/gpu.txt
for t in f32 i32 f64; do for n in 1Ki 4Ki 1Mi; do
  ./clrdx_old reduce --device gpu --type $t --op sum --generate mod:7 --count $n --json >> $OUT/plans.txt 2>&1
done; done
(cd ../.. && bench/yardsticks/run_nvidia.sh 12) > $OUT/cub1.jsonl 2>> $OUT/err.txt
for t in f32 i32; do
  for wg in 256 32 64 128 512 1024; do
    ./clrdx_old bench --device gpu --strategy auto --type $t --sizes 1Ki,4Ki --repeat 300 --rounds 2 --wg $wg --vw 1,4 --json /tmp/p.jsonl > /dev/null 2>> $OUT/err.txt
    sed "s/^{/{\"wg\":$wg,/" /tmp/p.jsonl >> $OUT/wg.jsonl
  done
  echo "$t done at $SECONDS s" >> $OUT/gpu.txt
done
(cd ../.. && bench/yardsticks/run_nvidia.sh 12) > $OUT/cub2.jsonl 2>> $OUT/err.txt
echo "done at $SECONDS s" >> $OUT/gpu.txt
