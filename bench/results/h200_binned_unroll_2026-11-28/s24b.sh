#!/bin/bash
# Session 24, second call: the fixed-bin sum's unroll x lanes on the GPU, mod:7 data (the
# deposits' instructions do not depend on the values), one JSON file a run, alternating rounds.
set -u
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib RDX_CACHE_DIR=off
start=$(date +%s)
mkdir -p $OUT/j
B="./clrdx_s24 bench --device gpu --strategy auto --data mod:7 --sizes 256Mi,1Gi --repeat 20 --peak 4800"
run() { # label type args...
  local l=$1 t=$2; shift 2
  $B --type $t --label $l --json $OUT/j/$l.$t.jsonl "$@" > /dev/null 2>> $OUT/err.txt || echo "fail $l $t" >> $OUT/err.txt
}
for round in 1 2; do
  run rtr_r$round f32 --determinism run_to_run
  for v in l4u1 l4u2 l4u4 l4u8 l8u1 l8u2 l8u4 l2u4; do
    run ${v}_r$round f32 --determinism any_device --vw ${v:1:1} --unroll ${v:3:1}
  done
  echo "f32 round $round at $(( $(date +%s) - start )) s" | tee -a $OUT/progress.txt
done
for round in 1 2; do
  run rtr_r$round f64 --determinism run_to_run
  for v in l8u1 l8u2 l8u4 l4u2; do
    run ${v}_r$round f64 --determinism any_device --vw ${v:1:1} --unroll ${v:3:1}
  done
  echo "f64 round $round at $(( $(date +%s) - start )) s" | tee -a $OUT/progress.txt
done
