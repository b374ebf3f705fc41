#!/bin/bash
# Session 32, first call: any_device with the host's merge of the groups' states (clrdx_new, the
# plan's host_finish 1 on CPUs) against binned_finish's second launch (clrdx_old, HEAD 6db3bc2),
# each against run_to_run in the same command, on the host's Xeon (PoCL 5), f32 and f64 from 2^10
# to 2^28, rounds in the order old new new old ..., after half a minute of discarded commands.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib RDX_CACHE_DIR=off
start=$(date +%s)
while [ $(( $(date +%s) - start )) -lt 30 ]; do
  ./clrdx_new bench --device cpu --strategy auto --determinism run_to_run,any_device --data random --sizes 16Mi --repeat 10 --type f32 >/dev/null 2>>/tmp/err.txt
done
r=0
for order in "old new" "new old" "old new" "new old" "old new" "new old"; do
  r=$((r + 1))
  for b in $order; do
    for t in f32 f64; do
      ./clrdx_$b bench --device cpu --strategy auto --determinism run_to_run,any_device --data random --sizes 1Ki,64Ki,1Mi,16Mi,64Mi,256Mi --repeat 20 --type $t --json /tmp/p.jsonl >/dev/null 2>>/tmp/err.txt
      sed "s/^{/{\"ab_round\":$r,\"bin\":\"$b\",/" /tmp/p.jsonl >> $OUT/bin.jsonl
    done
  done
  echo "round $r at $(( $(date +%s) - start )) s" >> $OUT/log.txt
  [ $(( $(date +%s) - start )) -gt 420 ] && break
done
echo "end at $(( $(date +%s) - start )) s" >> $OUT/log.txt
grep -v "^bench:" /tmp/err.txt | head > $OUT/err.txt
