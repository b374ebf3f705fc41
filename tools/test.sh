#!/usr/bin/env bash
# Sets up what is missing, builds, and runs the test suite on PoCL's CPU device (docs/testing.md):
#   tools/test.sh [--ci|--full] [ctest arguments]
# The quick tier by default: every feature, every strategy under one PoCL work-group method
# (ctest -LE full). --full adds the entries labelled `full`: NumPy's results through clrdx,
# 2^32 + 3 elements, Oclgrind, 4 MPI ranks, and those also labelled `deep`: the strategies'
# covering matrix, the strategies and the barrier kernels under a second work-group method, the
# API's two cross products whole (api.loopvec.whole), the Debian packages, the wheel and docs/ci.md's
# recipes, valgrind and Intel's CPU runtime. --ci (CI's first step, .ci/run) runs
# every entry but the `deep` ones. Further arguments go to ctest (e.g. -R cli).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tier=(-LE full)
case "${1:-}" in
  --full) tier=(); shift ;;
  --ci) tier=(-LE deep); shift ;;
esac
"$root/tools/setup.sh" --plot  # gnuplot: cli.bench draws the plots
# Tests on, whatever the build folder's cache holds: tools/run.sh configures it without them.
"$root/tools/build.sh" -DRDX_BUILD_TESTS=ON
cd "${RDX_BUILD_DIR:-$root/build}"
# An empty selection (no tests configured, or a -R that matches none) fails instead of passing.
ctest -j "$(nproc)" --output-on-failure --no-tests=error --timeout 3600 "${tier[@]}" "$@"
