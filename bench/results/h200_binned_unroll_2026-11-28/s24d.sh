#!/bin/bash
# Session 24, fourth call: random data (the earlier measurements' data), unroll 1 against 4, one round.
set -u
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib RDX_CACHE_DIR=off
start=$(date +%s)
B="./clrdx_s24 bench --device gpu --strategy auto --data random --sizes 256Mi,1Gi --repeat 20 --peak 4800"
run() { # label type args...
  local l=$1 t=$2; shift 2
  rm -f /tmp/row.jsonl
  $B --type $t --label $l --json /tmp/row.jsonl "$@" > /dev/null 2>> /tmp/err.txt || echo "fail $l $t" >> $OUT/fail.txt
  cat /tmp/row.jsonl >> $OUT/all.jsonl
}
run rtr f32 --determinism run_to_run
run l4u1 f32 --determinism any_device --vw 4 --unroll 1
run l4u4 f32 --determinism any_device --vw 4 --unroll 4
run rtr f64 --determinism run_to_run
run l8u1 f64 --determinism any_device --vw 8 --unroll 1
run l8u4 f64 --determinism any_device --vw 8 --unroll 4
echo "done at $(( $(date +%s) - start )) s"
