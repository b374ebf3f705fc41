#!/bin/bash
# Session 26, first call: the fixed-bin sum's f64 grid on the H200 at 2^26 and 2^28 (lanes x
# unroll x work-groups a CU), each size's rows against run_to_run over 2 alternating rounds.
set -u
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib PATH=$PATH:/usr/local/cuda/bin
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > $OUT/gpu.txt 2>&1
start=$(date +%s)
CLRDX=$PWD/clrdx_s26 RDX_BENCH_OUT=/tmp/sw LANES=${LANES:-4,8} UNROLL=${UNROLL:-1,2,4,8} GPC=${GPC:-2,4,8} \
  bash ../../bench/sweep_binned.sh gpu ${SIZES:-64Mi,256Mi} ${TYPES:-f64} > $OUT/sweep.txt 2>&1
echo "sweep done at $(( $(date +%s) - start )) s, exit $?" >> $OUT/sweep.txt
cat /tmp/sw/binned_sweep_*.jsonl > $OUT/rows.jsonl
cp /tmp/sw/binned_sweep.log $OUT/ 2>/dev/null
