#!/bin/bash
# Session 33, fourteenth call: H200, bench/probe_group_cost with the flags finish (no atomics: the
# last group waits for the others' flags) beside the atomic ticket (counter), the second launch
# (twokern) and a plain partial, at 1 to 1056 groups of 256; 3 runs.
cd "$(dirname "$0")"
o=/tmp/o33k; rm -rf $o; mkdir -p $o
nvidia-smi -L > $o/gpu.txt
for r in 1 2 3; do
  timeout 60 ./probe_group_cost 1,16,64,256,512,1056 > $o/run$r.json 2>> $o/err.txt
  echo "run $r exit $? at $SECONDS s" >> $o/gpu.txt
done
tar czf $OUT/out.tgz -C /tmp o33k
