#!/usr/bin/env bash
# valgrind memcheck over clrdx reduce (generated data and a file), with PoCL's compiler and thread
# allocations suppressed (pocl.supp, each one explained): fails when anything lost or misused is
# left in librdx's or clrdx's own code (our_losses.py). Usage: run.sh path/to/clrdx
set -euo pipefail
clrdx=$1
here=$(cd "$(dirname "$0")" && pwd)
command -v valgrind >/dev/null || { echo "valgrind is not installed (tools/setup.sh --ci)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 -c 'import struct,sys; open(sys.argv[1],"wb").write(struct.pack("<5000i",*[(i*37)%1001-500 for i in range(5000)]))' "$tmp/in.i32"
want_file=$(python3 -c 'v=[(i*37)%1001-500 for i in range(5000)]; m=max(v); print(m, v.index(m))')
status=0
run() {  # run NAME EXPECTED clrdx-args...
  local name=$1 want=$2; shift 2
  "$clrdx" "$@" >/dev/null  # the kernels' binaries into the cache, outside valgrind
  valgrind --leak-check=full --show-leak-kinds=definite,indirect,possible \
    --errors-for-leak-kinds=definite,indirect,possible --num-callers=50 \
    --suppressions="$here/pocl.supp" --xml=yes --xml-file="$tmp/$name.xml" \
    "$clrdx" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" || true
  local got; got=$(cat "$tmp/$name.out")
  if [ "$got" != "$want" ]; then
    echo "FAIL $name: clrdx printed '$got', want '$want'"; cat "$tmp/$name.err"; status=1
  fi
  echo "$name: $*"
  python3 "$here/our_losses.py" "$tmp/$name.xml" "$clrdx" || status=1
}
# Both runs use one kernel (i32 argmax), so PoCL compiles it once under valgrind.
run generate "999 999" reduce --device cpu --type i32 --op argmax --generate mod:1000 --count 100000
run file "$want_file" reduce --device cpu --op argmax --type i32 --input "$tmp/in.i32"
exit $status
