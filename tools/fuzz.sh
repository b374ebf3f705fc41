#!/usr/bin/env bash
# Fuzzes clrdx's parsers for developers: configures a clang build with RDX_FUZZ=ON and
# RDX_SANITIZE=address,undefined, builds the two libFuzzer targets and runs each for SECONDS.
#   tools/fuzz.sh [BUILD_DIR] [SECONDS]     (defaults: build-fuzz, 300; BUILD_DIR relative to the
#                                             repository root unless absolute)
# New inputs go to BUILD_DIR/tests/fuzz/corpus-{npy,args} (the repository's tests/fuzz/corpus is
# only read), crash reproducers to BUILD_DIR/tests/fuzz/artifacts-{npy,args}. Exit status: 0 when
# both targets ran clean, 1 when one found something (its reproducer is named at the end).
# CI runs the same through ctest: ctest -R fuzz (RDX_FUZZ_SECONDS each, default 60).
# Needs clang and libclang-rt-<version>-dev (libFuzzer's runtime); tools/setup.sh does not
# install them: apt-get install clang libclang-rt-14-dev on Debian 12.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build-fuzz}
[[ $build = /* ]] || build=$root/$build
seconds=${2:-300}
jobs=${JOBS:-$(nproc)}

for tool in clang clang++ cmake; do
  command -v "$tool" >/dev/null || { echo "fuzz.sh: $tool not found (apt-get install clang cmake libclang-rt-14-dev)" >&2; exit 2; }
done

CC=clang CXX=clang++ cmake -S "$root" -B "$build" -DRDX_FUZZ=ON -DRDX_SANITIZE=address,undefined \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRDX_FUZZ_SECONDS="$seconds" >/dev/null
cmake --build "$build" -j "$jobs" --target fuzz_npy fuzz_args

status=0
for name in npy args; do
  echo "== fuzz_$name for $seconds s"
  if ! cmake -DFUZZER="$build/tests/fuzz/fuzz_$name" -DNEW_CORPUS="$build/tests/fuzz/corpus-$name" \
       -DSEED_CORPUS="$root/tests/fuzz/corpus/$name" -DARTIFACTS="$build/tests/fuzz/artifacts-$name" \
       -DDICT="$root/tests/fuzz/$name.dict" -DSECONDS="$seconds" -P "$root/tests/fuzz/run_fuzz.cmake"; then
    status=1
  fi
done
[ "$status" = 0 ] && echo "fuzz.sh: both targets ran $seconds s with no finding"
exit "$status"
