#!/bin/bash
# Session 23 on the H200: the fixed-bin sum's GPU grid (lanes x groups per CU x work-group size),
# f32 at 2^28 and 2^30, against run_to_run, 2 rounds (clrdx of 5b58ce0).
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib RDX_CACHE_DIR=off
for r in 1 2; do
  ./clrdx_s23b bench --device gpu --strategy auto --determinism run_to_run --data random --sizes 256Mi,1Gi --repeat 10 --type f32 2>/dev/null | grep "^  auto" | sed "s/^/r$r rtr /"
  for l in 2 4 8; do for g in 2 4 8 16; do for wg in 256 512; do
    ./clrdx_s23b bench --device gpu --strategy auto --determinism any_device --data random --sizes 256Mi,1Gi --repeat 10 --type f32 --vw $l --groups-per-cu $g --wg $wg 2>/dev/null | grep "^  auto" | sed "s/^/r$r lanes $l gpc $g wg $wg /"
  done; done; done
done
