#!/bin/bash
# Session 24, third call: as s24b, every row appended to one file ($OUT/all.jsonl).
set -u
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib RDX_CACHE_DIR=off
start=$(date +%s)
B="./clrdx_s24 bench --device gpu --strategy auto --data mod:7 --sizes 256Mi,1Gi --repeat 20 --peak 4800"
run() { # label type args...
  local l=$1 t=$2; shift 2
  rm -f /tmp/row.jsonl
  $B --type $t --label $l --json /tmp/row.jsonl "$@" > /dev/null 2>> /tmp/err.txt || echo "fail $l $t" >> $OUT/fail.txt
  cat /tmp/row.jsonl >> $OUT/all.jsonl
}
for round in 1 2; do
  for v in rtr l4u1 l4u2 l4u4 l4u8 l8u2; do
    if [ $v = rtr ]; then run rtr_r$round f32 --determinism run_to_run
    else run ${v}_r$round f32 --determinism any_device --vw ${v:1:1} --unroll ${v:3:1}; fi
  done
  echo "f32 round $round at $(( $(date +%s) - start )) s" | tee -a $OUT/progress.txt
done
for v in rtr l8u1 l8u2 l8u4; do
  if [ $v = rtr ]; then run rtr_r1 f64 --determinism run_to_run
  else run ${v}_r1 f64 --determinism any_device --vw ${v:1:1} --unroll ${v:3:1}; fi
done
echo "f64 at $(( $(date +%s) - start )) s" | tee -a $OUT/progress.txt
