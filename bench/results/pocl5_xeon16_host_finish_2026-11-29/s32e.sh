#!/bin/bash
# Session 32, fifth call: any_device (clrdx_new2) and run_to_run against work-groups per compute
# unit (8, 16, 32) at 2^24, 2^26 and 2^28 elements on the host's Xeon (PoCL 5), f32 and f64, 4
# rounds with the order of the grids reversed on alternate rounds, after half a minute of
# discarded commands.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib RDX_CACHE_DIR=off
start=$(date +%s)
while [ $(( $(date +%s) - start )) -lt 30 ]; do
  ./clrdx_new2 bench --device cpu --strategy auto --determinism run_to_run,any_device --data random --sizes 16Mi --repeat 10 --type f32 >/dev/null 2>>/tmp/err.txt
done
r=0
for order in "8,16,32" "32,16,8" "8,16,32" "32,16,8"; do
  r=$((r + 1))
  for t in f32 f64; do
    ./clrdx_new2 bench --device cpu --strategy auto --determinism run_to_run,any_device --data random --sizes 16Mi,64Mi,256Mi --repeat 10 --type $t --groups-per-cu $order --json /tmp/p.jsonl >/dev/null 2>>/tmp/err.txt
    sed "s/^{/{\"ab_round\":$r,/" /tmp/p.jsonl >> $OUT/grid.jsonl
  done
  echo "round $r at $(( $(date +%s) - start )) s" >> $OUT/log.txt
  [ $(( $(date +%s) - start )) -gt 400 ] && break
done
grep -v "^bench:" /tmp/err.txt | head > $OUT/err.txt
