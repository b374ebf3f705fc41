#!/bin/bash
# Session 32, seventh call: the binned tests on the H200 after store_state (commit of this call).
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib RDX_CACHE_DIR=off
RDX_DEVICE=gpu ./rdx_device_tests_new -tc="binned*,group: float sums under AnyDevice*,partial*" > $OUT/gpu_tests.txt 2>&1
echo "tests exit $?" >> $OUT/log.txt
