#!/usr/bin/env bash
# Makes the virtual environment that builds and tests the Python package rdx, and prints its
# interpreter's path:
#   tools/python_env.sh DIR      (the environment: DIR/venv)
# It is made by $PYTHON (default /usr/bin/python3, 3.11 or newer) with its system packages
# visible (Debian's python3-numpy), plus scikit-build-core, nanobind, pytest, hypothesis and
# pyopencl from the Python package index, and NumPy from there where the interpreter has none.
# An environment that has them already is kept as it is. Debian packages beyond tools/setup.sh's:
# python3-venv (the environment) and python3-dev (Python.h).
set -euo pipefail
dir=${1:?usage: tools/python_env.sh DIR}
mkdir -p "$dir" && dir=$(cd "$dir" && pwd)
python=${PYTHON:-/usr/bin/python3}
"$python" - <<'PY' || { echo "python_env: $python is older than 3.11" >&2; exit 1; }
import sys
sys.exit(sys.version_info < (3, 11))
PY
inc=$("$python" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
if [ ! -f "$inc/Python.h" ]; then
  echo "python_env: no $inc/Python.h (Debian: apt-get install python3-dev)" >&2
  exit 1
fi
venv=$dir/venv
if [ ! -x "$venv/bin/python" ]; then
  "$python" -m venv --system-site-packages "$venv" >&2 || {
    echo "python_env: cannot make a virtual environment (Debian: apt-get install python3-venv)" >&2
    rm -rf "$venv"
    exit 1
  }
fi
# Every package there already: nothing to ask the index.
if ! "$venv/bin/python" -c 'import numpy, nanobind, scikit_build_core, pytest, hypothesis, pyopencl' \
     2>/dev/null; then
  pip=("$venv/bin/python" -m pip -q --disable-pip-version-check)
  # pyopencl: the tests of PyOpenCL arrays (its wheels bundle an ICD loader that reads
  # /etc/OpenCL/vendors, so it sees PoCL too).
  "${pip[@]}" install "scikit-build-core>=0.10" "nanobind>=2.0" pytest hypothesis pyopencl >&2
  "$venv/bin/python" -c 'import numpy' 2>/dev/null || "${pip[@]}" install "numpy>=1.24" >&2
fi
echo "$venv/bin/python"
