#!/usr/bin/env bash
# clrdx's results where the operator's rules decide: accumulators that would not return an
# element's value are refused, float products with a zero factor, NaN printed as nan, and kernels
# that compile cold without a word on stderr. Usage: semantics_cli_test.sh path/to/clrdx
set -u
clrdx=$1
. "$(dirname "$0")/cli_lib.sh"

# Raw little-endian files: raw FILE STRUCTFMT VALUES...
raw() {
  python3 -c 'import struct, sys; open(sys.argv[1], "wb").write(struct.pack("<%d%s" % (len(sys.argv) - 3, sys.argv[2]), *[int(v) for v in sys.argv[3:]]))' "$@"
}
raw "$tmp/i32" i -5 3
python3 -c 'import struct, sys; open(sys.argv[1], "wb").write(struct.pack("<2Q", 1, 2**63 + 5))' "$tmp/u64"
raw "$tmp/u8" B 200 100

# An accumulator that changes signedness or keeps the width is refused (exit 2), for every
# operator; min/max also refuse a wider one that cannot hold every element value.
expect 2 "i32 min into u32" -- "$clrdx" reduce --device "$dev" --type i32 --input "$tmp/i32" --op min --acc u32
says "u32" "i32 min into u32 names the accumulator"
expect 2 "i32 max into u32" -- "$clrdx" reduce --device "$dev" --type i32 --input "$tmp/i32" --op max --acc u32
expect 2 "u64 max into i64" -- "$clrdx" reduce --device "$dev" --type u64 --input "$tmp/u64" --op max --acc i64
expect 2 "u8 max into i8" -- "$clrdx" reduce --device "$dev" --type u8 --input "$tmp/u8" --op max --acc i8
expect 2 "i32 sum into u32" -- "$clrdx" reduce --device "$dev" --type i32 --input "$tmp/i32" --op sum --acc u32
expect 2 "i32 min into u64" -- "$clrdx" reduce --device "$dev" --type i32 --input "$tmp/i32" --op min --acc u64
expect 2 "u64 max into f64" -- "$clrdx" reduce --device "$dev" --type u64 --input "$tmp/u64" --op max --acc f64
# ... and one that holds every value gives an element's value.
expect 0 "u8 max into i16" -- "$clrdx" reduce --device "$dev" --type u8 --input "$tmp/u8" --op max --acc i16
same 200 "u8 max into i16"
expect 0 "i32 min into i64" -- "$clrdx" reduce --device "$dev" --type i32 --input "$tmp/i32" --op min --acc i64
same -5 "i32 min into i64"
expect 0 "i32 min into f64" -- "$clrdx" reduce --device "$dev" --type i32 --input "$tmp/i32" --op min --acc f64
same -5 "i32 min into f64"
expect 0 "i32 sum into u64" -- "$clrdx" reduce --device "$dev" --type i32 --input "$tmp/i32" --op sum --acc u64
same 18446744073709551614 "i32 sum into u64 wraps as C++ does"

# A float product with a zero factor is 0, whatever overflows on the way; with an input
# infinity it is NaN; NaN prints as nan.
for s in auto localtree amp_sequential; do
  expect 0 "i32 iota prod into f64 ($s)" -- "$clrdx" reduce --device "$dev" --strategy "$s" --type i32 --op prod --acc f64 --generate iota --count 1000
  same 0 "i32 iota prod into f64 ($s)"
done
expect 0 "f64 iota prod" -- "$clrdx" reduce --device "$dev" --type f64 --op prod --generate iota --count 1000
same 0 "f64 iota prod"
expect 0 "u8 prod into f32" -- "$clrdx" reduce --device "$dev" --type u8 --op prod --acc f32 --generate iota --count 1000
same 0 "u8 prod into f32"
python3 -c 'import struct, sys; open(sys.argv[1], "wb").write(struct.pack("<4f", 0.0, 3e38, float("inf"), 3e38))' "$tmp/zinf"
expect 0 "f32 prod of 0 and inf" -- "$clrdx" reduce --device "$dev" --type f32 --op prod --input "$tmp/zinf"
same nan "f32 prod of 0 and inf"
python3 -c 'import struct, sys; open(sys.argv[1], "wb").write(struct.pack("<2f", float("inf"), float("-inf")))' "$tmp/infs"
expect 0 "inf + -inf" -- "$clrdx" reduce --device "$dev" --type f32 --op sum --input "$tmp/infs"
same nan "inf + -inf prints nan"

