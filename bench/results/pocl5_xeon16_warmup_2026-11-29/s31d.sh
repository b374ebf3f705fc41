#!/bin/bash
# Session 31, fourth call: any_device on the host's Xeon (PoCL 5), 4 against 8 work-items a compute
# unit (--groups-per-cu 4,8 and 8,4, the order swapped every round), both levels in each command,
# f32 and f64 at 2^24 and 2^26, after half a minute of discarded commands (s31a: the instance's
# first half minute is slow for every program).
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib RDX_CACHE_DIR=off
start=$(date +%s)
while [ $(( $(date +%s) - start )) -lt 30 ]; do
  ./clrdx_cur bench --device cpu --strategy auto --determinism run_to_run,any_device --data random --sizes 64Mi --repeat 10 --type f32 >/dev/null 2>>/tmp/err.txt
done
echo "discarded until $(( $(date +%s) - start )) s" >> $OUT/log.txt
for r in 1 2 3 4 5 6 7 8; do
  if [ $((r % 2)) = 1 ]; then g=4,8; else g=8,4; fi
  for t in f32 f64; do
    ./clrdx_cur bench --device cpu --strategy auto --determinism run_to_run,any_device --groups-per-cu $g --data random --sizes 16Mi,64Mi --repeat 10 --type $t --json /tmp/p.jsonl >/dev/null 2>>/tmp/err.txt
    sed "s/^{/{\"ab_round\":$r,\"label\":\"$g\",/" /tmp/p.jsonl >> $OUT/bin.jsonl
  done
  echo "round $r at $(( $(date +%s) - start )) s" >> $OUT/log.txt
  [ $(( $(date +%s) - start )) -gt 330 ] && break
done
grep -v "^bench:" /tmp/err.txt | head > $OUT/err.txt
