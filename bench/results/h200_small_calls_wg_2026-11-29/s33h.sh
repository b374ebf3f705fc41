#!/bin/bash
# Session 33, eleventh call: H200, small flat calls at the plan's work-group size (256) against
# 64 (--wg 64), f32/i32/f64 sums and f32 max, 2^10 to 2^18, 300 calls a row, with CUB
# (bench/yardsticks/run_nvidia.sh 18) in every round; rounds alternate the order, up to 4 while
# under 200 s.
cd "$(dirname "$0")"; m=$PWD
export LD_LIBRARY_PATH=$m/lib RDX_CACHE_DIR=off PATH=$PATH:/usr/local/cuda/bin
o=/tmp/o33h; rm -rf $o; mkdir -p $o
nvidia-smi -L > $o/gpu.txt
r=0
for order in "256 64" "64 256" "256 64" "64 256"; do
  r=$((r + 1))
  (cd ../.. && bench/yardsticks/run_nvidia.sh 18) 2>> $o/err.txt | sed "s/^{/{\"ab_round\":$r,/" >> $o/cub.jsonl
  for w in $order; do
    for to in f32:sum i32:sum f64:sum f32:max; do
      ./clrdx_old bench --device gpu --strategy auto --type ${to%%:*} --op ${to##*:} --sizes 1Ki,4Ki,16Ki,64Ki,256Ki --repeat 300 --wg $w --json /tmp/p.jsonl > /dev/null 2>> $o/err.txt
      sed "s/^{/{\"ab_round\":$r,\"wg\":$w,/" /tmp/p.jsonl >> $o/flat.jsonl
    done
  done
  echo "round $r at $SECONDS s" >> $o/gpu.txt
  [ $SECONDS -gt 200 ] && break
done
tar czf $OUT/out.tgz -C /tmp o33h
