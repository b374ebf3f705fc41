#!/bin/bash
# Session 30, ninth call: is it the grid or the order? --groups-per-cu lists in two orders
# (16,4,32,8 and 4,16,8,32: each value its own rows, measured in the list's order) and a default
# command, f32 and f64 at 2^26, both levels, 3 rounds, on the host's Xeon (PoCL 5).
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib RDX_CACHE_DIR=off
start=$(date +%s)
for r in 1 2 3; do
  for t in f32 f64; do
    for o in default 16,4,32,8 4,16,8,32; do
      g=""; [ $o != default ] && g="--groups-per-cu $o"
      ./clrdx_cur bench --device cpu --strategy auto --determinism run_to_run,any_device $g --data random --sizes 64Mi --repeat 10 --type $t --json /tmp/p.jsonl >/dev/null 2>>/tmp/err.txt
      sed "s/^{/{\"ab_round\":$r,\"label\":\"$o\",/" /tmp/p.jsonl >> $OUT/bin.jsonl
    done
  done
  echo "round $r at $(( $(date +%s) - start )) s" >> $OUT/log.txt
  [ $(( $(date +%s) - start )) -gt 280 ] && break
done
grep -v "^bench:" /tmp/err.txt | head > $OUT/err.txt
