#!/usr/bin/env bash
# Runs `clrdx verify` on both CPU OpenCL vendors this machine can have without root: PoCL (the
# Debian package) and Intel's CPU runtime (the Python package index's `opencl-rt`, installed
# once into a virtual environment; a test-time extra, never a build need). The ICD loader finds
# Intel's runtime through OCL_ICD_FILENAMES, beside the installed vendors.
# Usage: tools/verify_vendors.sh [clrdx verify options, e.g. --quick or --strategy auto]
# Env: CLRDX (default build/tools/clrdx/clrdx), RDX_INTEL_VENV (tools/intel_runtime.sh). Exit 0
# when every vendor passed, 1 when one failed, 2 on bad setup.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
clrdx=${CLRDX:-$root/build/tools/clrdx/clrdx}
if [[ ! -x $clrdx ]]; then
  echo "verify_vendors: $clrdx is not built (run tools/build.sh)" >&2
  exit 2
fi
lib=$("$root/tools/intel_runtime.sh") || exit 2
export OCL_ICD_FILENAMES="$lib/libintelocl.so${OCL_ICD_FILENAMES:+:$OCL_ICD_FILENAMES}"
# libintelocl.so finds its own libraries (TBB, its compiler) beside it only through this.
export LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
"$clrdx" devices
status=0
for vendor in intel pocl; do
  echo "== $vendor"
  "$clrdx" verify --device "$vendor" "$@" || status=1
done
exit $status
