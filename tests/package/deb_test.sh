#!/usr/bin/env bash
# The `package.deb` test: builds the Debian packages with the README's command
# (tools/package.sh deb), checks them with lintian (no error), their control fields (names,
# dependencies: Open MPI only for the MPI packages; shlibs and the ldconfig trigger for the
# libraries), the multiarch paths and stripped binaries; then unpacks them into a scratch root
# (dpkg -x: the machine's package database and /usr are left as they were), builds and runs the
# consumer program against the unpacked headers and library through find_package(rdx) and
# through pkg-config, runs the unpacked clrdx (--version, and a reduction that must print what
# the build tree's clrdx prints), and removes the scratch root. Exits non-zero, saying why on
# stderr, at the first problem.
#
# The packages stay in OUT_DIR for the `package.ci` test.
#
# Usage: deb_test.sh SOURCE_DIR DEB_BUILD_DIR CMAKE CXX VERSION CLRDX WITH_MPI(0|1) OUT_DIR
set -euo pipefail
if [ $# -ne 8 ]; then
  echo "usage: $0 SOURCE_DIR DEB_BUILD_DIR CMAKE CXX VERSION CLRDX WITH_MPI OUT_DIR" >&2
  exit 2
fi
src=$1 deb_build=$2 cmake=$3 cxx=$4 version=$5 clrdx=$6 with_mpi=$7 keep=$8

fail() { echo "package.deb: $*" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rdx-deb.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
quiet() {
  "$@" >"$tmp/log" 2>&1 || { cat "$tmp/log" >&2; fail "failed: $*"; }
}

# 1. The packages, with the command the README gives.
quiet env RDX_DEB_BUILD_DIR="$deb_build" "$src/tools/package.sh" deb "$tmp/debs"
want=(librdx0 librdx-dev clrdx)
[ "$with_mpi" = 1 ] && want+=(librdx-mpi0 librdx-mpi-dev clrdx-mpi)
arch=$(dpkg --print-architecture)
triplet=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
for p in "${want[@]}"; do
  deb=$tmp/debs/${p}_${version}-1_${arch}.deb
  [ -f "$deb" ] || fail "no package $p (${deb##*/}); made: $(ls "$tmp/debs")"
done
[ "$(find "$tmp/debs" -name '*.deb' | wc -l)" = "${#want[@]}" ] ||
  fail "packages beyond ${want[*]}: $(ls "$tmp/debs")"

# 2. lintian: no error (warnings are reported by tools/package.sh's users, not failed on).
lintian --fail-on error --suppress-tags initial-upload-closes-no-bugs "$tmp"/debs/*.deb \
  >"$tmp/lintian" 2>&1 || { cat "$tmp/lintian" >&2; fail "lintian reports errors"; }

# 3. Control fields.
field() { dpkg-deb -f "$tmp/debs/${1}_${version}-1_${arch}.deb" "$2"; }
for p in "${want[@]}"; do
  depends=$(field "$p" Depends)
  case "$p" in
    *mpi*) grep -q openmpi <<<"$depends" || fail "$p does not depend on Open MPI: $depends" ;;
    *) ! grep -q openmpi <<<"$depends" || fail "$p depends on Open MPI: $depends" ;;
  esac
  [ -n "$(field "$p" Description)" ] || fail "$p has no description"
done
grep -q "librdx0 (= $version-1)" <<<"$(field librdx-dev Depends)" ||
  fail "librdx-dev does not depend on librdx0 of its version"
for lib in librdx0:librdx $([ "$with_mpi" = 1 ] && echo librdx-mpi0:librdx_mpi); do
  p=${lib%%:*} so=${lib#*:}
  mkdir "$tmp/ctrl-$p"
  dpkg-deb -e "$tmp/debs/${p}_${version}-1_${arch}.deb" "$tmp/ctrl-$p"
  grep -qx "$so 0 $p (= $version-1)" "$tmp/ctrl-$p/shlibs" 2>/dev/null ||
    fail "$p: no shlibs line for $so.so.0"
  grep -qx "activate-noawait ldconfig" "$tmp/ctrl-$p/triggers" 2>/dev/null ||
    fail "$p: no ldconfig trigger"
done

# 4. Unpacked into a scratch root: the multiarch paths, stripped binaries.
root=$tmp/root
for p in "${want[@]}"; do dpkg -x "$tmp/debs/${p}_${version}-1_${arch}.deb" "$root"; done
libdir=$root/usr/lib/$triplet
for f in "$libdir/librdx.so.0" "$libdir/librdx.so" "$libdir/librdx.a" "$libdir/pkgconfig/rdx.pc" \
         "$libdir/cmake/rdx/rdxConfig.cmake" "$root/usr/include/rdx/rdx.hpp" "$root/usr/bin/clrdx" \
         "$root/usr/share/doc/librdx0/copyright" "$root/usr/share/doc/clrdx/changelog.Debian.gz"; do
  [ -e "$f" ] || fail "not in the packages: ${f#"$root"}"
done
for f in "$libdir/librdx.so.0" "$root/usr/bin/clrdx"; do
  file -L "$f" | grep -q ", stripped" || fail "not stripped: ${f#"$root"}"
done

# 5. The consumer through find_package(rdx), shared and static (CMake's build rpath finds the
# unpacked librdx.so), and through pkg-config with an rpath.
quiet "$cmake" -S "$src/tests/package/consumer" -B "$tmp/consumer" -DCMAKE_PREFIX_PATH="$root/usr" \
  -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE= -DCMAKE_CXX_FLAGS=-O0 \
  -DRDX_CONSUMER_MPI="$with_mpi"
found=$(sed -n 's/^rdx_DIR:PATH=//p' "$tmp/consumer/CMakeCache.txt")
[ "$found" = "$libdir/cmake/rdx" ] || fail "find_package(rdx) found '$found', not the packages'"
quiet "$cmake" --build "$tmp/consumer" --parallel 2
for exe in consumer_shared consumer_static; do
  out=$(env -u LD_LIBRARY_PATH "$tmp/consumer/$exe") || fail "$exe failed (exit $?)"
  [ "$out" = "$version" ] || fail "$exe printed '$out', expected '$version'"
done
if [ "$with_mpi" = 1 ]; then
  out=$(env -u LD_LIBRARY_PATH mpirun -q -n 2 --oversubscribe "$tmp/consumer/consumer_mpi") ||
    fail "consumer_mpi failed under mpirun -n 2"
  [ "$out" = "$version" ] || fail "consumer_mpi printed '$out', expected '$version'"
fi
flags=$(PKG_CONFIG_PATH=$libdir/pkgconfig pkg-config --cflags --libs rdx) ||
  fail "pkg-config does not find the packages' rdx.pc"
# shellcheck disable=SC2086 # pkg-config prints separate words
quiet "$cxx" -std=c++20 -O0 -o "$tmp/app" "$src/tests/package/consumer/main.cpp" $flags \
  -Wl,-rpath,"$libdir"
out=$(env -u LD_LIBRARY_PATH "$tmp/app") || fail "the pkg-config consumer failed (exit $?)"
[ "$out" = "$version" ] || fail "the pkg-config consumer printed '$out', expected '$version'"

# 6. The packaged clrdx.
out=$("$root/usr/bin/clrdx" --version) || fail "clrdx --version failed"
grep -q "$version" <<<"$out" || fail "clrdx --version printed '$out'"
args=(reduce --device cpu --type i32 --op sum --generate random --count 100000)
got=$("$root/usr/bin/clrdx" "${args[@]}") || fail "the packaged clrdx ${args[*]} failed"
want_out=$("$clrdx" "${args[@]}") || fail "the build's clrdx ${args[*]} failed"
[ "$got" = "$want_out" ] || fail "the packaged clrdx printed '$got', the build's '$want_out'"
rm -rf "$keep" && mkdir -p "$keep" && cp "$tmp"/debs/*.deb "$keep"/
echo "package.deb: ${#want[@]} packages, lintian clean, consumers and clrdx ran"
