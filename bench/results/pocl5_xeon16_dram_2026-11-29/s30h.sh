#!/bin/bash
# Session 30, eighth call: any_device's work-items a compute unit on the host's Xeon (PoCL 5):
# --groups-per-cu 4 (the CPU default), 8, 16, 32 in one command (each value its own rows; it bounds
# run_to_run's grid too), f32 at 2^26 and 2^28, 3 rounds, a default command (no flag) first.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib RDX_CACHE_DIR=off
start=$(date +%s)
for r in 1 2 3; do
  ./clrdx_cur bench --device cpu --strategy auto --determinism run_to_run,any_device --data random --sizes 64Mi,256Mi --repeat 10 --type f32 --json /tmp/p.jsonl >/dev/null 2>>/tmp/err.txt
  sed "s/^{/{\"ab_round\":$r,\"label\":\"default\",/" /tmp/p.jsonl >> $OUT/bin.jsonl
  ./clrdx_cur bench --device cpu --strategy auto --determinism run_to_run,any_device --groups-per-cu 4,8,16,32 --data random --sizes 64Mi,256Mi --repeat 10 --type f32 --json /tmp/p.jsonl >/dev/null 2>>/tmp/err.txt
  sed "s/^{/{\"ab_round\":$r,\"label\":\"gpc\",/" /tmp/p.jsonl >> $OUT/bin.jsonl
  echo "round $r at $(( $(date +%s) - start )) s" >> $OUT/log.txt
  [ $(( $(date +%s) - start )) -gt 300 ] && break
done
grep -v "^bench:" /tmp/err.txt | head > $OUT/err.txt
