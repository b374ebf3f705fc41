#!/usr/bin/env bash
# CI's sanitizer pass: builds librdx, clrdx, the tests and the libFuzzer targets with clang,
# AddressSanitizer and UndefinedBehaviorSanitizer into build-asan/ ($RDX_ASAN_BUILD_DIR), and runs
# that build's quick tier (the entries tools/test.sh runs; valgrind, Oclgrind and Intel's runtime,
# which cannot run a sanitized binary, are not there) plus the bounded fuzz runs fuzz.npy and
# fuzz.args, but for the strategies' barrier matrix (strategies.loopvec.*: kernels whose host
# path api.loopvec runs too) and cli.bench (timing loops over what cli runs). Extra arguments go
# to ctest (e.g. -R api). Suppressions (tests/sanitizers/) cover PoCL and the ICD loader only.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/tools/setup.sh" --sanitize
build=${RDX_ASAN_BUILD_DIR:-$root/build-asan}
release=${RDX_BUILD_DIR:-$root/build}
CC=clang CXX=clang++ cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DRDX_SANITIZE=address,undefined -DRDX_FUZZ=ON -DRDX_BUILD_TESTS=ON >/dev/null
cmake --build "$build" -j "$(nproc)"
# Kernels are device code that the sanitizers do not instrument: when the release build has
# compiled them (tools/test.sh ran first), its kernel caches are linked in instead of compiling
# every kernel again. Cache entries are keyed by source, options, device and driver.
for cache in "$release"/pocl-cache "$release"/pocl-cache-* "$release"/rdx-cache-*; do
  [ -d "$cache" ] && [ ! -e "$build/$(basename "$cache")" ] && cp -al "$cache" "$build/"
done
sup=$root/tests/sanitizers
# PoCL and LLVM are built without frame pointers: the default fast unwinder stops at their first
# frame, so allocation stacks are unwound the slow (DWARF) way to let the suppressions, which name
# PoCL's compiler, match; but in api.loopvec and api.loopvec.forms, whose host-heavy cases it made
# 25-45x slower: tests/CMakeLists.txt appends the fast unwinder to their options.
# intercept_tls_get_addr=0: clang 14's __tls_get_addr interceptor takes a dynamic TLS block that
# malloc happened to place at offset 16 of a page for a pre-2.25 glibc header and reads the words
# before it; LeakSanitizer's tracer then crashed at exit ("Tracer caught signal 11") after every
# test of an entry had passed (multidevice, stream.api: the entries with PoCL worker threads).
# Fixed in LLVM 17. Without the interceptor, dynamic TLS is still scanned: glibc allocates it with
# malloc and a thread's static TLS points to it.
export ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=0:intercept_tls_get_addr=0
export LSAN_OPTIONS=suppressions=$sup/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export RDX_TEST_NO_COLD=1  # cli.semantics' cold kernel builds: the release build runs them
cd "$build"
ctest -j "$(nproc)" --output-on-failure --no-tests=error --timeout 3600 -LE 'full|subset' \
  -E '^(strategies\.loopvec\..*|cli\.bench)$' "$@"
