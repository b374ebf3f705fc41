#!/usr/bin/env bash
# The `package.wheel` test: builds the Python package's wheel with the README's command
# (tools/package.sh wheel: pip wheel, then auditwheel repair), checks its manylinux tag and that
# auditwheel finds nothing more to graft, installs it into a fresh virtual environment (NumPy from
# the Python package index) and runs it from a folder outside the source tree: rdx comes from the
# environment, reduces on PoCL as NumPy does, and its exact sum is math.fsum's. Leaves the wheel in
# OUT_DIR for the `package.ci` test. Exits non-zero, saying why on stderr, at the first problem.
#
# Usage: wheel_test.sh SOURCE_DIR WHEEL_BUILD_DIR OUT_DIR
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 SOURCE_DIR WHEEL_BUILD_DIR OUT_DIR" >&2; exit 2; }
src=$1 wheel_build=$2 out=$3
fail() { echo "package.wheel: $*" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rdx-wheel.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
quiet() {
  "$@" >"$tmp/log" 2>&1 || { cat "$tmp/log" >&2; fail "failed: $*"; }
}

quiet env RDX_WHEEL_DIR="$wheel_build" "$src/tools/package.sh" wheel "$out"
wheels=("$out"/librdx-*.whl)
[ ${#wheels[@]} = 1 ] && [ -f "${wheels[0]}" ] || fail "not one wheel in $out: $(ls "$out")"
whl=${wheels[0]}
[[ ${whl##*/} == *-manylinux_*_x86_64.whl ]] || fail "no manylinux tag: ${whl##*/}"
"$wheel_build/venv/bin/auditwheel" show "$whl" >"$tmp/show" 2>&1 || { cat "$tmp/show" >&2; fail "auditwheel show failed"; }
# grep reads files, not pipes: under pipefail, `unzip -l | grep -q` fails whenever grep's early
# exit cuts unzip off with SIGPIPE (a CI run failed so with the loader in the wheel).
tr -s '\n ' ' ' <"$tmp/show" >"$tmp/show1"
grep -q 'is consistent with the following platform tag: "manylinux_' "$tmp/show1" ||
  { cat "$tmp/show" >&2; fail "auditwheel: the wheel is not consistent with a platform tag"; }
unzip -l "$whl" >"$tmp/list"
grep -q 'librdx.libs/libOpenCL' "$tmp/list" || fail "the wheel carries no OpenCL ICD loader"

python3 -m venv "$tmp/venv"
quiet "$tmp/venv/bin/python" -m pip -q --disable-pip-version-check install "$whl"
mkdir "$tmp/run"
cd "$tmp/run"
RDX_DEVICE=cpu RDX_CACHE_DIR=off "$tmp/venv/bin/python" - "$tmp/venv" <<'PY' || fail "the installed wheel failed"
import math, os, sys
import numpy as np
import rdx
assert os.path.realpath(rdx.__file__).startswith(os.path.realpath(sys.argv[1])), rdx.__file__
assert any(d for d in rdx.devices()), "no device"
a = np.arange(100003, dtype=np.float32) * np.float32(0.001) - np.float32(7)
s = rdx.sum(a)
ref = float(np.sum(a, dtype=np.float64))
assert isinstance(s, np.float32) and abs(float(s) - ref) <= 1e-6 * abs(ref), (s, ref)
assert rdx.argmax(a) == np.argmax(a)
x = np.random.default_rng(1).standard_normal(4096) * 1e10
assert float(rdx.sum(x, determinism="exact")) == math.fsum(x)
print("ok", rdx.__file__)
PY
echo "package.wheel: ${whl##*/} installed into a fresh environment and ran"
