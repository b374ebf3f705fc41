#!/usr/bin/env bash
# Sets up what is missing, builds, then runs clrdx's main job on the default device ($RDX_DEVICE,
# else the first GPU, else the first device): list devices, verify every strategy, and the
# strategy table of `clrdx bench` at one size (default 4Mi; RDX_BENCH_SIZE to change).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/tools/setup.sh"
"$root/tools/build.sh" -DRDX_BUILD_TESTS=OFF
clrdx=${RDX_BUILD_DIR:-$root/build}/tools/clrdx/clrdx
"$clrdx" devices
"$clrdx" verify --quick
"$clrdx" bench --sizes "${RDX_BENCH_SIZE:-4Mi}" --repeat 5
