#!/usr/bin/env bash
# The first run: sets up what is missing (gnuplot too, for the plot), builds clrdx, then shows
# what librdx does on the default device ($RDX_DEVICE, else the first GPU, else the first device):
#   1. the devices;
#   2. a reduction of a generated array and one of a .npy file that this script writes, each
#      checked against the value computed here;
#   3. a short verify of auto and the design card's three strategies (bottomup, topdown, hybrid):
#      every size class up to 2^17, i32 and f32, sum, max and argmin;
#   4. the strategy table of `clrdx bench` at one size (RDX_BENCH_SIZE, default 4Mi), its % peak
#      against a measured read of the same bytes, and its plot (one bar per strategy).
# The table, its JSON rows and the plot go to $RDX_RUN_OUT (default build/run/). The full verify,
# every strategy x type x operator, is `clrdx verify` (docs/testing.md).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/tools/setup.sh" --plot
"$root/tools/build.sh" -DRDX_BUILD_TESTS=OFF
build=${RDX_BUILD_DIR:-$root/build}
clrdx=$build/tools/clrdx/clrdx
out=${RDX_RUN_OUT:-$build/run}
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
step() { printf '\n== %s\n' "$*"; }
fail() {
  echo "run.sh: $*" >&2
  exit 1
}

step "clrdx devices"
"$clrdx" devices

n=1000000
step "clrdx reduce --generate iota --count $n --type i64 --op sum (element i = i)"
got=$("$clrdx" reduce --generate iota --count "$n" --type i64 --op sum)
want=$((n * (n - 1) / 2))
echo "$got (expected $want)"
[ "$got" = "$want" ] || fail "the generated sum is $got, not $want"

step "clrdx reduce --input values.npy --op sum (i32, element k = k % 1000, written here)"
python3 - "$tmp/values.npy" "$n" <<'EOF'
import struct, sys
path, n = sys.argv[1], int(sys.argv[2])
header = "{'descr': '<i4', 'fortran_order': False, 'shape': (%d,), }" % n
header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"  # NumPy pads to 64 bytes
with open(path, "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1"))
    f.write(struct.pack("<%di" % n, *(k % 1000 for k in range(n))))
EOF
got=$("$clrdx" reduce --input "$tmp/values.npy" --op sum)
want=$(python3 -c "print(sum(k % 1000 for k in range($n)))")
echo "$got (expected $want)"
[ "$got" = "$want" ] || fail "the .npy sum is $got, not $want"

for s in auto bottomup topdown hybrid; do
  step "clrdx verify --strategy $s --quick --types i32,f32 --ops sum,max,argmin"
  "$clrdx" verify --strategy "$s" --quick --types i32,f32 --ops sum,max,argmin
done

size=${RDX_BENCH_SIZE:-4Mi}
step "clrdx bench --sizes $size --repeat 5 (every strategy, f32 sum)"
"$clrdx" bench --sizes "$size" --repeat 5 --json "$out/bench.jsonl" --plot "$out/bench.png" |
  tee "$out/bench.txt"

step "done"
echo "table: $out/bench.txt, rows: $out/bench.jsonl, plot: $out/bench.png"
echo "the full verify (every strategy x type x operator): $clrdx verify"
