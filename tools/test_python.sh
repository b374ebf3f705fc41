#!/usr/bin/env bash
# Builds the Python package rdx (pyproject.toml, python/) into a virtual environment and runs its
# tests (python/tests, pytest) on PoCL's CPU device:
#   tools/test_python.sh [pytest arguments]
# The environment is build-py/venv (or $RDX_PY_DIR/venv), made by $PYTHON (default
# /usr/bin/python3, 3.11 or newer) with its system packages visible (Debian's python3-numpy),
# plus scikit-build-core, nanobind, pytest, hypothesis and pyopencl from the Python package index, and
# NumPy from there where the interpreter has none. The package builds incrementally in
# build-py/build; kernels built by the tests stay in build-py/rdx-cache ($RDX_CACHE_DIR).
# Debian packages beyond tools/setup.sh's: python3-venv (the environment) and python3-dev
# (Python.h).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${RDX_PY_DIR:-$root/build-py}
python=${PYTHON:-/usr/bin/python3}
"$root/tools/setup.sh"
"$python" - <<'PY' || { echo "test_python: $python is older than 3.11" >&2; exit 1; }
import sys
sys.exit(sys.version_info < (3, 11))
PY
inc=$("$python" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
if [ ! -f "$inc/Python.h" ]; then
  echo "test_python: no $inc/Python.h (Debian: apt-get install python3-dev)" >&2
  exit 1
fi
venv=$dir/venv
if [ ! -x "$venv/bin/python" ]; then
  "$python" -m venv --system-site-packages "$venv" || {
    echo "test_python: cannot make a virtual environment (Debian: apt-get install python3-venv)" >&2
    rm -rf "$venv"
    exit 1
  }
fi
pip=("$venv/bin/python" -m pip -q --disable-pip-version-check)
# pyopencl: the tests of PyOpenCL arrays (its wheels bundle an ICD loader that reads
# /etc/OpenCL/vendors, so it sees PoCL too).
"${pip[@]}" install "scikit-build-core>=0.10" "nanobind>=2.0" pytest hypothesis pyopencl
"$venv/bin/python" -c 'import numpy' 2>/dev/null || "${pip[@]}" install "numpy>=1.24"
# No build isolation: the build folder (CMake's cache names nanobind's path) is kept between
# runs, so only what changed is rebuilt.
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}
"${pip[@]}" install --no-build-isolation --config-settings=build-dir="$dir/build" "$root"
export RDX_DEVICE=${RDX_DEVICE:-cpu}
export RDX_CACHE_DIR=${RDX_CACHE_DIR:-$dir/rdx-cache}
mkdir -p "$RDX_CACHE_DIR"
cd "$root"
"$venv/bin/python" -m pytest -q "$root/python/tests" "$@"
