#!/bin/bash
# Session 32, second part: the binned tests on the H200 (the packed states and both finishes), and
# any_device against run_to_run there with binned_finish on the packed states (clrdx_new) against
# HEAD 6db3bc2 (clrdx_old), 3 rounds of each, f32 at 2^20..2^28.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib RDX_CACHE_DIR=off
RDX_DEVICE=gpu ./rdx_device_tests_new -tc="binned*,group: float sums under AnyDevice*,partial*" > $OUT/gpu_tests.txt 2>&1
echo "tests exit $?" >> $OUT/log.txt
for r in 1 2 3; do
  for b in old new; do
    ./clrdx_$b bench --device gpu --strategy auto --determinism run_to_run,any_device --data random --sizes 1Mi,16Mi,64Mi,256Mi --repeat 20 --type f32 --json /tmp/g.jsonl >/dev/null 2>>/tmp/gerr.txt
    sed "s/^{/{\"ab_round\":$r,\"bin\":\"$b\",/" /tmp/g.jsonl >> $OUT/gpu.jsonl
  done
done
grep -v "^bench:" /tmp/gerr.txt | head > $OUT/gpu_err.txt