# .npy headers NumPy would read otherwise, refused (exit 2): a repeated key (NumPy takes the last
# value, a first-wins read another order, dtype or shape), a key NumPy refuses, more than 64
# dimensions. Each file's data fits the first value, so a first-wins read would sum it.
# hnpy FILE HEADER STRUCTFMT VALUES...: HEADER with Python's escapes (\x1b) read, padded as NumPy pads.
hnpy() {
  python3 - "$@" <<'PY'
import struct, sys
path, header, fmt = sys.argv[1], sys.argv[2].encode().decode("unicode_escape"), sys.argv[3]
values = [int(v) for v in sys.argv[4:]]
header += " " * (63 - (10 + len(header)) % 64) + "\n"
with open(path, "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1"))
    f.write(struct.pack("<%d%s" % (len(values), fmt), *values))
PY
}
hnpy "$tmp/rep_fortran.npy" "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 3), 'fortran_order': True, }" i 1 2 3 4 5 6
expect 2 "npy with fortran_order twice" -- "$clrdx" reduce --device "$dev" --input "$tmp/rep_fortran.npy" --axis 1 --op sum
says "header gives 'fortran_order' twice" "npy with fortran_order twice"
hnpy "$tmp/rep_descr.npy" "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), 'descr': '<i4', }" i 1 2 3 4
expect 2 "npy with descr twice" -- "$clrdx" reduce --device "$dev" --input "$tmp/rep_descr.npy" --op sum
says "header gives 'descr' twice" "npy with descr twice"
hnpy "$tmp/rep_shape.npy" "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 3), \"shape\": (3, 2), }" i 1 2 3 4 5 6
expect 2 "npy with shape twice" -- "$clrdx" reduce --device "$dev" --input "$tmp/rep_shape.npy" --axis 0 --op sum
says "header gives 'shape' twice" "npy with shape twice"
hnpy "$tmp/extra_key.npy" "{'descr': '<i4', 'fortran_order': False, 'shape': (2,), 'extra': 1, }" i 1 2
expect 2 "npy with an unknown key" -- "$clrdx" reduce --device "$dev" --input "$tmp/extra_key.npy" --op sum
says "header has the key 'extra'" "npy with an unknown key"
ones() { python3 -c 'import sys; print("(" + "1, " * int(sys.argv[1]) + ")")' "$1"; }
hnpy "$tmp/dims64.npy" "{'descr': '<i4', 'fortran_order': False, 'shape': $(ones 64)}" i 7
expect 0 "npy of 64 dimensions" -- "$clrdx" reduce --device "$dev" --input "$tmp/dims64.npy" --op sum
same 7 "npy of 64 dimensions"
hnpy "$tmp/dims65.npy" "{'descr': '<i4', 'fortran_order': False, 'shape': $(ones 65)}" i 7
expect 2 "npy of 65 dimensions" -- "$clrdx" reduce --device "$dev" --input "$tmp/dims65.npy" --op sum
says "shape has more than 64 dimensions" "npy of 65 dimensions"

