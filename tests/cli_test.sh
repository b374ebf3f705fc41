#!/usr/bin/env bash
# clrdx end to end: outputs, JSON, file formats, and the exit code and one-line message of every
# documented error. Usage: cli_test.sh path/to/clrdx
set -u
clrdx=$1
. "$(dirname "$0")/cli_lib.sh"

# A .npy writer with the standard library only: npy FILE DESCR SHAPE FORTRAN STRUCTFMT VALUES...
# (a DESCR starting with [ is a structured dtype's field list, written as it is)
npy() {
  python3 - "$@" <<'PY'
import struct, sys
path, descr, shape, fortran, fmt = sys.argv[1:6]
vals = [float(v) if fmt in "fd" else int(v) for v in sys.argv[6:]]
descr = descr if descr.startswith("[") else "'%s'" % descr
header = "{'descr': %s, 'fortran_order': %s, 'shape': %s, }" % (descr, fortran, shape)
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
expect 0 "json sum" -- "$clrdx" reduce --device "$dev" --type i32 --op sum --generate ones --count 7 --json
python3 -c '
import json,sys; j=json.load(open(sys.argv[1]))
assert "index" in j and j["index"] is None and j["result"] == 7, j' "$tmp/out" && ok || bad "reduce --json without an index: want \"index\": null: $(cat "$tmp/out")"

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

# Progress is for long reads: a small file read at once prints none, even when the kernel build
# takes longer than progress waits (2 s). The build is made slow by a preloaded clBuildProgram
# that waits 2.2 s before building.
cat >"$tmp/slow_build.c" <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <time.h>
typedef int (*build_fn)(void*, unsigned, const void*, const char*, void*, void*);
int clBuildProgram(void* p, unsigned n, const void* d, const char* o, void* cb, void* u) {
  struct timespec wait = {2, 200000000};
  nanosleep(&wait, 0);
  return ((build_fn)dlsym(RTLD_NEXT, "clBuildProgram"))(p, n, d, o, cb, u);
}
C
if "${CC:-cc}" -shared -fPIC -o "$tmp/slow_build.so" "$tmp/slow_build.c" -ldl 2>"$tmp/cc.err"; then
  LD_PRELOAD="$tmp/slow_build.so" expect 0 "small file, slow build" -- "$clrdx" reduce --device "$dev" --input "$tmp/raw.bin" --type i32 --op max
  same 40 "small file, slow build"
  [ -s "$tmp/err" ] && bad "small file, slow build: progress on stderr: $(cat "$tmp/err")" || ok
else
  bad "cannot build the slow-build shim with ${CC:-cc}: $(head -3 "$tmp/cc.err")"
fi

# Bad input: exit 2, one line
# Composites, maps and custom operators (whole inputs; one to four arrays)
npy "$tmp/x.npy" "<f8" "(4,)" False d 1 2 3 4
npy "$tmp/y.npy" "<f8" "(4,)" False d 10 20 30 40
npy "$tmp/y3.npy" "<f8" "(3,)" False d 10 20 30
expect 0 "mean" -- "$clrdx" reduce --device "$dev" --input "$tmp/x.npy" --op mean
same 2.5 "mean of 1..4"
expect 0 "var" -- "$clrdx" reduce --device "$dev" --input "$tmp/x.npy" --op var
same 1.25 "population var of 1..4"
expect 0 "minmax" -- "$clrdx" reduce --device "$dev" --input "$tmp/x.npy" --op minmax
same "1 0 4 3" "minmax: min, its index, max, its index"
expect 0 "dot" -- "$clrdx" reduce --device "$dev" --input "$tmp/x.npy" --input2 "$tmp/y.npy" --op dot
same 300 "dot"
expect 0 "map over two inputs" -- "$clrdx" reduce --device "$dev" --input "$tmp/x.npy" --input2 "$tmp/y.npy" --op max --map "x1 - x0 * i"
same 28 "max of x1 - x0 * i"
expect 0 "count with a predicate" -- "$clrdx" reduce --device "$dev" --input "$tmp/x.npy" --op count --map "x > 2"
same 2 "count x > 2"
expect 0 "custom operator" -- "$clrdx" reduce --device "$dev" --input "$tmp/x.npy" --combine "fmax(a, b)" --identity "-INFINITY" --map "x * x"
same 16 "custom max of squares"
expect 2 "inputs differ in length" -- "$clrdx" reduce --device "$dev" --input "$tmp/x.npy" --input2 "$tmp/y3.npy" --op dot
says "differ in length" "inputs differ in length"
# --inputK is x(K-1): in order, each read by what runs, one type
expect 2 "--input3 without --input2" -- "$clrdx" reduce --device "$dev" --input "$tmp/x.npy" --input3 "$tmp/y.npy" --op sum --map x1
says "--input3 needs --input2" "--input3 without --input2"
expect 2 "--input2 to a built-in operator" -- "$clrdx" reduce --device "$dev" --input "$tmp/x.npy" --input2 "$tmp/y3.npy" --op sum
says "--op sum reads --input only" "--input2 to a built-in operator"
expect 2 "--input2 that the map does not read" -- "$clrdx" reduce --device "$dev" --input "$tmp/x.npy" --input2 "$tmp/y.npy" --op max --map "x0 * 2.5e-1f"
says "--input2 is x1, which the map" "--input2 that the map does not read"
expect 2 "--input2 that a custom reduction does not read" -- "$clrdx" reduce --device "$dev" --input "$tmp/x.npy" --input2 "$tmp/y.npy" --combine "a + b" --identity 0
says "--input2 is x1" "--input2 that a custom reduction does not read"
npy "$tmp/y32.npy" "<f4" "(4,)" False f 10 20 30 40
expect 2 "inputs of two types" -- "$clrdx" reduce --device "$dev" --input "$tmp/x.npy" --input2 "$tmp/y32.npy" --op dot
says "--input2 $tmp/y32.npy holds f32 elements but --input $tmp/x.npy holds f64" "inputs of two types"
# One reduction over the ranks is clrdx-mpi's: clrdx reduce under an MPI launcher says so (rank 0)
OMPI_COMM_WORLD_SIZE=4 OMPI_COMM_WORLD_RANK=0 expect 0 "clrdx reduce under mpirun" -- "$clrdx" reduce --device "$dev" --input "$tmp/x.npy" --op sum
same 10 "clrdx reduce under mpirun: the sum of 1..4"
says "clrdx-mpi" "clrdx reduce under mpirun"
PMI_SIZE=4 PMI_RANK=2 expect 0 "rank 2 of a PMI launcher" -- "$clrdx" reduce --device "$dev" --input "$tmp/x.npy" --op sum
quiet "rank 2 of a PMI launcher: only rank 0 notes it"
PMI_SIZE=1 expect 0 "one PMI rank" -- "$clrdx" reduce --device "$dev" --input "$tmp/x.npy" --op sum
quiet "one PMI rank: nothing to note"
expect 2 "statements in an expression" -- "$clrdx" reduce --device "$dev" --input "$tmp/x.npy" --combine "a + b; }" --identity 0
says "not statements" "statements in an expression"
expect 2 "a pointer in a map" -- "$clrdx" reduce --device "$dev" --input "$tmp/x.npy" --op sum --map '*((float*)(ulong)i)'
says "dereferences a pointer" "a pointer in a map"
expect 2 "an identity that is not neutral" -- "$clrdx" reduce --device "$dev" --input "$tmp/x.npy" --combine "a + b" --identity 5
says "is not neutral" "an identity that is not neutral"
# (PoCL's compiler itself may print "1 error generated." on stderr: clrdx's line is the last)
"$clrdx" reduce --device "$dev" --input "$tmp/x.npy" --combine "fmax(a, b, a)" --identity 0 >"$tmp/out" 2>"$tmp/err"
[ $? = 2 ] && [ ! -s "$tmp/out" ] && tail -1 "$tmp/err" | grep -q "^clrdx: " && ok || bad "compiler error in an expression: exit 2 and one clrdx line: $(cat "$tmp/err")"
says "the combine of the reduction 'custom' does not compile: \`fmax(a, b, a)\`" "compiler error names the expression"
expect 2 "combine without identity" -- "$clrdx" reduce --device "$dev" --input "$tmp/x.npy" --combine "a + b"
says "needs both --combine and --identity" "combine without identity"
expect 2 "argmin with a map" -- "$clrdx" reduce --device "$dev" --input "$tmp/x.npy" --op argmin --map "x"
says "takes no --map" "argmin with a map"
expect 2 "minmax of nothing" -- "$clrdx" reduce --device "$dev" --type f32 --op minmax --generate ones --count 0
says "empty input" "minmax of nothing"

# verify's sets on auto with two operators, a plain one and one with an index (the composites run
# with --ops all: below on u8; the whole i32 run, every operator's segmented cases, is
# verify_cli_test.sh's, `cli.verify`, full tier).
expect 0 "verify maps and segments" -- "$clrdx" verify --device "$dev" --strategy auto --quick --types i32 --ops sum,argmin --json
python3 -c '
import json,sys
rows=[json.loads(l) for l in open(sys.argv[1])]
assert not [r for r in rows if r["set"] == "composites"], rows
# sum as a map of x (argmin has no map) at 3 sizes
m=[r for r in rows if r["strategy"] == "auto" and r["set"] == "maps"]
assert len(m) == 1 and m[0]["passed"] == 3 and m[0]["failed"] == 0, rows
# segmented: 2 operators x 61 (8 offset layouts, 46 axes of 20 shapes, axes 0,-1 of 7 of them)
s=[r for r in rows if r["set"] == "segmented"]
assert len(s) == 1 and s[0]["passed"] == 122 and s[0]["failed"] == 0, s' "$tmp/out" && ok || bad "verify maps and segments: $(cat "$tmp/out")"
# On another strategy that runs users reductions; an atomic one runs count, any, all and mean
# (one 8-byte field: its atomic word) and skips the other composites (their states are not 4 or 8
# bytes: nansum and nanprod of u8 are one byte).
for strat in bottomup atomic_local; do
  expect 0 "verify composites on $strat" -- "$clrdx" verify --device "$dev" --strategy "$strat" --quick --types u8 --json
  python3 -c '
import json,sys
r=[r for r in map(json.loads, open(sys.argv[1])) if r["set"] == "composites"]
assert len(r) == 1 and r[0]["failed"] == 0, r
assert (r[0]["passed"], r[0]["skipped"]) == ((42, 0) if sys.argv[2] == "bottomup" else (12, 30)), r' "$tmp/out" "$strat" && ok || bad "verify composites on $strat: $(cat "$tmp/out")"
done
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
npy "$tmp/huge.npy" "<f8" "(2305843009213693952,)" False d 1 2
expect 2 "npy shape of 2^61 f8 elements" -- "$clrdx" reduce --device "$dev" --input "$tmp/huge.npy" --op sum
says "$tmp/huge.npy: .npy shape (2305843009213693952,) has 2305843009213693952 elements of 8 bytes, whose byte count overflows 64 bits" "npy shape of 2^61 f8 elements"
npy "$tmp/struct.npy" "[('a', '<i4'), ('b', '<f4')]" "(2,)" False i 1 2 3 4
expect 2 "npy structured dtype" -- "$clrdx" reduce --device "$dev" --input "$tmp/struct.npy" --op sum
says "$tmp/struct.npy: .npy dtype is structured (a list of fields): structured dtypes are not supported" "npy structured dtype"
expect 2 "--count with --input" -- "$clrdx" reduce --device "$dev" --input "$tmp/raw.bin" --type i32 --op sum --count abc
says "clrdx: --count applies to --generate only, not to --input" "--count with --input"
expect 2 "--seed with --input" -- "$clrdx" reduce --device "$dev" --input "$tmp/raw.bin" --type i32 --op sum --seed zzz
says "clrdx: --seed applies to --generate only, not to --input" "--seed with --input"
expect 2 "missing file" -- "$clrdx" reduce --device "$dev" --input "$tmp/nope.bin" --type i32 --op sum
expect 2 "directory" -- "$clrdx" reduce --device "$dev" --input "$tmp" --type i32 --op sum
expect 2 "unknown device" -- "$clrdx" reduce --device no-such-device --type i32 --op sum --generate ones --count 5
expect 2 "unknown type" -- "$clrdx" reduce --device "$dev" --type f8 --op sum --generate ones --count 5
expect 2 "unknown op" -- "$clrdx" reduce --device "$dev" --type i32 --op median --generate ones --count 5
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
# Negative values of unsigned options: refused as negative, naming the option and the text typed
# (never wrapped around). no-such-device: a value that passed would still stop before any work.
# refused TEXT -- COMMAND...: exit 2, one stderr line containing TEXT
refused() { local text=$1; shift 2; expect 2 "$*" -- "$@"; says "$text" "$*"; }
gen=(--type i32 --op sum --generate ones)
negative="is negative; expected a non-negative integer"
refused "clrdx: --wg: '-1' $negative" -- "$clrdx" reduce --device no-such-device "${gen[@]}" --count 5 --wg -1
refused "clrdx: --count '-5' $negative" -- "$clrdx" reduce --device no-such-device "${gen[@]}" --count -5
refused "clrdx: --seed '-3' $negative" -- "$clrdx" reduce --device no-such-device "${gen[@]}" --count 5 --seed -3
for option in --wg --groups-per-cu --vw --unroll --repeat; do
  refused "clrdx: $option: '-1' $negative" -- "$clrdx" bench --device no-such-device "$option" -1
done
refused "clrdx: --sizes '-1' $negative" -- "$clrdx" bench --device no-such-device --sizes 1Ki,-1
refused "clrdx: --repeat: '-1' $negative" -- "$clrdx" tune --device no-such-device --repeat -1
refused "clrdx: --sizes '-1' $negative" -- "$clrdx" tune --device no-such-device --sizes -1
refused "clrdx: --max-n '-1' $negative" -- "$clrdx" verify --device no-such-device --quick --max-n -1
refused "clrdx: --seed '-1' $negative" -- "$clrdx" verify --device no-such-device --seed -1
# Integers are decimal: every integer option goes through one reader (app.cpp's add_integer,
# options.cpp's parse_integer); no hex or octal, no empty value, nothing clamped.
for option in "reduce --wg" "reduce --axis" "bench --wg" "bench --repeat" "bench --groups-per-cu" \
  "bench --vw" "bench --unroll" "bench --rounds" "bench --inputs" "bench --lanes" "bench --parts" \
  "bench --seg-unroll" "bench --seg-vector" "bench --column-block" "tune --repeat"; do
  read -r command name <<<"$option"
  refused "clrdx: $name: '0x1' is not a" -- "$clrdx" $command --device no-such-device $name 0x1
  refused "clrdx: $name: '' is not a" -- "$clrdx" $command --device no-such-device $name ""
done
refused "clrdx: --axis: '99999999999999999999999' is out of range" -- "$clrdx" reduce --device no-such-device --input "$tmp/raw.bin" --op sum --axis 99999999999999999999999
refused "clrdx: --wg: '1180591620717411303424' is out of range" -- "$clrdx" reduce --device no-such-device "${gen[@]}" --count 5 --wg 1180591620717411303424
refused "clrdx: --wg: '1180591620717411303424' is out of range" -- "$clrdx" bench --device no-such-device --wg 1180591620717411303424
refused "clrdx: --repeat: '4294967297' is out of range" -- "$clrdx" bench --device no-such-device --repeat 4294967297
refused "clrdx: --vw: '18446744073709551616' is out of range" -- "$clrdx" bench --device no-such-device --vw 4,18446744073709551616
refused "clrdx: --count '18446744073709551616' does not fit 64 bits" -- "$clrdx" reduce --device no-such-device "${gen[@]}" --count 18446744073709551616
refused "clrdx: --count '17179869184Gi' does not fit 64 bits" -- "$clrdx" reduce --device no-such-device "${gen[@]}" --count 17179869184Gi
refused "clrdx: --count '2^64' does not fit 64 bits" -- "$clrdx" reduce --device no-such-device "${gen[@]}" --count 2^64
refused "clrdx: --axis: '' is not a decimal integer (in '0,')" -- "$clrdx" reduce --device no-such-device --input "$tmp/raw.bin" --op sum --axis 0,
# Leading zeros are decimal: --wg 010 is 10 (not a power of two), where octal would be 8.
refused "work-group size 10 is not a power of two" -- "$clrdx" reduce --device no-such-device "${gen[@]}" --count 5 --wg 010
# User text in a message is escaped: no control character reaches the terminal.
refused "unknown operator 'x\x1b]0;PWNED\x07'" -- "$clrdx" reduce --device no-such-device --type i32 --generate ones --count 5 --op $'x\e]0;PWNED\a'
refused "unknown strategy 'a\nb'" -- "$clrdx" reduce --device no-such-device "${gen[@]}" --count 5 --strategy $'a\nb'
refused "--vw: 'a\tb' is not a" -- "$clrdx" bench --device no-such-device --vw $'a\tb'
# An unknown command is named, with the known ones.
commands="devices strategies reduce verify bench tune cache"
refused "clrdx: unknown command 'frobnicate' (expected one of: $commands)" -- "$clrdx" frobnicate
refused "clrdx: unknown command 'fro\x1bb' (expected one of: $commands)" -- "$clrdx" $'fro\eb'
refused "clrdx: a command is required (one of: $commands)" -- "$clrdx"

# verify and bench, small (every pair of every strategy: `strategies.covering.*`, full tier)
expect 0 "verify" -- "$clrdx" verify --device "$dev" --strategy localtree --quick --types i32,f32 --json
python3 -c '
import json,sys; j=json.loads(open(sys.argv[1]).readline())
assert j["strategy"] == "localtree" and j["failed"] == 0 and j["passed"] > 200, j' "$tmp/out" && ok || bad "verify --json"
cp "$tmp/out" "$tmp/verify_all.json"
# --types/--ops keep their pairs' cases: every (type, operator) pair has the same cases, and i32
# and f32 have 23 pairs (13 operators on i32, 10 on f32).
expect 0 "verify --types --ops" -- "$clrdx" verify --device "$dev" --strategy localtree --quick --types i32 --ops sum,argmin --json
python3 -c '
import json,sys; full=json.loads(open(sys.argv[1]).readline()); j=json.loads(open(sys.argv[2]).readline())
assert j["failed"] == 0 and j["passed"] * 23 == full["passed"] * 2, (j, full["passed"])' "$tmp/verify_all.json" "$tmp/out" && ok || bad "verify --types --ops"
refused "clrdx: unknown operator 'mean'" -- "$clrdx" verify --device no-such-device --ops sum,mean
expect 0 "bench" -- "$clrdx" bench --device "$dev" --strategy bottomup,localtree --sizes 1Ki,3001 --repeat 2 --json "$tmp/b.jsonl"
grep -q "localtree" "$tmp/out" && ok || bad "bench table lacks localtree"
python3 -c '
import json,sys; rows=[json.loads(l) for l in open(sys.argv[1])]
assert len(rows) == 4, rows
for r in rows:
    for k in ("device","strategy","type","op","n","call_us","GBps","result","ok"): assert k in r, k
    assert r["ok"], r' "$tmp/b.jsonl" && ok || bad "bench --json rows"
expect 2 "bench bad size" -- "$clrdx" bench --device "$dev" --sizes 1Kx

# Segmented reductions: --axis of an N-D .npy, --segments by offsets, --output as .npy
npy "$tmp/m.npy" "<f4" "(3, 4)" False f 0 1 2 3 4 5 6 7 8 9 10 11
expect 0 "axis 1" -- "$clrdx" reduce --device "$dev" --input "$tmp/m.npy" --axis 1 --op sum
same "$(printf '6\n22\n38')" "row sums"
expect 0 "axis 0 argmax" -- "$clrdx" reduce --device "$dev" --input "$tmp/m.npy" --axis 0 --op argmax
same "$(printf '8 2\n9 2\n10 2\n11 2')" "column argmax"
npy "$tmp/off.npy" "<i8" "(5,)" False q 0 2 2 7 12
expect 0 "segments min" -- "$clrdx" reduce --device "$dev" --input "$tmp/m.npy" --segments "$tmp/off.npy" --op min
same "$(printf '0\ninf\n2\n7')" "segment minima (an empty one: inf)"
expect 0 "segments argmin" -- "$clrdx" reduce --device "$dev" --input "$tmp/m.npy" --segments "$tmp/off.npy" --op argmin
same "$(printf '0 0\n0 none\n2 0\n7 0')" "segment argmin (indices from each segment's start)"
expect 0 "axis 0 --output" -- "$clrdx" reduce --device "$dev" --input "$tmp/m.npy" --axis 0 --op sum --acc f64 --output "$tmp/cols.npy"
python3 -c '
import struct,sys; b=open(sys.argv[1],"rb").read(); assert b[:6]==b"\x93NUMPY", b[:8]
n=struct.unpack("<H",b[8:10])[0]; h=b[10:10+n].decode()
assert "<f8" in h and "(4,)" in h and (10+n)%64==0, h
assert struct.unpack("<4d",b[10+n:]) == (12,15,18,21), b[10+n:]' "$tmp/cols.npy" && ok || bad "axis --output .npy"
expect 0 "segments argmin --output" -- "$clrdx" reduce --device "$dev" --input "$tmp/m.npy" --segments "$tmp/off.npy" --op argmin --output "$tmp/idx.npy" --json
python3 -c '
import struct,sys; b=open(sys.argv[1],"rb").read(); n=struct.unpack("<H",b[8:10])[0]
assert "<u8" in b[10:10+n].decode()
assert struct.unpack("<4Q",b[10+n:]) == (0,2**64-1,0,0), b[10+n:]' "$tmp/idx.npy" && ok || bad "argmin --output: the indices"
# any, all (NumPy's: NaN is non-zero, -0.0 zero; empty: any false, all true) and count_nonzero
npy "$tmp/z.npy" "<f4" "(2, 3)" False f 0 -0.0 nan 0 0 0
expect 0 "any" -- "$clrdx" reduce --device "$dev" --input "$tmp/z.npy" --op any
same "true" "any of a NaN among zeros"
expect 0 "all --json" -- "$clrdx" reduce --device "$dev" --input "$tmp/z.npy" --op all --json
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["result"] is False and j["acc"] == "bool", j' "$tmp/out" && ok || bad "all --json: $(cat "$tmp/out")"
expect 0 "count_nonzero" -- "$clrdx" reduce --device "$dev" --input "$tmp/z.npy" --op count_nonzero
same "1" "count_nonzero: the NaN"
expect 0 "any axis 0 --output" -- "$clrdx" reduce --device "$dev" --input "$tmp/z.npy" --axis 0 --op any --output "$tmp/any.npy"
python3 -c '
import struct,sys; b=open(sys.argv[1],"rb").read(); n=struct.unpack("<H",b[8:10])[0]
assert "|b1" in b[10:10+n].decode() and "(3,)" in b[10:10+n].decode(), b[10:10+n]
assert b[10+n:] == bytes([0,0,1]), b[10+n:]' "$tmp/any.npy" && ok || bad "any --axis --output: a bool array"
expect 0 "all by segments" -- "$clrdx" reduce --device "$dev" --input "$tmp/m.npy" --segments "$tmp/off.npy" --op all
same "$(printf 'false\ntrue\ntrue\ntrue')" "all per segment (one with the 0; an empty one: true)"
npy "$tmp/down.npy" "<i8" "(3,)" False q 0 5 3
expect 2 "decreasing offsets" -- "$clrdx" reduce --device "$dev" --input "$tmp/m.npy" --segments "$tmp/down.npy" --op sum
says "offset 2 (3) is below offset 1 (5)" "decreasing offsets"
npy "$tmp/past.npy" "<i8" "(2,)" False q 0 13
expect 2 "offsets past the data" -- "$clrdx" reduce --device "$dev" --input "$tmp/m.npy" --segments "$tmp/past.npy" --op sum
says "points past the data" "offsets past the data"
npy "$tmp/neg.npy" "<i8" "(2,)" False q 0 -1
expect 2 "negative offset" -- "$clrdx" reduce --device "$dev" --input "$tmp/m.npy" --segments "$tmp/neg.npy" --op sum
expect 2 "float offsets" -- "$clrdx" reduce --device "$dev" --input "$tmp/m.npy" --segments "$tmp/m.npy" --op sum
expect 2 "axis out of range" -- "$clrdx" reduce --device "$dev" --input "$tmp/m.npy" --axis 2 --op sum
says "has 2 dimensions" "axis out of range"
expect 0 "axis -1" -- "$clrdx" reduce --device "$dev" --input "$tmp/m.npy" --axis -1 --op sum
same "$(printf '6\n22\n38')" "axis -1 of a 2-D array: the row sums"
expect 0 "axis -2 argmax" -- "$clrdx" reduce --device "$dev" --input "$tmp/m.npy" --axis -2 --op argmax
same "$(printf '8 2\n9 2\n10 2\n11 2')" "axis -2 of a 2-D array: column argmax"
expect 2 "axis -3 of a 2-D array" -- "$clrdx" reduce --device "$dev" --input "$tmp/m.npy" --axis -3 --op sum
says "--axis -3: $tmp/m.npy has 2 dimensions (axes -2..1)" "axis -3 of a 2-D array"
# --map with --acc per segment and along an axis: f64 sums of f32 squares (4096^2 + 4096^2 + 1
# needs 26 bits: an f32 accumulator gives 33554432)
npy "$tmp/sq.npy" "<f4" "(6,)" False f 4096 4096 1 1 2 3
npy "$tmp/sq2.npy" "<f4" "(2, 3)" False f 4096 4096 1 1 2 3
npy "$tmp/sq_off.npy" "<i8" "(3,)" False q 0 3 6
sq_want=$(python3 -c 'print(4096.0**2 * 2 + 1); print(1 + 4 + 9)' | sed 's/\.0$//')
expect 0 "segments --map --acc f64" -- "$clrdx" reduce --device "$dev" --input "$tmp/sq.npy" --segments "$tmp/sq_off.npy" --op sum --map 'x*x' --acc f64
same "$sq_want" "segments --map x*x --acc f64: each segment's sum in f64"
expect 0 "axis --map --acc f64" -- "$clrdx" reduce --device "$dev" --input "$tmp/sq2.npy" --axis 1 --op sum --map 'x*x' --acc f64
same "$sq_want" "axis --map x*x --acc f64: each row's sum in f64"
expect 0 "segments --combine --acc f64" -- "$clrdx" reduce --device "$dev" --input "$tmp/sq.npy" --segments "$tmp/sq_off.npy" --combine 'a + b' --identity 0 --map 'x*x' --acc f64
same "$sq_want" "segments --combine --acc f64: each segment's sum in f64"
# --axis is decimal: 010 is axis 10 of an 11-D array (octal would be 8), -1 is the last; an
# empty axis is refused.
npy "$tmp/d11.npy" "<i4" "(1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 3)" False i 0 1 2 3 4 5
expect 0 "axis 010 of an 11-D array" -- "$clrdx" reduce --device "$dev" --input "$tmp/d11.npy" --axis 010 --op sum
same "$(printf '3\n12')" "axis 010 is axis 10 (axis 8 would give 3 5 7)"
expect 0 "axis -1,08 of an 11-D array" -- "$clrdx" reduce --device "$dev" --input "$tmp/d11.npy" --axis -1,08 --op sum
same 15 "axes -1 and 08 (8): the total"
expect 2 "axis 0x1" -- "$clrdx" reduce --device "$dev" --input "$tmp/m.npy" --axis 0x1 --op sum
says "clrdx: --axis: '0x1' is not a decimal integer" "axis 0x1"
expect 2 "axis ''" -- "$clrdx" reduce --device "$dev" --input "$tmp/m.npy" --axis "" --axis 1 --op sum
says "clrdx: --axis: '' is not a decimal integer" "axis ''"
# Standard output: a reader that closes the pipe early ends clrdx by SIGPIPE, quietly (status
# 141), even where SIGPIPE was ignored by its parent; other failed writes are exit 1 with a
# message (docs/cli.md, Exit codes). 200000 rows print more than a pipe holds.
python3 - "$tmp/rows.npy" <<'PY'
import struct, sys
n = 200000
header = "{'descr': '<i4', 'fortran_order': False, 'shape': (%d, 1), }" % n
header += " " * (63 - (10 + len(header)) % 64) + "\n"
with open(sys.argv[1], "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
    f.write(struct.pack("<%di" % n, *range(n)))
PY
"$clrdx" reduce --device "$dev" --input "$tmp/rows.npy" --axis 1 --op sum 2>"$tmp/err" | head -c1 >/dev/null
st=${PIPESTATUS[0]}
[ "$st" = 141 ] && [ ! -s "$tmp/err" ] && ok || bad "a closed pipe: exit $st, want 141 (SIGPIPE); stderr '$(cat "$tmp/err")'"
st=$(trap '' PIPE; "$clrdx" reduce --device "$dev" --input "$tmp/rows.npy" --axis 1 --op sum 2>"$tmp/err" | head -c1 >/dev/null; echo "${PIPESTATUS[0]}")
[ "$st" = 141 ] && [ ! -s "$tmp/err" ] && ok || bad "a closed pipe, SIGPIPE ignored by the parent: exit $st, want 141; stderr '$(cat "$tmp/err")'"
"$clrdx" reduce --device "$dev" --input "$tmp/m.npy" --axis 1 --op sum >/dev/full 2>"$tmp/err"; rc=$?
[ "$rc" = 1 ] && [ "$(cat "$tmp/err")" = "clrdx: cannot write to standard output: No space left on device" ] && ok || bad "stdout on /dev/full: exit $rc, want 1; stderr '$(cat "$tmp/err")'"
expect 2 "axis and segments" -- "$clrdx" reduce --device "$dev" --input "$tmp/m.npy" --axis 0 --segments "$tmp/off.npy" --op sum
# Reproducible and exact float sums: 1e30 + 1 - 1e30 is 1; the bits in --json's hex
npy "$tmp/cancel.npy" "<f4" "(3,)" False f 1e30 1 -1e30
expect 0 "determinism exact" -- "$clrdx" reduce --device "$dev" --input "$tmp/cancel.npy" --op sum --determinism exact
same "1" "the exact sum of 1e30, 1, -1e30"
expect 0 "determinism any_device --json" -- "$clrdx" reduce --device "$dev" --type f64 --op sum --generate random --count 100000 --determinism any_device --json
python3 -c '
import json,sys; r=json.load(open(sys.argv[1]))
assert r["strategy"] == "binned_sum" and float.fromhex(r["hex"]) == r["result"], r' "$tmp/out" && ok || bad "any_device --json: the plan and the hex bits"
# wide data (exponents across the range): exact's bits (the device list below compares with them),
# and any_device's the same at two work-group sizes
expect 0 "wide exact --json" -- "$clrdx" reduce --device "$dev" --type f32 --op sum --generate wide --count 5000 --determinism exact --json
cp "$tmp/out" "$tmp/wide_exact.json"
expect 0 "wide any_device --json" -- "$clrdx" reduce --device "$dev" --type f32 --op sum --generate wide --count 5000 --determinism any_device --json
cp "$tmp/out" "$tmp/wide_any.json"
expect 0 "wide any_device --wg 2 --json" -- "$clrdx" reduce --device "$dev" --type f32 --op sum --generate wide --count 5000 --determinism any_device --wg 2 --json
python3 -c '
import json,sys; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2]))
assert a["hex"] == b["hex"] and a["strategy"] == "binned_sum" and b["work_group_size"] == 2, (a, b)' "$tmp/wide_any.json" "$tmp/out" && ok || bad "wide: any_device bits at two work-group sizes"
expect 0 "bench --data random" -- "$clrdx" bench --device "$dev" --strategy auto --determinism run_to_run,exact --data random --sizes 4Ki --repeat 2 --json "$tmp/exact.jsonl"
python3 -c '
import json,sys; rows=[json.loads(l) for l in open(sys.argv[1])]
assert [r["strategy"] for r in rows] == ["auto","auto:exact"] and all(r["ok"] for r in rows), rows' "$tmp/exact.jsonl" && ok || bad "bench --data random rows"
expect 2 "bench bad --data" -- "$clrdx" bench --device "$dev" --strategy auto --data nope --sizes 4Ki
says "unknown pattern 'nope'" "bench bad --data"
# Composites built on float sums: exact; the others refused
expect 0 "mean exact --json" -- "$clrdx" reduce --device "$dev" --input "$tmp/cancel.npy" --op mean --determinism exact --json
python3 -c '
import json,sys; r=json.load(open(sys.argv[1]))
assert r["strategy"] == "exact_sum" and float.fromhex(r["hex"]) == r["result"] and abs(r["result"] - 1/3) < 1e-15, r' "$tmp/out" && ok || bad "mean exact: 1/3 of the exact sum 1"
expect 0 "var exact --json" -- "$clrdx" reduce --device "$dev" --input "$tmp/cancel.npy" --op var --determinism exact --json
python3 -c '
import json,struct,sys; from fractions import Fraction as F; r=json.load(open(sys.argv[1]))
x=[F(struct.unpack("f", struct.pack("f", v))[0]) for v in (1e30, 1, -1e30)]; n=len(x); v=(n*sum(a*a for a in x)-sum(x)**2)/(n*n)
assert r["strategy"] == "exact_sum" and float.fromhex(r["hex"]) == float(v), (r, float(v).hex())' "$tmp/out" && ok || bad "var exact: the correctly rounded variance of 1e30, 1, -1e30"
npy "$tmp/cancel_seg.npy" "<f4" "(5,)" False f 1e30 1 -1e30 3 -0.0
npy "$tmp/cancel_off.npy" "<i8" "(5,)" False q 0 3 4 4 5
expect 0 "segments exact" -- "$clrdx" reduce --device "$dev" --input "$tmp/cancel_seg.npy" --segments "$tmp/cancel_off.npy" --op sum --determinism exact
same "$(printf '1\n3\n0\n-0')" "exact segments: 1e30 + 1 - 1e30, 3, empty (+0), -0"
expect 0 "segments mean exact" -- "$clrdx" reduce --device "$dev" --input "$tmp/cancel_seg.npy" --segments "$tmp/cancel_off.npy" --op mean --determinism exact
same "$(printf '0.3333333333333333\n3\nnan\n-0')" "exact segment means: 1/3 of the exact 1, 3, empty (NaN), -0"
# A device list: one reduction over two PoCL devices, the bits of one device
expect 0 "two devices exact" -- env POCL_DEVICES="pthread pthread" "$clrdx" reduce --device cpu:all --type f32 --op sum --generate wide --count 5000 --determinism exact --json
python3 -c '
import json,sys; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2]))
assert a["hex"] == b["hex"] and len(a["devices"]) == 2 and a["shares"] == [0.5, 0.5] and [p["count"] for p in a["parts"]] == [2500, 2500], (a, b)' "$tmp/out" "$tmp/wide_exact.json" && ok || bad "two devices: the exact bits of one, two parts"
expect 0 "two devices argmax" -- env POCL_DEVICES="pthread pthread" "$clrdx" reduce --device 0,1 --type i32 --op argmax --generate mod:7 --count 1000
same "6 6" "two devices: argmax's global first index"
expect 2 "device list and segments" -- "$clrdx" reduce --device cpu:all --input "$tmp/cancel_seg.npy" --segments "$tmp/cancel_off.npy" --op sum
expect 2 "device named twice" -- "$clrdx" reduce --device 0,0 --type i32 --op sum --generate ones --count 10
says "named twice" "device named twice"
expect 0 "minmax exact" -- "$clrdx" reduce --device "$dev" --input "$tmp/cancel.npy" --op minmax --determinism exact
expect 2 "prod exact" -- "$clrdx" reduce --device "$dev" --input "$tmp/cancel.npy" --op prod --determinism exact
expect 2 "unknown determinism" -- "$clrdx" reduce --device "$dev" --type f32 --op sum --generate ones --count 10 --determinism bitwise
says "expected one of: run_to_run any_device exact" "unknown determinism"
# The composites, maps, custom operators and further inputs, segmented alike
expect 0 "axis 0 mean" -- "$clrdx" reduce --device "$dev" --input "$tmp/m.npy" --axis 0 --op mean
same "$(printf '4\n5\n6\n7')" "column means"
expect 0 "segments minmax" -- "$clrdx" reduce --device "$dev" --input "$tmp/m.npy" --segments "$tmp/off.npy" --op minmax
same "$(printf '0 0 1 1\n0 none 0 none\n2 0 6 4\n7 0 11 4')" "segment minmax (an empty one: 0, none)"
expect 0 "axis 1 custom" -- "$clrdx" reduce --device "$dev" --input "$tmp/m.npy" --axis 1 --combine "max(a, b)" --identity 0 --map "x * x"
same "$(printf '9\n49\n121')" "row maxima of x*x"
expect 0 "segments dot" -- "$clrdx" reduce --device "$dev" --input "$tmp/m.npy" --input2 "$tmp/m.npy" --segments "$tmp/off.npy" --op dot
same "$(printf '1\n0\n90\n415')" "segment dot products"
expect 0 "segments minmax --output" -- "$clrdx" reduce --device "$dev" --input "$tmp/m.npy" --segments "$tmp/off.npy" --op minmax --output "$tmp/mm.npy"
python3 -c '
import struct,sys; b=open(sys.argv[1],"rb").read(); n=struct.unpack("<H",b[8:10])[0]; h=b[10:10+n].decode()
assert "<f4" in h and "(4, 2)" in h, h
assert struct.unpack("<8f",b[10+n:]) == (0,1,0,0,2,6,7,11), b[10+n:]' "$tmp/mm.npy" && ok || bad "minmax --output: minima and maxima"
expect 2 "a second input to a built-in operator" -- "$clrdx" reduce --device "$dev" --input "$tmp/m.npy" --input2 "$tmp/m.npy" --axis 0 --op sum
says "--op sum reads --input only" "a second input to a built-in operator"
expect 2 "--output without a shape" -- "$clrdx" reduce --device "$dev" --input "$tmp/m.npy" --op sum --output "$tmp/x.npy"
expect 2 "--output into a missing folder" -- "$clrdx" reduce --device "$dev" --input "$tmp/m.npy" --axis 0 --op sum --output "$tmp/no/x.npy"
expect 0 "bench --layouts" -- "$clrdx" bench --device "$dev" --layouts uniform:4,powerlaw,rows:16,columns:16,apart:16 --sizes 64Ki --repeat 2 --json "$tmp/seg.jsonl"
python3 -c '
import json,sys; rows=[json.loads(l) for l in open(sys.argv[1])]
assert [r["layout"] for r in rows] == ["uniform:4","powerlaw","rows:16","columns:16","apart:16"], rows
for r in rows: assert r["checked"] and r["call_us"] > 0 and r["segments"] > 0, r' "$tmp/seg.jsonl" && ok || bad "bench --layouts rows"
expect 2 "bench bad layout" -- "$clrdx" bench --device "$dev" --layouts diagonal:4

