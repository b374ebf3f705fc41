#!/bin/bash
# Session 32, third call: any_device (host finish, clrdx_new) and run_to_run against work-groups
# per compute unit (1, 2, 4, 8; one work-item each) from 2^10 to 2^24 on the host's Xeon (PoCL 5),
# f32 and f64, 4 rounds with the order of the grids reversed on alternate rounds, after half a
# minute of discarded commands: the fixed cost per work-group of the fixed-bin partial.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib RDX_CACHE_DIR=off
start=$(date +%s)
while [ $(( $(date +%s) - start )) -lt 30 ]; do
  ./clrdx_new bench --device cpu --strategy auto --determinism run_to_run,any_device --data random --sizes 16Mi --repeat 10 --type f32 >/dev/null 2>>/tmp/err.txt
done
r=0
for order in "1,2,4,8" "8,4,2,1" "1,2,4,8" "8,4,2,1"; do
  r=$((r + 1))
  for t in f32 f64; do
    ./clrdx_new bench --device cpu --strategy auto --determinism run_to_run,any_device --data random --sizes 1Ki,64Ki,1Mi,4Mi,16Mi --repeat 20 --type $t --groups-per-cu $order --json /tmp/p.jsonl >/dev/null 2>>/tmp/err.txt
    sed "s/^{/{\"ab_round\":$r,/" /tmp/p.jsonl >> $OUT/grid.jsonl
  done
  echo "round $r at $(( $(date +%s) - start )) s" >> $OUT/log.txt
  [ $(( $(date +%s) - start )) -gt 400 ] && break
done
grep -v "^bench:" /tmp/err.txt | head > $OUT/err.txt
