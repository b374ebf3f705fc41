#!/usr/bin/env bash
# Every strategy's kernels under Oclgrind's simulator with --data-races --uninitialized, at sizes
# that cross every code path with work-groups of 16: n = 0, 1, wg - 1, wg + 1, a few groups (300)
# and a second and third pass or finish (5000), for these kernel families: f32 sum, i32 argmax
# (a state of value and index), u8 argmin (a widened accumulator) and f64 prod (float products
# mark input infinities), f16 sum and bf16 argmax (elements stored as ushort, read through
# vload_half and a shift); and two users' reductions (USER_STATE kernels): f32 mean (a struct state
# of three fields) and u16 count (one u64 field; the atomic strategies' word); and the segmented
# kernels (rows, columns, offsets). Fails on any
# Oclgrind report, on a clrdx failure, or on an integer result that differs from PoCL's. The
# control first: a kernel with a real race must be reported.
# Not run under Oclgrind: users' reductions on amp_sequential (it has none) and auto/fast_* (their last work-group reads the other
# groups' partials after a fence and an atomic ticket, which Oclgrind does not model and reports
# as a race; the built-in operators finish these grids on the host) and minmax (Oclgrind's
# Uninitialized plugin stops on the llvm.memmove its 24-byte state copies compile to).
# Usage: run.sh path/to/clrdx path/to/race_control path/to/rdx_device_tests
set -euo pipefail
clrdx=$1
control=$2
device_tests=$3
command -v oclgrind >/dev/null || { echo "oclgrind is not installed (tools/setup.sh)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export RDX_CACHE_DIR=off  # Oclgrind's programs are built by Oclgrind, every time

oclgrind --data-races --log "$tmp/control.log" "$control" >/dev/null
if ! grep -q "data race" "$tmp/control.log"; then
  echo "FAIL control: oclgrind reported no race in race_control"
  exit 1
fi
echo "control: the race was reported"

mapfile -t strategies < <("$clrdx" strategies --json | python3 -c \
  'import json, sys; print("\n".join(s["name"] for s in json.load(sys.stdin)))')
strategies+=(auto)
status=0 runs=0
for family in f32:sum i32:argmax u8:argmin f64:prod f32:mean u16:count f32:max f16:sum bf16:argmax; do
  type=${family%:*} op=${family#*:}
  for n in 0 1 15 17 300 5000; do
    args=(reduce --type "$type" --op "$op" --generate random --count "$n")
    want=$("$clrdx" "${args[@]}" --device cpu 2>&1) || want="exit $?"  # argmin of 0: exit 2
    for s in "${strategies[@]}"; do
      if [[ $op == mean || $op == count ]] && [[ $s == auto || $s == fast_* || $s == amp_sequential ]]; then continue; fi
      log=$tmp/$s.$type.$op.$n.log
      got=$(oclgrind --data-races --uninitialized --max-errors 5 --log "$log" \
              "$clrdx" "${args[@]}" --strategy "$s" --wg 16 2>&1) || got="exit $?"
      runs=$((runs + 1))
      if [ -s "$log" ]; then
        echo "FAIL $s $type $op n=$n: oclgrind reported"; head -20 "$log"; status=1
      elif [[ $got == exit* && $got != "$want" ]] || { [[ $type != f* ]] && [ "$got" != "$want" ]; }; then
        echo "FAIL $s $type $op n=$n: printed '$got', PoCL '$want'"; status=1
      fi
    done
  done
done
# Segmented reductions (cl/segmented.cl and cl/exact_segments.cl, GPU forms: Oclgrind reports a GPU): rows (several lanes
# and their tree, 4-element loads with a head and a tail), columns (neighbouring segments per
# group, parts and seg_finish) and offsets with empty, short and long segments, on i32 data; with
# --data-races only: Oclgrind's Uninitialized plugin stops on the `freeze` instruction that
# LLVM 14+ emits for these kernels' paired division and remainder.
python3 - "$tmp" <<'PY'
import struct, sys
def npy(path, descr, shape, fmt, vals):
    dims = ", ".join(map(str, shape)) + ("," if len(shape) == 1 else "")
    h = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (descr, dims)
    h += " " * (63 - (10 + len(h)) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h.encode())
        f.write(struct.pack("<%d%s" % (len(vals), fmt), *vals))
d = sys.argv[1]
npy(d + "/m.npy", "<i4", (7, 301), "i", [(i * 7919) % 1000 - 500 for i in range(7 * 301)])
npy(d + "/off.npy", "<i8", (6,), "q", [0, 0, 1, 35, 2000, 2107])
npy(d + "/c.npy", "<i4", (300, 5), "i", [(i * 7919) % 1000 - 500 for i in range(300 * 5)])
npy(d + "/mf.npy", "<f4", (7, 301), "f", [((i * 7919) % 1000 - 500) * 2.0 ** ((i % 61) - 30) for i in range(7 * 301)])
npy(d + "/q.npy", "<i4", (5, 7, 61), "i", [(i * 7919) % 1000 - 500 for i in range(5 * 7 * 61)])
npy(d + "/qf.npy", "<f4", (5, 7, 61), "f", [((i * 7919) % 1000 - 500) * 2.0 ** ((i % 61) - 30) for i in range(5 * 7 * 61)])
PY
# The view form (cl/view.h: axes 0 and 2 of a 3-D array, apart) runs a sum, argmax, an exact sum
# and a mean (a user's state). Of the others, the last three are users' reductions (their
# states, several fields, a map of two inputs); the first three exact segmented sums (cl/exact_segments.cl: rows and offsets with 16 lanes and
# their tree of digits, columns with one lane).
for seg in "mf --axis 1 --op sum --determinism exact" "mf --axis 0 --op sum --determinism exact" \
           "mf --segments $tmp/off.npy --op sum --determinism any_device" \
           "m --axis 1 --op sum" "m --axis 0 --op argmax" "c --axis 0 --op max" \
           "m --segments $tmp/off.npy --op min" "m --segments $tmp/off.npy --op argmin" \
           "m --segments $tmp/off.npy --op minmax" "m --axis 0 --op mean" \
           "c --axis 1 --input2 $tmp/c.npy --combine max(a,b) --identity INT_MIN --map x0*x1" \
           "q --axis 0,2 --op sum" "q --axis 0,2 --op argmax" \
           "qf --axis 0,2 --op sum --determinism exact" "q --axis 0,2 --op mean"; do
  read -ra extra <<<"$seg"
  input=$tmp/${extra[0]}.npy
  extra=("${extra[@]:1}")
  want=$("$clrdx" reduce --input "$input" "${extra[@]}" --device cpu 2>&1) || want="exit $?"
  log=$tmp/segmented.$runs.log
  got=$(oclgrind --data-races --max-errors 5 --log "$log" \
          "$clrdx" reduce --input "$input" "${extra[@]}" --wg 16 2>&1) || got="exit $?"
  runs=$((runs + 1))
  if [ -s "$log" ]; then
    echo "FAIL segmented $seg: oclgrind reported"; head -20 "$log"; status=1
  elif [ "$got" != "$want" ]; then
    echo "FAIL segmented $seg: printed '$(echo "$got" | head -3)', PoCL '$(echo "$want" | head -3)'"; status=1
  fi
done
# seg_columns (the CPUs' column blocks, forced): 16-column loads and a tail, parts, the fold of 4
# columns, and argmin/argmax one column at a time; bench checks its results against the host.
# The exact sums (cl/exact_sum.cl): exact, so the same bits as PoCL's whatever the grid.
# Work-groups of 1 take the CPUs' blocks and bins, of 16 a grid stride into the digits; dot is a
# user's reduction (its mapped products, element by element).
for run in "f32 1 1 sum" "f32 4099 1 sum" "f64 4099 1 sum" "f32 4099 16 sum" "f64 4099 16 sum" \
           "f32 4099 16 dot"; do
  read -r type n wg op <<<"$run"
  args=(reduce --type "$type" --op "$op" --generate random --count "$n" --determinism exact)
  # stdout only: PoCL's compiler prints "20 warnings generated." building exact dot's kernel cold
  want=$("$clrdx" "${args[@]}" --device cpu 2>"$tmp/want.err") || want="exit $?"
  log=$tmp/exact.$runs.log
  got=$(oclgrind --data-races --uninitialized --max-errors 5 --log "$log" "$clrdx" "${args[@]}" \
          --wg "$wg" 2>&1) || got="exit $?"
  runs=$((runs + 1))
  if [ -s "$log" ]; then
    echo "FAIL exact $run: oclgrind reported"; head -20 "$log"; status=1
  elif [ "$got" != "$want" ]; then
    echo "FAIL exact $run: printed '$got', PoCL '$want'"; status=1
  fi
done
for run in "sum 40 16" "argmax 40 16" "sum 4 4"; do
  read -r op width block <<<"$run"
  log=$tmp/columns.$runs.log
  out=$(oclgrind --data-races --max-errors 5 --log "$log" "$clrdx" bench --type i32 --op "$op" \
          --layouts "columns:$width" --sizes 2400 --column-block "$block" --parts 3 --repeat 1 \
          --wg 16 2>&1) || { echo "FAIL columns $run: exit $?: $(echo "$out" | tail -3)"; status=1; }
  runs=$((runs + 1))
  if [ -s "$log" ]; then
    echo "FAIL columns $run: oclgrind reported"; head -20 "$log"; status=1
  elif ! grep -q "column_block=$block" <<<"$out"; then
    echo "FAIL columns $run: not the column-block form: $(echo "$out" | tail -2)"; status=1
  fi
done
# Inputs at an element offset (rdx::BufferAt; kernels built with -DIN_OFFSET): the device tests'
# offset cases, every strategy at offsets 3 and 1027 with NaN and low guards around the range, the
# segmented kernels' aligned loads counted from the buffer's start, users' inputs at offsets of
# their own. Oclgrind's device is a GPU to librdx.
log=$tmp/offsets.log
out=$(RDX_DEVICE=gpu oclgrind --data-races --max-errors 5 --log "$log" "$device_tests" \
        --test-case='offsets:*' 2>&1) || { echo "FAIL offsets: $(echo "$out" | tail -15)"; status=1; }
runs=$((runs + 1))
if [ -s "$log" ]; then
  echo "FAIL offsets: oclgrind reported"; head -20 "$log"; status=1
fi
echo "$runs runs under oclgrind, $( [ $status = 0 ] && echo "no report" || echo "FAILED")"
exit $status