# tune and the tuning file
expect 0 "tune" -- "$clrdx" tune --device "$dev" --types i32 --ops sum --sizes 4Ki --repeat 2 --file "$tmp/tune.json"
python3 -c '
import json,sys; j=json.load(open(sys.argv[1])); assert j["librdx_tuning"] == 1
host = [e for e in j["entries"] if "host_mbps" in e]
assert len(host) == 1 and host[0]["host_mbps"] > 0 and host[0]["device"] and "type" not in host[0], host
for e in j["entries"]:
    assert e in host or (e["type"] == "i32" and e["op"] == "sum" and e["device"]), e' "$tmp/tune.json" && ok || bad "tune wrote no valid tuning file"
# A second run replaces the device's host throughput: still one entry with it.
expect 0 "tune again" -- "$clrdx" tune --device "$dev" --types i32 --ops max --sizes 4Ki --repeat 2 --file "$tmp/tune.json"
python3 -c '
import json,sys; j=json.load(open(sys.argv[1])); assert len([e for e in j["entries"] if "host_mbps" in e]) == 1, j' "$tmp/tune.json" && ok || bad "tune kept two host throughputs"
expect 0 "tune --clear" -- "$clrdx" tune --device "$dev" --clear --file "$tmp/tune.json"
python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["entries"] == []' "$tmp/tune.json" && ok || bad "tune --clear left entries"
expect 2 "tune bad margin" -- "$clrdx" tune --device "$dev" --margin 3 --file "$tmp/tune.json"
expect 2 "tune bad type" -- "$clrdx" tune --device "$dev" --types f8 --file "$tmp/tune.json"
# A tuning file entry for CPUs makes auto run fast_strided there, with exact results.
printf '{"entries": [{"kind": "cpu", "auto": "fast_strided", "note": "cli test"}]}' >"$tmp/cpu.json"
RDX_TUNING_FILE="$tmp/cpu.json" expect 0 "tuned auto" -- "$clrdx" reduce --device cpu --type i64 --op sum --generate iota --count 100000 --json
python3 -c '
import json,sys; j=json.load(open(sys.argv[1])); assert j["strategy"] == "fast_strided" and j["result"] == 4999950000, j' "$tmp/out" && ok || bad "tuning file entry not used: $(cat "$tmp/out")"
printf '{"entries": [{"kind": "cpu", "wg": "big"}]}' >"$tmp/bad.json"
RDX_TUNING_FILE="$tmp/bad.json" expect 2 "malformed tuning file" -- "$clrdx" reduce --device cpu --type i32 --op sum --generate ones --count 5
grep -q "bad.json" "$tmp/err" && ok || bad "malformed tuning file: message lacks the path: $(cat "$tmp/err")"

finish cli
