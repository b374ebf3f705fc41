#!/usr/bin/env bash
# ctest vendors.intel: the tests whose results must not depend on the vendor, on Intel's CPU
# OpenCL runtime (tools/intel_runtime.sh installs it from the Python package index): the exact
# and reproducible sums (the same bits as on PoCL: they are checked against GMP's exact values)
# and rdx::Stream. Exit 77 (ctest: skipped, not passed) when the runtime cannot be installed.
# Usage: run.sh RDX_DEVICE_TESTS RDX_STREAM_TESTS
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
if ! lib=$("$root/tools/intel_runtime.sh"); then
  echo "vendors.intel: skipped: Intel's CPU runtime could not be installed"
  exit 77
fi
export OCL_ICD_FILENAMES="$lib/libintelocl.so"
export LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export RDX_DEVICE=intel
status=0
"$1" --test-case='exact*' || status=1
"$2" || status=1
exit $status
