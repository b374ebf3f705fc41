#!/usr/bin/env bash
# Prints the folder that holds Intel's CPU OpenCL runtime (libintelocl.so), first installing the
# Python package index's `opencl-rt` into a virtual environment when it is missing (no root; a
# test-time extra, never a build need). Use it as
#   lib=$(tools/intel_runtime.sh)
#   OCL_ICD_FILENAMES=$lib/libintelocl.so LD_LIBRARY_PATH=$lib clrdx devices
# (the ICD loader finds the runtime through OCL_ICD_FILENAMES; libintelocl.so finds its own TBB
# and compiler beside it only through LD_LIBRARY_PATH).
# Env: RDX_INTEL_VENV (default ~/.cache/rdx/opencl-rt). Exit 2, saying why on stderr, when the
# runtime cannot be installed (no python3-venv, no network).
set -euo pipefail
venv=${RDX_INTEL_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/rdx/opencl-rt}
lib=$venv/lib
if [[ ! -e $lib/libintelocl.so ]]; then
  echo "intel_runtime: installing opencl-rt into $venv" >&2
  python3 -m venv "$venv" >&2 || { echo "intel_runtime: python3 -m venv failed (python3-venv)" >&2; exit 2; }
  "$venv/bin/pip" install --quiet opencl-rt >&2 || { echo "intel_runtime: pip install opencl-rt failed" >&2; exit 2; }
fi
if [[ ! -e $lib/libintelocl.so ]]; then
  echo "intel_runtime: opencl-rt left no $lib/libintelocl.so" >&2
  exit 2
fi
echo "$lib"
