#!/usr/bin/env bash
# Builds the Python package rdx (pyproject.toml, python/) into a virtual environment and runs its
# tests (python/tests, pytest) on PoCL's CPU device:
#   tools/test_python.sh [pytest arguments]
# The environment is build-py/venv (or $RDX_PY_DIR/venv; tools/python_env.sh makes it). The
# package builds incrementally in build-py/build, librdx's objects included (as users' `pip
# install .` does; tools/test.sh's `python` entry uses the module of the project's build instead);
# kernels built by the tests stay in build-py/rdx-cache ($RDX_CACHE_DIR).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${RDX_PY_DIR:-$root/build-py}
"$root/tools/setup.sh"
py=$("$root/tools/python_env.sh" "$dir")
pip=("$py" -m pip -q --disable-pip-version-check)
# No build isolation: the build folder (CMake's cache names nanobind's path) is kept between
# runs, so only what changed is rebuilt.
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}
"${pip[@]}" install --no-build-isolation --config-settings=build-dir="$dir/build" "$root"
export RDX_DEVICE=${RDX_DEVICE:-cpu}
export RDX_CACHE_DIR=${RDX_CACHE_DIR:-$dir/rdx-cache}
mkdir -p "$RDX_CACHE_DIR"
cd "$root"
# No arguments: pyproject.toml's testpaths, the whole suite.
"$py" -m pytest -q "$@"
