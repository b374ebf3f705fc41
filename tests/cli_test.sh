#!/usr/bin/env bash
# clrdx end to end: outputs, JSON, file formats, and the exit code and one-line message of every
# documented error. Usage: cli_test.sh path/to/clrdx
set -u
clrdx=$1
dev=${RDX_DEVICE:-cpu}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# expect CODE DESCRIPTION -- command...: exit code CODE; on error exactly one line on stderr.
expect() {
  local code=$1 what=$2; shift 3
  "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ "$rc" != "$code" ]; then bad "$what: exit $rc, want $code; stderr: $(head -3 "$tmp/err")"; return; fi
  if [ "$code" != 0 ] && [ "$code" != "help" ]; then
    local lines; lines=$(grep -c . "$tmp/err")
    [ "$lines" = 1 ] || { bad "$what: $lines lines on stderr, want 1: $(cat "$tmp/err")"; return; }
    [ -s "$tmp/out" ] && { bad "$what: wrote to stdout on error"; return; }
  fi
  ok
}
# same OUT DESCRIPTION: stdout of the last expect equals OUT
same() { [ "$(cat "$tmp/out")" = "$1" ] && ok || bad "$2: stdout '$(cat "$tmp/out")', want '$1'"; }

# A .npy writer with the standard library only: npy FILE DESCR SHAPE FORTRAN STRUCTFMT VALUES...
npy() {
  python3 - "$@" <<'PY'
import struct, sys
path, descr, shape, fortran, fmt = sys.argv[1:6]
vals = [float(v) if fmt in "fd" else int(v) for v in sys.argv[6:]]
header = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (descr, fortran, shape)
header += " " * (63 - (10 + len(header)) % 64) + "\n"
with open(path, "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
    f.write(struct.pack("<%d%s" % (len(vals), fmt), *vals))
PY
}

expect 0 "help" -- "$clrdx" --help
expect 0 "reduce help" -- "$clrdx" reduce --help
grep -q -- "--generate" "$tmp/out" && ok || bad "reduce --help lacks --generate"
expect 0 "version" -- "$clrdx" --version
grep -q "clrdx [0-9]" "$tmp/out" && ok || bad "version: $(cat "$tmp/out")"
expect 0 "devices" -- "$clrdx" devices
expect 0 "devices json" -- "$clrdx" devices --json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d and "name" in d[0]' "$tmp/out" && ok || bad "devices --json"
expect 0 "strategies json" -- "$clrdx" strategies --json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert all(s["kernel_file"] is not None and s["seeds"] for s in d); assert len(d) >= 3' "$tmp/out" && ok || bad "strategies --json"

expect 0 "iota sum" -- "$clrdx" reduce --device "$dev" --type i64 --op sum --generate iota --count 100000
same 4999950000 "iota sum"
expect 0 "u8 wraps" -- "$clrdx" reduce --device "$dev" --type u8 --op sum --generate ones --count 1000
same 232 "u8 sum of 1000 ones"
expect 0 "acc widens" -- "$clrdx" reduce --device "$dev" --type u8 --acc u32 --op sum --generate ones --count 1000
same 1000 "u8 into u32"
expect 0 "argmax" -- "$clrdx" reduce --device "$dev" --type i32 --op argmax --generate mod:10 --count 1000
same "9 9" "argmax of i % 10: value 9, first index 9"
for s in $("$clrdx" strategies --json | python3 -c 'import json,sys; print(" ".join(x["name"] for x in json.load(sys.stdin)))'); do
  expect 0 "strategy $s" -- "$clrdx" reduce --device "$dev" --strategy "$s" --type i32 --op sum --generate mod:7 --count 100003
  [ "$(cat "$tmp/out")" = "300006" ] || grep -q "cannot" "$tmp/err" && ok || bad "strategy $s: $(cat "$tmp/out")"
done
expect 0 "json" -- "$clrdx" reduce --device "$dev" --type f32 --op argmin --generate random --count 5000 --json
python3 -c '
import json,sys; j=json.load(open(sys.argv[1]))
for k in ("device","strategy","type","op","count","result","index","seconds"): assert k in j, k
assert j["count"] == 5000 and j["type"] == "f32" and j["op"] == "argmin"' "$tmp/out" && ok || bad "reduce --json fields: $(cat "$tmp/out")"

# Files: raw and .npy
python3 -c 'import struct; open("'"$tmp"'/raw.bin","wb").write(struct.pack("<5i", 1, -2, 3, 40, 5))'
expect 0 "raw file" -- "$clrdx" reduce --device "$dev" --input "$tmp/raw.bin" --type i32 --op max
same 40 "raw max"
npy "$tmp/a.npy" "<f8" "(2, 3)" False d 1.5 2 3 4 5 6.5
expect 0 "npy f8" -- "$clrdx" reduce --device "$dev" --input "$tmp/a.npy" --op sum
same 22 "npy sum"
npy "$tmp/b.npy" "|u1" "(4,)" False B 9 8 200 7
expect 0 "npy u1 argmax" -- "$clrdx" reduce --device "$dev" --input "$tmp/b.npy" --type u8 --op argmax
same "200 2" "npy argmax"

# Bad input: exit 2, one line
expect 2 "npy type disagrees" -- "$clrdx" reduce --device "$dev" --input "$tmp/a.npy" --type f32 --op sum
printf 'abcdefg' >"$tmp/odd.bin"
expect 2 "raw size not a multiple" -- "$clrdx" reduce --device "$dev" --input "$tmp/odd.bin" --type i32 --op sum
expect 2 "raw without type" -- "$clrdx" reduce --device "$dev" --input "$tmp/raw.bin" --op sum
npy "$tmp/c.npy" "<c16" "(1,)" False d 1 2
expect 2 "npy complex dtype" -- "$clrdx" reduce --device "$dev" --input "$tmp/c.npy" --op sum
npy "$tmp/d.npy" "<i4" "(2, 2)" True i 1 2 3 4
expect 2 "npy fortran order" -- "$clrdx" reduce --device "$dev" --input "$tmp/d.npy" --op sum
npy "$tmp/e.npy" ">i4" "(1,)" False i 1
expect 2 "npy big-endian" -- "$clrdx" reduce --device "$dev" --input "$tmp/e.npy" --op sum
head -c 30 "$tmp/a.npy" >"$tmp/trunc.npy"
expect 2 "npy truncated header" -- "$clrdx" reduce --device "$dev" --input "$tmp/trunc.npy" --op sum
head -c 140 "$tmp/a.npy" >"$tmp/short.npy"
expect 2 "npy truncated data" -- "$clrdx" reduce --device "$dev" --input "$tmp/short.npy" --op sum
: >"$tmp/empty.npy"
expect 2 "empty npy" -- "$clrdx" reduce --device "$dev" --input "$tmp/empty.npy" --op sum
printf '\x93NUMPY\x01\x00\x10\x00garbage garbage!' >"$tmp/garbled.npy"
expect 2 "garbled npy" -- "$clrdx" reduce --device "$dev" --input "$tmp/garbled.npy" --op sum
expect 2 "missing file" -- "$clrdx" reduce --device "$dev" --input "$tmp/nope.bin" --type i32 --op sum
expect 2 "directory" -- "$clrdx" reduce --device "$dev" --input "$tmp" --type i32 --op sum
expect 2 "unknown device" -- "$clrdx" reduce --device no-such-device --type i32 --op sum --generate ones --count 5
expect 2 "unknown type" -- "$clrdx" reduce --device "$dev" --type f16 --op sum --generate ones --count 5
expect 2 "unknown op" -- "$clrdx" reduce --device "$dev" --type i32 --op mean --generate ones --count 5
expect 2 "unknown strategy" -- "$clrdx" reduce --device "$dev" --strategy nope --type i32 --op sum --generate ones --count 5
expect 2 "negative count" -- "$clrdx" reduce --device "$dev" --type i32 --op sum --generate ones --count -5
expect 2 "non-numeric count" -- "$clrdx" reduce --device "$dev" --type i32 --op sum --generate ones --count abc
expect 2 "bad pattern" -- "$clrdx" reduce --device "$dev" --type i32 --op sum --generate gauss --count 5
expect 2 "argmin of empty" -- "$clrdx" reduce --device "$dev" --type i32 --op argmin --generate ones --count 0
expect 0 "sum of empty" -- "$clrdx" reduce --device "$dev" --type f32 --op min --generate ones --count 0
same inf "min of empty is +inf"
expect 2 "xor of floats" -- "$clrdx" reduce --device "$dev" --type f32 --op xor --generate ones --count 5
expect 2 "acc narrower" -- "$clrdx" reduce --device "$dev" --type i32 --acc i8 --op sum --generate ones --count 5
expect 2 "missing op" -- "$clrdx" reduce --device "$dev" --type i32 --generate ones --count 5
expect 2 "no subcommand" -- "$clrdx"
expect 2 "bad wg" -- "$clrdx" reduce --device "$dev" --wg 100 --type i32 --op sum --generate ones --count 5

# verify and bench, small
expect 0 "verify" -- "$clrdx" verify --device "$dev" --strategy localtree --quick --json
python3 -c '
import json,sys; j=json.loads(open(sys.argv[1]).readline())
assert j["strategy"] == "localtree" and j["failed"] == 0 and j["passed"] > 1000, j' "$tmp/out" && ok || bad "verify --json"
expect 0 "bench" -- "$clrdx" bench --device "$dev" --strategy bottomup,localtree --sizes 1Ki,3001 --repeat 2 --json "$tmp/b.jsonl"
grep -q "localtree" "$tmp/out" && ok || bad "bench table lacks localtree"
python3 -c '
import json,sys; rows=[json.loads(l) for l in open(sys.argv[1])]
assert len(rows) == 4, rows
for r in rows:
    for k in ("device","strategy","type","op","n","call_us","GBps","result","ok"): assert k in r, k
    assert r["ok"], r' "$tmp/b.jsonl" && ok || bad "bench --json rows"
expect 2 "bench bad size" -- "$clrdx" bench --device "$dev" --sizes 1Kx

# tune and the tuning file
expect 0 "tune" -- "$clrdx" tune --device "$dev" --types i32 --ops sum --sizes 4Ki --repeat 2 --file "$tmp/tune.json"
python3 -c '
import json,sys; j=json.load(open(sys.argv[1])); assert j["librdx_tuning"] == 1
for e in j["entries"]: assert e["type"] == "i32" and e["op"] == "sum" and e["device"], e' "$tmp/tune.json" && ok || bad "tune wrote no valid tuning file"
expect 0 "tune --clear" -- "$clrdx" tune --device "$dev" --clear --file "$tmp/tune.json"
python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["entries"] == []' "$tmp/tune.json" && ok || bad "tune --clear left entries"
expect 2 "tune bad margin" -- "$clrdx" tune --device "$dev" --margin 3 --file "$tmp/tune.json"
expect 2 "tune bad type" -- "$clrdx" tune --device "$dev" --types f16 --file "$tmp/tune.json"
# A tuning file entry for CPUs makes auto run fast_strided there, with exact results.
printf '{"entries": [{"kind": "cpu", "auto": "fast_strided", "note": "cli test"}]}' >"$tmp/cpu.json"
RDX_TUNING_FILE="$tmp/cpu.json" expect 0 "tuned auto" -- "$clrdx" reduce --device cpu --type i64 --op sum --generate iota --count 100000 --json
python3 -c '
import json,sys; j=json.load(open(sys.argv[1])); assert j["strategy"] == "fast_strided" and j["result"] == 4999950000, j' "$tmp/out" && ok || bad "tuning file entry not used: $(cat "$tmp/out")"
printf '{"entries": [{"kind": "cpu", "wg": "big"}]}' >"$tmp/bad.json"
RDX_TUNING_FILE="$tmp/bad.json" expect 2 "malformed tuning file" -- "$clrdx" reduce --device cpu --type i32 --op sum --generate ones --count 5
grep -q "bad.json" "$tmp/err" && ok || bad "malformed tuning file: message lacks the path: $(cat "$tmp/err")"

echo "cli: $pass passed, $fail failed"
[ "$fail" = 0 ]
