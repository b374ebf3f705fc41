#!/usr/bin/env bash
# Installs, from Debian's packages, whatever librdx needs that is missing. Used by run.sh,
# test.sh and sanitize.sh; safe to run again. Options add what one tool needs:
#   --plot      gnuplot, for `clrdx bench --plot`
#   --sanitize  clang and its sanitizer and libFuzzer runtimes, for tools/sanitize.sh and fuzz.sh
#   --package   dpkg-dev, file and lintian, for tools/package.sh deb and its test
# valgrind, oclgrind and pkg-config are in the base list: the test suite runs them (valgrind,
# oclgrind, package); libgmp-dev is the exact sums' tests' reference; libboost-dev's header-only
# Boost.Multiprecision holds the big integers of exact var and std; libopenmpi-dev and openmpi-bin
# build rdx_mpi and clrdx-mpi and run their tests under mpirun (librdx itself needs no MPI);
# python3-numpy is the reference of tests/numpy_test.py; python3-venv and python3-dev build and
# test the Python package (tools/test_python.sh).
set -euo pipefail
pkgs=(cmake make g++ python3 ocl-icd-opencl-dev opencl-clhpp-headers pocl-opencl-icd doctest-dev
      libcli11-dev nlohmann-json3-dev libfmt-dev pkgconf valgrind oclgrind libgmp-dev libboost-dev
      libopenmpi-dev openmpi-bin python3-numpy python3-venv python3-dev)
for arg in "$@"; do
  case "$arg" in
    --plot) pkgs+=(gnuplot-nox) ;;
    --sanitize) pkgs+=(clang libclang-rt-14-dev) ;;
    --package) pkgs+=(dpkg-dev file lintian) ;;
    *) echo "setup: unknown option $arg (--plot, --sanitize, --package)" >&2; exit 2 ;;
  esac
done
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "setup: installing ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" != 0 ]; then
  command -v sudo >/dev/null || { echo "setup: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
  sudo=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
