#!/usr/bin/env bash
# Builds librdx's packages from this checkout:
#   tools/package.sh deb [OUT_DIR]    the Debian packages (cmake/deb.cmake), into OUT_DIR
#                                     (default build-deb/packages): librdx0, librdx-dev, clrdx,
#                                     and where MPI is found librdx-mpi0, librdx-mpi-dev, clrdx-mpi
# The build folder is build-deb (RDX_DEB_BUILD_DIR overrides it), configured with the /usr prefix so
# that libraries go to the multiarch folder /usr/lib/<triplet>. Needs dpkg-dev (dpkg-shlibdeps) and
# file, which tools/setup.sh --package installs.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
usage() { echo "usage: tools/package.sh deb [OUT_DIR]" >&2; exit 2; }
[ $# -ge 1 ] || usage
kind=$1
case "$kind" in
  deb) ;;
  *) usage ;;
esac
"$root/tools/setup.sh" --package
build=${RDX_DEB_BUILD_DIR:-$root/build-deb}
out=$(realpath -m "${2:-$build/packages}")
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr \
  -DRDX_DEB=ON -DRDX_BUILD_TESTS=OFF -DRDX_WERROR=ON >/dev/null
cmake --build "$build" -j "$(nproc)"
mkdir -p "$out"
rm -f "$out"/*.deb
(cd "$build" && cpack -G DEB -B "$out" >/dev/null)
rm -rf "$out/_CPack_Packages"
ls "$out"/*.deb
