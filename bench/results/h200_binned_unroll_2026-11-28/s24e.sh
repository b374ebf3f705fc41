#!/bin/bash
# Session 24, fifth call: the build with unroll 4 by default, run_to_run and any_device in one
# command (same data), random data, 2^26..2^30, rounds until the time runs out.
set -u
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib RDX_CACHE_DIR=off
start=$(date +%s)
for round in 1 2; do
  for t in f32 f64; do
    rm -f /tmp/row.jsonl
    ./clrdx_s24e bench --device gpu --strategy auto --data random --sizes 64Mi,256Mi,1Gi --repeat 20 --peak 4800 \
      --type $t --determinism run_to_run,any_device --label r$round --json /tmp/row.jsonl > /dev/null 2>> /tmp/err.txt
    cat /tmp/row.jsonl >> $OUT/all.jsonl
    echo "$t round $round at $(( $(date +%s) - start )) s"
  done
done
