#!/usr/bin/env bash
# The `package` test: installs a build into a temporary prefix, checks what was installed, builds
# tests/package/consumer against it through find_package (shared and static) and through the
# README's pkg-config lines (which also run it), runs the three programs without LD_LIBRARY_PATH,
# and checks `clrdx --version`. Also checks that the build tree's own binaries
# do not need librdx.so (the build folder is copied to other machines and run there).
# Exits non-zero, saying why on stderr, at the first problem.
#
# Usage: run.sh SOURCE_DIR BUILD_DIR CMAKE CXX CONFIG VERSION LIBDIR WITH_CLI(0|1) [BINARY...]
#   BINARY: in-tree executables that must exist (every executable in BUILD_DIR is checked).
set -euo pipefail
if [ $# -lt 8 ]; then
  echo "usage: $0 SOURCE_DIR BUILD_DIR CMAKE CXX CONFIG VERSION LIBDIR WITH_CLI [BINARY...]" >&2
  exit 2
fi
src=$1 build=$2 cmake=$3 cxx=$4 config=$5 version=$6 libdir=$7 with_cli=$8
shift 8

fail() { echo "package: $*" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rdx-package.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
# Runs a command quietly; on failure shows its output and stops.
quiet() {
  "$@" >"$tmp/log" 2>&1 || { cat "$tmp/log" >&2; fail "failed: $*"; }
}
# (Outputs are captured first: grep -q closing a pipe early would fail the writer under pipefail.)
needs_librdx() {
  local d
  d=$(readelf -d "$1") || fail "readelf -d $1 failed"
  grep -q 'NEEDED.*\[librdx' <<<"$d"
}

# The build tree's binaries link librdx statically: the named ones, and any other executable there
# (so a new in-tree target is covered too), but the shared libraries made for installing.
for b in "$@"; do
  [ -f "$b" ] || fail "in-tree binary $b is missing (build first)"
done
while IFS= read -r -d '' b; do
  [ "$(head -c 4 "$b")" = $'\x7fELF' ] || continue
  ! needs_librdx "$b" || fail "in-tree binary $b needs librdx.so; it must link rdx statically"
done < <(find "$build" \( -name CMakeFiles -o -name '*-cache-*' \) -prune -o \
           -type f -perm -u+x ! -name 'librdx.so*' ! -name 'librdx_mpi.so*' -print0)

# 1. Install.
quiet "$cmake" --install "$build" --config "$config" --prefix "$prefix"

# 2. What was installed.
major=${version%%.*}
expected=("$libdir/librdx.so" "$libdir/librdx.so.$major" "$libdir/librdx.so.$version"
          "$libdir/librdx.a" "$libdir/cmake/rdx/rdxConfig.cmake"
          "$libdir/cmake/rdx/rdxConfigVersion.cmake" "$libdir/cmake/rdx/rdxTargets.cmake"
          "$libdir/pkgconfig/rdx.pc")
[ "$with_cli" = 1 ] && expected+=(bin/clrdx share/rdx/plot_bench.py)
for h in "$src"/runtime/include/rdx/*.hpp; do expected+=("include/rdx/${h##*/}"); done
for f in "${expected[@]}"; do
  [ -f "$prefix/$f" ] || fail "not installed: $f"
done
# No path of this machine in the package files, not even the prefix: they find their place
# themselves, so the installed tree can be moved.
for f in "$prefix/$libdir"/cmake/rdx/*.cmake "$prefix/$libdir/pkgconfig/rdx.pc"; do
  for dir in "$src" "$build" "$tmp"; do
    ! grep -qF "$dir" "$f" || fail "${f#"$prefix"/} names a path of this machine: $dir"
  done
done
grep -q '^find_dependency(OpenCL)' "$prefix/$libdir/cmake/rdx/rdxConfig.cmake" ||
  fail "rdxConfig.cmake does not find_dependency(OpenCL)"

# The installed headers compile with only the installed include folder (a header that includes a
# private one from runtime/src fails here).
# rdx/mpi.hpp (installed with rdx_mpi only) also needs MPI's own include folder.
for h in "$prefix"/include/rdx/*.hpp; do
  [ "${h##*/}" = mpi.hpp ] || echo "#include <rdx/${h##*/}>"
done >"$tmp/headers.cpp"
quiet "$cxx" -std=c++20 -fsyntax-only -Wall -Wextra -I"$prefix/include" "$tmp/headers.cpp"
with_mpi=0
if [ -e "$prefix/$libdir/cmake/rdx/rdxMpiTargets.cmake" ]; then
  with_mpi=1
  [ -e "$prefix/include/rdx/mpi.hpp" ] || fail "rdx_mpi is installed without rdx/mpi.hpp"
  echo "#include <rdx/mpi.hpp>" >"$tmp/mpi_header.cpp"
  # shellcheck disable=SC2046 # mpicxx prints the include flags as separate words
  quiet "$cxx" -std=c++20 -fsyntax-only -Wall -Wextra -I"$prefix/include" \
    $(mpicxx --showme:compile) "$tmp/mpi_header.cpp"
