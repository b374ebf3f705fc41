#!/bin/bash
# Session 33, first call: on the host's Xeon (PoCL 5), (1) the host's CPU and the fixed-bin
# partial as PoCL 5 compiles it (its .so files, disassembled on the development machine);
# (2) any_device and run_to_run, committed (clrdx_old, abe6ec6) against binned_partial without
# local memory or barriers at a work-group size of 1 (clrdx_new), f32 and f64, 2^10 to 2^26,
# 4 rounds alternating the builds' order, after half a minute of discarded commands.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib RDX_CACHE_DIR=off
{ lscpu; nproc; which perf objdump; } > $OUT/host.txt 2>&1
for b in old new; do
  rm -rf /tmp/pc_$b
  POCL_CACHE_DIR=/tmp/pc_$b ./clrdx_$b bench --device cpu --strategy auto --determinism any_device --data random --sizes 1Ki --repeat 2 --type f32 >> $OUT/host.txt 2>&1
  mkdir -p $OUT/so_$b
  find /tmp/pc_$b -name "binned_partial*.so" | while read f; do cp "$f" $OUT/so_$b/$(basename $(dirname "$f")).so; done
done
start=$(date +%s)
while [ $(( $(date +%s) - start )) -lt 30 ]; do
  ./clrdx_old bench --device cpu --strategy auto --determinism run_to_run,any_device --data random --sizes 16Mi --repeat 10 --type f32 >/dev/null 2>>/tmp/err.txt
done
r=0
for order in "old new" "new old" "old new" "new old"; do
  r=$((r + 1))
  for b in $order; do
    for t in f32 f64; do
      ./clrdx_$b bench --device cpu --strategy auto --determinism run_to_run,any_device --data random --sizes 1Ki,64Ki,1Mi,16Mi,64Mi --repeat 20 --type $t --json /tmp/p.jsonl >/dev/null 2>>/tmp/err.txt
      sed "s/^{/{\"ab_round\":$r,\"build\":\"$b\",/" /tmp/p.jsonl >> $OUT/ab.jsonl
    done
  done
  echo "round $r at $(( $(date +%s) - start )) s" >> $OUT/log.txt
  [ $(( $(date +%s) - start )) -gt 420 ] && break
done
grep -v "^bench:" /tmp/err.txt | head > $OUT/err.txt
