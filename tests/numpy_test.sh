#!/usr/bin/env bash
# Runs numpy_test.py (clrdx against NumPy) with a Python that has NumPy: `python3` on PATH, else
# Debian's /usr/bin/python3, which tools/setup.sh gives python3-numpy. Usage: numpy_test.sh CLRDX
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
for py in python3 /usr/bin/python3; do
  if command -v "$py" >/dev/null && "$py" -c "import numpy" 2>/dev/null; then
    exec "$py" "$here/numpy_test.py" "$@"
  fi
done
echo "numpy_test: no python3 with NumPy (tools/setup.sh installs python3-numpy)" >&2
exit 1