elif [ -e "$prefix/include/rdx/mpi.hpp" ]; then
  fail "rdx/mpi.hpp is installed without rdx_mpi"
fi

# 3. The CMake consumer, shared and static.
quiet "$cmake" -S "$src/tests/package/consumer" -B "$tmp/consumer" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE= -DCMAKE_CXX_FLAGS=-O0 -DRDX_CONSUMER_MPI="$with_mpi"
found=$(sed -n 's/^rdx_DIR:PATH=//p' "$tmp/consumer/CMakeCache.txt")
[ "$found" = "$prefix/$libdir/cmake/rdx" ] ||
  fail "find_package(rdx) found '$found', not the prefix"
quiet "$cmake" --build "$tmp/consumer" --parallel 2
needs_librdx "$tmp/consumer/consumer_shared" ||
  fail "consumer_shared (rdx::rdx) does not need librdx.so"
! needs_librdx "$tmp/consumer/consumer_static" ||
  fail "consumer_static (rdx::rdx_static) needs librdx.so"

# 4. The pkg-config consumer: the README's lines (its sh block that calls pkg-config --cflags
# --libs rdx), run as they are in a folder of their own, with this prefix in place of /opt/rdx,
# the compiler under test as g++ and the consumer's main.cpp as app.cpp. They build app with an
# rpath and run it; no LD_LIBRARY_PATH, so the rpath alone must find librdx.so.
command -v pkg-config >/dev/null || fail "pkg-config is missing (tools/setup.sh installs pkgconf)"
export PKG_CONFIG_PATH=$prefix/$libdir/pkgconfig
pc_version=$(pkg-config --modversion rdx) || fail "pkg-config does not find rdx"
[ "$pc_version" = "$version" ] || fail "rdx.pc says version $pc_version, expected $version"
flags=$(pkg-config --cflags --libs rdx)
grep -q -- -lOpenCL <<<"$flags" || fail "rdx.pc: no -lOpenCL (rdx.hpp calls OpenCL inline)"
readme_pc=$(awk '/^```/ { if (inside && block ~ /pkg-config --cflags --libs rdx/) printf "%s", block
                         inside = !inside && $0 == "```sh"; block = ""; next }
                 inside { block = block $0 "\n" }' "$src/README.md")
[ -n "$readme_pc" ] || fail "README.md has no sh block that runs pkg-config --cflags --libs rdx"
mkdir "$tmp/pc"
cp "$src/tests/package/consumer/main.cpp" "$tmp/pc/app.cpp"
out=$(cd "$tmp/pc" && env -u LD_LIBRARY_PATH -u PKG_CONFIG_PATH RDX_CXX="$cxx" bash -euo pipefail \
        -c "g++() { \"\$RDX_CXX\" \"\$@\"; }; ${readme_pc//\/opt\/rdx/$prefix}" 2>"$tmp/log") ||
  { cat "$tmp/log" >&2; fail "the README's pkg-config lines failed:"$'\n'"$readme_pc"; }
[ "$out" = "$version" ] ||
  fail "the README's pkg-config app printed '$out', expected '$version' (rdx::version())"
loaded=$(env -u LD_LIBRARY_PATH ldd "$tmp/pc/app")
found=$(sed -n 's/^[[:space:]]*librdx\.so\.[0-9]* => \(.*\) (0x.*$/\1/p' <<<"$loaded")
[ -n "$found" ] && [ "$(realpath "$found")" = "$(realpath "$prefix/$libdir/librdx.so.$major")" ] ||
  fail "the README's pkg-config app does not load the installed librdx.so: $loaded"

# 5. Run the CMake consumers (CMake's build rpath finds librdx.so); each checks its reductions
# and prints rdx::version().
for exe in "$tmp/consumer/consumer_shared" "$tmp/consumer/consumer_static"; do
  out=$(env -u LD_LIBRARY_PATH "$exe") || fail "${exe##*/} failed (exit $?)"
  [ "$out" = "$version" ] || fail "${exe##*/}: rdx::version() printed '$out', expected '$version'"
done

# The rdx_mpi consumer under mpirun with two ranks: rank 0 prints the version (root may run it).
if [ "$with_mpi" = 1 ]; then
  for exe in consumer_mpi consumer_mpi_static; do
    out_mpi=$(env -u LD_LIBRARY_PATH mpirun -q -n 2 --oversubscribe "$tmp/consumer/$exe") ||
      fail "$exe failed under mpirun -n 2"
    [ "$out_mpi" = "$version" ] || fail "$exe printed '$out_mpi', expected '$version'"
  done
  ! needs_librdx "$tmp/consumer/consumer_mpi_static" ||
    fail "consumer_mpi_static (rdx::mpi_static) needs librdx.so"
fi

# 6. The installed clrdx.
if [ "$with_cli" = 1 ]; then
  cli=$("$prefix/bin/clrdx" --version) || fail "clrdx --version failed"
  [ "$cli" = "clrdx $out" ] || fail "clrdx --version printed '$cli', expected 'clrdx $out'"
fi
echo "package: installed, found, built and ran against $prefix (version $version)"