# Control characters from a file reach no message raw: a dtype holding a terminal escape and BEL,
# a key holding a newline, a file name holding ESC and a newline are shown escaped (\x1b, \n), so
# stderr is one line with no byte below 0x20 but its final newline.
no_controls() { LC_ALL=C grep -qP '[\x00-\x09\x0b-\x1f\x7f]' "$tmp/err" && bad "$1: control bytes on stderr: $(od -c "$tmp/err" | head -3)" || ok; }
hnpy "$tmp/esc.npy" "{'descr': '\x1b]0;PWNED\x07\x1b[31m', 'fortran_order': False, 'shape': (1,), }" i 1
expect 2 "npy dtype holding ESC and BEL" -- "$clrdx" reduce --device "$dev" --input "$tmp/esc.npy" --op sum
no_controls "npy dtype holding ESC and BEL"
says '\x1b]0;PWNED\x07\x1b[31m' "npy dtype holding ESC and BEL is shown escaped"
hnpy "$tmp/nl_key.npy" "{'descr': '<i4', 'fortran_order': False, 'shape': (1,), 'a\nb\x1b': 1}" i 1
expect 2 "npy key holding a newline" -- "$clrdx" reduce --device "$dev" --input "$tmp/nl_key.npy" --op sum
no_controls "npy key holding a newline"
odd="$tmp/odd"$'\n\x1b[31m'.npy
cp "$tmp/esc.npy" "$odd"
expect 2 "npy file name holding a newline and ESC" -- "$clrdx" reduce --device "$dev" --input "$odd" --op sum
no_controls "npy file name holding a newline and ESC"
says 'odd\n\x1b[31m.npy' "npy file name is shown escaped"

# Kernels built cold (empty PoCL and librdx caches) print nothing: every strategy's f32 sum,
# and auto's wide-vector forms (64-bit and widened accumulators) and float products. The
# sanitizer build (tools/sanitize.sh sets RDX_TEST_NO_COLD=1) leaves this to the release build:
# the kernels are the same, and 30 cold builds under ASan took most of its time.
if [ -n "${RDX_TEST_NO_COLD:-}" ]; then
  echo "SKIPPED: cold builds (RDX_TEST_NO_COLD; the release build runs them)"
  finish cli.semantics
  exit
fi
# One pair of cold caches for them all: each builds programs no other run here builds.
cold="$tmp/cold"
rm -rf "$cold"
for s in $("$clrdx" strategies --json | python3 -c 'import json, sys; print(" ".join(r["name"] for r in json.load(sys.stdin)))'); do
  expect 0 "cold $s f32 sum" -- env POCL_CACHE_DIR="$cold/pocl" RDX_CACHE_DIR="$cold/rdx" "$clrdx" reduce --device "$dev" --strategy "$s" --type f32 --op sum --generate ones --count 1000
  quiet "cold $s f32 sum"
done
for args in "f64 max f64" "f32 prod f32" "i8 xor i8" "f64 argmin f64" "u8 sum u64" "i16 sum f64"; do
  set -- $args
  expect 0 "cold auto $args" -- env POCL_CACHE_DIR="$cold/pocl" RDX_CACHE_DIR="$cold/rdx" "$clrdx" reduce --device "$dev" --type "$1" --op "$2" --acc "$3" --generate ones --count 100000
  quiet "cold auto $args"
done
# The columns of an i64 array: segmented.cl's 16-wide column kernel, where PoCL's compiler counted
# warnings on its own built-ins on stderr ("1 warning generated.") before builds passed -w.
python3 - "$tmp/cols.npy" <<'PY'
import struct, sys
header = "{'descr': '<i8', 'fortran_order': False, 'shape': (64, 64), }"
header += " " * (63 - (10 + len(header)) % 64) + "\n"
with open(sys.argv[1], "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
    f.write(struct.pack("<4096q", *range(4096)))
PY
expect 0 "cold axis 0 of i64" -- env POCL_CACHE_DIR="$cold/pocl" RDX_CACHE_DIR="$cold/rdx" "$clrdx" reduce --device "$dev" --input "$tmp/cols.npy" --axis 0 --op sum --output "$tmp/cols_sum.npy"
quiet "cold axis 0 of i64"
python3 -c '
import struct, sys
b = open(sys.argv[1], "rb").read(); n = struct.unpack("<H", b[8:10])[0]
got = struct.unpack("<64q", b[10 + n:]); want = tuple(sum(64 * r + c for r in range(64)) for c in range(64))
assert got == want, got[:4]' "$tmp/cols_sum.npy" && ok || bad "cold axis 0 of i64: column sums"
finish cli.semantics
