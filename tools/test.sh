#!/usr/bin/env bash
# Sets up what is missing, builds, and runs the test suite on PoCL's CPU device (docs/testing.md):
#   tools/test.sh [--ci|--full] [ctest arguments]
# The quick tier by default (at most 12 minutes from a fresh clone on 2 cores, the build
# included): every type and operator on `auto`, one case of each API layer and form at its edges
# (api.quick), the Python functions against NumPy on three dtypes, the CLI's files and caches, MPI,
# streams, the documented programs. --ci (CI's first step, .ci/run) runs every entry but the
# `deep` ones: also those labelled `slow` (the API's and the CLI's whole suites, every strategy,
# the whole pytest suite, pip's build, the package) and `full` (NumPy's results through clrdx,
# 2^32 + 3 elements, Oclgrind, 4 MPI ranks). --full adds the `deep` ones: the strategies'
# covering matrix, a second work-group method, the API's cross products whole, the Debian
# packages, the wheel and docs/ci.md's recipes, valgrind and Intel's CPU runtime. Entries labelled
# `subset` (the quick tier's parts of slow ones) run in the quick tier only. Further arguments go
# to ctest (e.g. -R cli).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tier=(-LE 'full|slow')
case "${1:-}" in
  --full) tier=(-LE subset); shift ;;
  --ci) tier=(-LE 'deep|subset'); shift ;;
esac
"$root/tools/setup.sh" --plot  # gnuplot: cli.bench draws the plots
build=${RDX_BUILD_DIR:-$root/build}
# The Python module is built with the rest (one build of librdx's objects), for the interpreter
# of a virtual environment in the build folder that has nanobind and the test tools.
py=$("$root/tools/python_env.sh" "$build/python")
# Tests on, whatever the build folder's cache holds: tools/run.sh configures it without them.
"$root/tools/build.sh" -DRDX_BUILD_TESTS=ON -DRDX_PYTHON=ON -DPython_EXECUTABLE="$py"
cd "$build"
# An empty selection (no tests configured, or a -R that matches none) fails instead of passing.
ctest -j "$(nproc)" --output-on-failure --no-tests=error --timeout 3600 "${tier[@]}" "$@"
