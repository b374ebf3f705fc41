#!/bin/bash
# Session 26, second call: clrdx with 4 lanes for f64 by default. (1) the grid sweep for both
# types at 2^26..2^30 (lanes 2/4/8 x unroll 2/4/8 x groups a CU 2/4); (2) the three levels at
# their defaults in one command per type, 3 alternating rounds.
set -u
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib
start=$(date +%s)
CLRDX=$PWD/clrdx_s26b RDX_BENCH_OUT=/tmp/sw LANES=2,4,8 UNROLL=2,4,8 GPC=2,4 \
  bash ../../bench/sweep_binned.sh gpu 64Mi,256Mi,1Gi f32,f64 > $OUT/sweep.txt 2>&1
echo "sweep exit $? at $(( $(date +%s) - start )) s" >> $OUT/sweep.txt
cat /tmp/sw/binned_sweep_*.jsonl > $OUT/sweep_rows.jsonl
export RDX_CACHE_DIR=off
for t in f32 f64; do
  ./clrdx_s26b bench --device gpu --strategy auto --determinism run_to_run,any_device,exact --data random \
    --sizes 64Mi,256Mi,1Gi --repeat 10 --peak 4800 --rounds 3 --type $t --json /tmp/l_$t.jsonl > /dev/null 2>> $OUT/err.txt
  cat /tmp/l_$t.jsonl >> $OUT/levels.jsonl
  echo "levels $t at $(( $(date +%s) - start )) s" >> $OUT/sweep.txt
done
