#!/usr/bin/env bash
# Every strategy's kernels under Oclgrind's simulator with --data-races --uninitialized, at sizes
# that cross every code path with work-groups of 16: n = 0, 1, wg - 1, wg + 1, a few groups (300)
# and a second and third pass or finish (5000), for four kernel families: f32 sum, i32 argmax
# (a state of value and index), u8 argmin (a widened accumulator) and f64 prod (float products
# mark input infinities). Fails on any Oclgrind report, on a clrdx failure, or on an integer result
# that differs from PoCL's. The control first: a kernel with a real race must be reported.
# Usage: run.sh path/to/clrdx path/to/race_control
set -euo pipefail
clrdx=$1
control=$2
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
for family in f32:sum i32:argmax u8:argmin f64:prod; do
  type=${family%:*} op=${family#*:}
  for n in 0 1 15 17 300 5000; do
    args=(reduce --type "$type" --op "$op" --generate random --count "$n")
    want=$("$clrdx" "${args[@]}" --device cpu 2>&1) || want="exit $?"  # argmin of 0: exit 2
    for s in "${strategies[@]}"; do
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
echo "$runs runs under oclgrind, $( [ $status = 0 ] && echo "no report" || echo "FAILED")"
exit $status
