#!/usr/bin/env bash
# Sets up what is missing, builds, and runs the test suite on PoCL's CPU device (docs/testing.md):
#   tools/test.sh [--full] [ctest arguments]
# The quick tier by default: every feature, every strategy under one PoCL work-group method
# (ctest -LE full). --full adds the entries labelled `full`: the strategies' covering matrix, the
# strategies and the barrier kernels under a second work-group method, the API's two cross
# products whole (api.loopvec.whole), 2^32 + 3 elements, Oclgrind, valgrind, 4 MPI ranks and
# Intel's CPU runtime. Further arguments go to ctest (e.g. -R cli).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tier=(-LE full)
if [ "${1:-}" = --full ]; then
  tier=()
  shift
fi
"$root/tools/setup.sh" --plot  # gnuplot: cli.bench draws the plots
"$root/tools/build.sh"
cd "${RDX_BUILD_DIR:-$root/build}"
ctest -j "$(nproc)" --output-on-failure --timeout 3600 "${tier[@]}" "$@"
