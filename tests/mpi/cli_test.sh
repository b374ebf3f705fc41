#!/usr/bin/env bash
# clrdx-mpi under mpirun -n 1, 2 and 4 against clrdx reduce of the same file: float sums under
# any_device and exact (the same bits), argmax ties at every rank boundary, ranks with no
# elements, .npy input, and the exit code and one line of its errors.
# Usage: cli_test.sh path/to/clrdx path/to/clrdx-mpi path/to/mpirun
set -u
clrdx=$1
clrdx_mpi=$2
mpirun=$3
. "$(dirname "$0")/../cli_lib.sh"
# -q: mpirun's own banner stays off stderr (a failing rank's exit code is still mpirun's).
ranks() { local n=$1; shift; "$mpirun" -q -n "$n" --oversubscribe "$clrdx_mpi" "$@"; }
hex() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["hex"])' "$tmp/out"; }

python3 - "$tmp" <<'PY'
import random, struct, sys
tmp = sys.argv[1]
random.seed(3)
# Floats over 2^-40 .. 2^40 with cancellation: rounding would show.
vals = [random.uniform(-1, 1) * 2.0 ** random.randint(-40, 40) for _ in range(100003)]
open(tmp + "/f.f32", "wb").write(struct.pack("<%df" % len(vals), *vals))
open(tmp + "/f.f64", "wb").write(struct.pack("<%dd" % len(vals), *vals))
# 1000 i32 with the maximum at both sides of every boundary of 2 and 4 ranks (250, 500, 750):
# the first, 249, must win.
ints = [random.randint(-100, 100) for _ in range(1000)]
for k in (249, 250, 499, 500, 749, 750, 999):
    ints[k] = 1000
open(tmp + "/ties.i32", "wb").write(struct.pack("<1000i", *ints))
# 3 elements for 4 ranks: rank 0 has none.
open(tmp + "/three.i64", "wb").write(struct.pack("<3q", 5, -7, 2**40))
open(tmp + "/empty.i32", "wb").close()
header = "{'descr': '<i2', 'fortran_order': False, 'shape': (5,), }"
header += " " * (63 - (10 + len(header)) % 64) + "\n"
open(tmp + "/s.npy", "wb").write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) +
                                 header.encode() + struct.pack("<5h", 4, -3, 9, -3, 8))
PY

expect 0 "help" -- ranks 2 --help
[ "$(grep -c "clrdx-mpi" "$tmp/out")" -ge 1 ] && [ "$(grep -c "^Usage" "$tmp/out")" = 1 ] && ok ||
  bad "help: printed by every rank or not at all: $(head -3 "$tmp/out")"

for level in any_device exact; do
  for t in f32 f64; do
    expect 0 "one process $t $level" -- "$clrdx" reduce --device "$dev" --input "$tmp/f.$t" \
      --type "$t" --op sum --determinism "$level" --json
    want=$(hex)
    for n in 1 2 4; do
      expect 0 "$n ranks $t $level" -- ranks "$n" --device "$dev" --input "$tmp/f.$t" --type "$t" \
        --op sum --determinism "$level" --json
      [ "$(hex)" = "$want" ] && ok || bad "$n ranks $t $level: $(hex), one process: $want"
    done
  done
done
matches '"ranks":4' out "json ranks"
matches '"count":100003' out "json count"

for n in 1 2 4; do
  expect 0 "$n ranks argmax ties" -- ranks "$n" --device "$dev" --input "$tmp/ties.i32" --type i32 --op argmax
  same "1000 249" "$n ranks argmax ties"
  expect 0 "$n ranks, some empty" -- ranks "$n" --device "$dev" --input "$tmp/three.i64" --type i64 --op sum
  same "1099511627774" "$n ranks, some empty"
  expect 0 "$n ranks npy" -- ranks "$n" --device "$dev" --input "$tmp/s.npy" --op argmin
  same "-3 1" "$n ranks npy"
  expect 0 "$n ranks empty file" -- ranks "$n" --device "$dev" --input "$tmp/empty.i32" --type i32 --op max
  same "$("$clrdx" reduce --device "$dev" --input "$tmp/empty.i32" --type i32 --op max)" "$n ranks empty file"
done

expect 2 "argmax of nothing" -- ranks 2 --device "$dev" --input "$tmp/empty.i32" --type i32 --op argmax
says "argmax of an empty input has no result" "argmax of nothing"
expect 2 "missing file" -- ranks 2 --device "$dev" --input "$tmp/none" --type i32 --op sum
says "rank 0: cannot read" "missing file"
expect 2 "a pipe" -- ranks 2 --device "$dev" --input /dev/stdin --type i32 --op sum </dev/null
says "not a regular file" "a pipe"
# Rank 0 takes item 0 of the list, rank 1 item 1: only rank 1's device is missing.
expect 2 "a device list item past the devices" -- ranks 2 --input "$tmp/ties.i32" --type i32 --op sum --device 0,5
says "rank 1: --device 0,5: item '5', this rank's (node rank 1): device index 5 out of range" "a device list item past the devices"
expect 2 "composite" -- ranks 2 --device "$dev" --input "$tmp/ties.i32" --type i32 --op mean
says "built-in operators" "composite"
expect 2 "unknown operator" -- ranks 2 --input "$tmp/ties.i32" --type i32 --op bogus
expect 2 "no --op" -- ranks 2 --input "$tmp/ties.i32" --type i32
expect 2 "float product" -- ranks 2 --device "$dev" --input "$tmp/f.f32" --type f32 --op prod
says "float product" "float product"

finish cli.mpi
