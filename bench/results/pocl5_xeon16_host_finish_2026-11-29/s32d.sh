#!/bin/bash
# Session 32, fourth call: any_device with the host finish and the grid by size on CPUs
# (clrdx_new2: one work-group per 256 KiB of input, 1 to 8 a compute unit) against HEAD 6db3bc2
# (clrdx_old), each against run_to_run in the same command, on the host's Xeon (PoCL 5), f32 and
# f64 from 2^10 to 2^26, rounds in the order old new2 new2 old ..., after half a minute of
# discarded commands.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib RDX_CACHE_DIR=off
start=$(date +%s)
while [ $(( $(date +%s) - start )) -lt 30 ]; do
  ./clrdx_new2 bench --device cpu --strategy auto --determinism run_to_run,any_device --data random --sizes 16Mi --repeat 10 --type f32 >/dev/null 2>>/tmp/err.txt
done
r=0
for order in "old new2" "new2 old" "old new2" "new2 old" "old new2" "new2 old"; do
  r=$((r + 1))
  for b in $order; do
    for t in f32 f64; do
      ./clrdx_$b bench --device cpu --strategy auto --determinism run_to_run,any_device --data random --sizes 1Ki,64Ki,1Mi,4Mi,16Mi,64Mi --repeat 20 --type $t --json /tmp/p.jsonl >/dev/null 2>>/tmp/err.txt
      sed "s/^{/{\"ab_round\":$r,\"bin\":\"$b\",/" /tmp/p.jsonl >> $OUT/bin.jsonl
    done
  done
  echo "round $r at $(( $(date +%s) - start )) s" >> $OUT/log.txt
  [ $(( $(date +%s) - start )) -gt 430 ] && break
done
echo "end at $(( $(date +%s) - start )) s" >> $OUT/log.txt
grep -v "^bench:" /tmp/err.txt | head > $OUT/err.txt
