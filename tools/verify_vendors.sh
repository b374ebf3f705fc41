#!/usr/bin/env bash
# Runs `clrdx verify` on both CPU OpenCL vendors this machine can have without root: PoCL (the
# Debian package) and Intel's CPU runtime (the Python package index's `opencl-rt`, installed
# once into a virtual environment; a test-time extra, never a build need). The ICD loader finds
# Intel's runtime through OCL_ICD_FILENAMES, beside the installed vendors.
# Usage: tools/verify_vendors.sh [clrdx verify options, e.g. --quick or --strategy auto]
# Env: CLRDX (default build/tools/clrdx/clrdx), RDX_INTEL_VENV (default
# ~/.cache/rdx/opencl-rt). Exit 0 when every vendor passed, 1 when one failed, 2 on bad setup.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
clrdx=${CLRDX:-$root/build/tools/clrdx/clrdx}
venv=${RDX_INTEL_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/rdx/opencl-rt}
if [[ ! -x $clrdx ]]; then
  echo "verify_vendors: $clrdx is not built (run tools/build.sh)" >&2
  exit 2
fi
lib=$venv/lib/libintelocl.so
if [[ ! -e $lib ]]; then
  echo "verify_vendors: installing opencl-rt into $venv"
  python3 -m venv "$venv" || { echo "verify_vendors: python3 -m venv failed (python3-venv)" >&2; exit 2; }
  "$venv/bin/pip" install --quiet opencl-rt
fi
if [[ ! -e $lib ]]; then
  echo "verify_vendors: opencl-rt left no $lib" >&2
  exit 2
fi
export OCL_ICD_FILENAMES="$lib${OCL_ICD_FILENAMES:+:$OCL_ICD_FILENAMES}"
# libintelocl.so finds its own libraries (TBB, its compiler) beside it only through this.
export LD_LIBRARY_PATH="$venv/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
"$clrdx" devices
status=0
for vendor in intel pocl; do
  echo "== $vendor"
  "$clrdx" verify --device "$vendor" "$@" || status=1
done
exit $status
