#!/bin/bash
# Session 31, seventh call: any_device against run_to_run on the host's Xeon (PoCL 5) from 2^10 to
# 2^24 (f32), 4 rounds, after half a minute of discarded commands: how much of any_device's extra
# time is a fixed cost per call (its second launch, binned_finish) and how much grows with n.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib RDX_CACHE_DIR=off
start=$(date +%s)
while [ $(( $(date +%s) - start )) -lt 30 ]; do
  ./clrdx_cur bench --device cpu --strategy auto --determinism run_to_run,any_device --data random --sizes 16Mi --repeat 10 --type f32 >/dev/null 2>>/tmp/err.txt
done
for r in 1 2 3 4; do
  ./clrdx_cur bench --device cpu --strategy auto --determinism run_to_run,any_device --data random --sizes 1Ki,64Ki,1Mi,4Mi,16Mi --repeat 50 --type f32 --json /tmp/p.jsonl >/dev/null 2>>/tmp/err.txt
  sed "s/^{/{\"ab_round\":$r,/" /tmp/p.jsonl >> $OUT/bin.jsonl
  [ $(( $(date +%s) - start )) -gt 120 ] && break
done
echo "end at $(( $(date +%s) - start )) s" >> $OUT/log.txt
grep -v "^bench:" /tmp/err.txt | head > $OUT/err.txt
