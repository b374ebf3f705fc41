#!/bin/bash
# Session 30, tenth call: the first configuration a process measures, on the host's Xeon (PoCL 5):
# the same layouts twice in one command (segments, f32 sum and max, 2^26), and the same size twice
# (flat, run_to_run and any_device, f32 2^26), 3 rounds.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib RDX_CACHE_DIR=off
start=$(date +%s)
for r in 1 2 3; do
  for op in sum max; do
    ./clrdx_cur bench --device cpu --type f32 --op $op --layouts uniform:64,uniform:256,uniform:1024,uniform:64,uniform:256,uniform:1024 --sizes 64Mi --repeat 10 --json /tmp/p.jsonl > /dev/null 2>> /tmp/err.txt
    sed "s/^{/{\"ab_round\":$r,/" /tmp/p.jsonl >> $OUT/seg.jsonl
  done
  ./clrdx_cur bench --device cpu --strategy auto --determinism run_to_run,any_device --data random --sizes 64Mi,64Mi --repeat 10 --type f32 --json /tmp/p.jsonl >/dev/null 2>>/tmp/err.txt
  sed "s/^{/{\"ab_round\":$r,/" /tmp/p.jsonl >> $OUT/bin.jsonl
  echo "round $r at $(( $(date +%s) - start )) s" >> $OUT/log.txt
  [ $(( $(date +%s) - start )) -gt 200 ] && break
done
grep -v "^bench:" /tmp/err.txt | head > $OUT/err.txt
