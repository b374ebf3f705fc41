#!/bin/bash
# Session 23: work-items a compute unit for the binned sum on the Xeon (PoCL 5): HEAD's kernel
# (cl_old) with one a CU, the run loop (cl_new) with 1, 2, 4, 8 and 16 a CU; run_to_run in the
# same command each time; 3 alternating rounds.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib RDX_CACHE_DIR=off
for r in 1 2 3; do
  for k in old:1 new:1 new:2 new:4 new:8 new:16; do for t in f32 f64; do
    RDX_KERNEL_DIR=$PWD/cl_${k%%:*} ./clrdx_s23 bench --device cpu --strategy auto --determinism run_to_run,any_device --data random --sizes 16Mi,64Mi --repeat 10 --type $t --groups-per-cu ${k#*:} --json $OUT/p.jsonl >/dev/null 2>>$OUT/err.txt
    sed "s/^{/{\"round\":$r,\"label\":\"$k\",/" $OUT/p.jsonl >> $OUT/bin.jsonl
  done; done
done
rm -f $OUT/p.jsonl
python3 ../tab.py $OUT/bin.jsonl | tee $OUT/table.txt   # tab.py beside the runs
