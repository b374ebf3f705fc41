#!/usr/bin/env bash
# The `package.ci` test: runs the two recipes of docs/ci.md (its ```sh blocks: the C++ one with the
# Debian packages, the Python one with the wheel) as they are, each in an empty folder holding only
# what the recipe starts from (the packages or the wheel; for C++ the consumer program of
# tests/package/consumer as `project/`), with the machine's OpenCL devices hidden
# (OCL_ICD_VENDORS at an empty folder): only the CPU device the recipe installs can be used.
# Needs the network (pip install opencl-rt). Exits non-zero, saying why, at the first problem.
#
# Usage: ci_test.sh SOURCE_DIR DEB_DIR WHEEL_DIR
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 SOURCE_DIR DEB_DIR WHEEL_DIR" >&2; exit 2; }
src=$1 debs=$2 wheels=$3
fail() { echo "package.ci: $*" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rdx-ci.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
ls "$debs"/librdx0_*.deb "$debs"/librdx-dev_*.deb "$wheels"/librdx-*.whl >/dev/null ||
  fail "the packages or the wheel are missing (package.deb and package.wheel make them)"

# The ```sh blocks of docs/ci.md, in order.
mapfile -t -d '' blocks < <(awk '
  /^```/ { if (inside) { printf "%s%c", block, 0 } inside = !inside && $0 == "```sh"; block = ""; next }
  inside { block = block $0 "\n" }' "$src/docs/ci.md")
[ ${#blocks[@]} = 2 ] || fail "docs/ci.md has ${#blocks[@]} sh blocks, expected 2 (C++, Python)"
mkdir "$tmp/none"  # no vendors: the machine's devices hidden

run_recipe() {  # NAME BLOCK: runs the block in the current folder, its output in $tmp/NAME.log
  env -u LD_LIBRARY_PATH -u RDX_DEVICE -u OCL_ICD_FILENAMES -u PYTHONPATH -u VIRTUAL_ENV \
    OCL_ICD_VENDORS="$tmp/none" bash -euo pipefail -c "$2" \
    >"$tmp/$1.log" 2>&1 || { cat "$tmp/$1.log" >&2; fail "the $1 recipe failed"; }
}

# C++: the packages and the project.
mkdir "$tmp/cpp" && cd "$tmp/cpp"
cp "$debs"/librdx0_*.deb "$debs"/librdx-dev_*.deb .
cp -r "$src/tests/package/consumer" project
run_recipe cpp "${blocks[0]}"
grep -q "100% tests passed" "$tmp/cpp.log" || { cat "$tmp/cpp.log" >&2; fail "the C++ recipe's tests did not pass"; }

# Python: the wheel.
mkdir "$tmp/py" && cd "$tmp/py"
cp "$wheels"/librdx-*.whl .
run_recipe python "${blocks[1]}"
grep -qi "intel\|cpu" "$tmp/python.log" || { cat "$tmp/python.log" >&2; fail "the Python recipe listed no CPU device"; }
echo "package.ci: both recipes of docs/ci.md ran with only what they install"
