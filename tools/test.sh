#!/usr/bin/env bash
# Sets up what is missing, builds, and runs the whole ctest suite (unit tests, every strategy on
# the PoCL CPU device under two work-group methods, the API, the CLI).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/tools/setup.sh" --plot  # gnuplot: cli.bench draws the plots
"$root/tools/build.sh"
cd "${RDX_BUILD_DIR:-$root/build}"
ctest -j "$(nproc)" --output-on-failure --timeout 3600
