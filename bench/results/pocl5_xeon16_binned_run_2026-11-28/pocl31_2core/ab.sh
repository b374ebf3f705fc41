#!/bin/bash
# 2-core PoCL 3.1: HEAD (clrdx_s23 + HEAD's kernels) against the change, alternating, 5 rounds.
cd /work/main
export POCL_CACHE_DIR=/work/main/build/pocl-cache RDX_CACHE_DIR=off
for r in 1 2 3 4 5; do for b in head change; do for t in f32 f64; do
  if [ $b = head ]; then RDX_KERNEL_DIR=/tmp/clold/cl .dev/m/clrdx_s23 bench --device cpu --strategy auto --determinism run_to_run,any_device --data random --sizes 2^24,2^26 --repeat 5 --type $t --json /tmp/loc/p.jsonl >/dev/null 2>&1
  else build/tools/clrdx/clrdx bench --device cpu --strategy auto --determinism run_to_run,any_device --data random --sizes 2^24,2^26 --repeat 5 --type $t --json /tmp/loc/p.jsonl >/dev/null 2>&1; fi
  sed "s/^{/{\"round\":$r,\"label\":\"$b\",/" /tmp/loc/p.jsonl >> /tmp/loc/bin.jsonl
done; done; done
