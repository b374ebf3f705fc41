#!/usr/bin/env bash
# What clrdx's file outputs (reduce --output and --output-indices, bench --json, the tuning file)
# may replace: a regular file, or a link's target that is one (the link stays); never a device,
# FIFO, socket or folder, and never a file the command reads. And empty results keep their dtype
# and shape. Usage: output_safety_test.sh path/to/clrdx
set -u
clrdx=$1
. "$(dirname "$0")/cli_lib.sh"

# npy FILE DESCR SHAPE STRUCTFMT VALUES...: a C-order .npy, with the standard library only.
npy() {
  python3 - "$@" <<'PY'
import struct, sys
path, descr, shape, fmt = sys.argv[1:5]
vals = [float(v) if fmt in "fd" else int(v) for v in sys.argv[5:]]
header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape)
header += " " * (63 - (10 + len(header)) % 64) + "\n"
with open(path, "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
    f.write(struct.pack("<%d%s" % (len(vals), fmt), *vals))
PY
}
# A .npy reader for the checks below (python3 -c "$npy_read; ...": read(path) -> descr, shape, values).
npy_read='
import ast, struct
def read(path):
    b = open(path, "rb").read()
    assert b[:6] == b"\x93NUMPY", b[:8]
    n = struct.unpack("<H", b[8:10])[0]
    h = ast.literal_eval(b[10:10 + n].decode())
    assert not h["fortran_order"] and (10 + n) % 64 == 0, h
    fmt = {"<f4": "f", "<f8": "d", "<i4": "i", "<u4": "I", "<i2": "h", "<u2": "H", "<i8": "q",
           "<u8": "Q", "|i1": "b", "|u1": "B"}[h["descr"]]
    data = b[10 + n:]
    count = len(data) // struct.calcsize(fmt)
    shape = tuple(h["shape"])
    size = 1
    for d in shape: size *= d
    assert count == size, (count, shape)
    return h["descr"], shape, list(struct.unpack("<%d%s" % (count, fmt), data))
'
# kept DESCRIPTION FILE TEST: FILE still passes `test TEST` (-p a FIFO, -c a device, -L a link...).
kept() { [ "$3" "$2" ] && ok || bad "$1: $2 is no longer $3: $(ls -ld "$2")"; }

npy "$tmp/m.npy" "<f4" "(3, 4)" f 3 1 1 5 5 0 2 2 7 7 -1 9
npy "$tmp/off.npy" "<i8" "(5,)" q 0 2 2 7 12
seg=(reduce --device "$dev" --input "$tmp/m.npy" --segments "$tmp/off.npy")
# The segment sums of m by off, from Python, for the outputs that are written.
sums='[4.0, 0.0, 13.0, 24.0]'
check_sums() {
  python3 -c "$npy_read
d, s, v = read('$1'); assert (d, s, v) == ('<f4', (4,), $sums), (d, s, v)" && ok ||
    bad "$2: $1 does not hold the segment sums"
}

# 1. Nodes that are not regular files are never replaced, whatever leads to them.
mkfifo "$tmp/fifo"
expect 2 "--output onto a FIFO" -- timeout 60 "$clrdx" "${seg[@]}" --op sum --output "$tmp/fifo"
says "is a FIFO" "--output onto a FIFO"
kept "--output onto a FIFO" "$tmp/fifo" -p
if mknod "$tmp/null" c 1 3 2>/dev/null; then  # a device node like /dev/null (as root)
  expect 2 "--output onto a character device" -- "$clrdx" "${seg[@]}" --op sum --output "$tmp/null"
  says "is a character device" "--output onto a character device"
  kept "--output onto a character device" "$tmp/null" -c
  expect 2 "bench --json onto a character device" -- "$clrdx" bench --device "$dev" \
    --strategy localtree --sizes 1Ki --repeat 1 --peak 1 --json "$tmp/null"
  kept "bench --json onto a character device" "$tmp/null" -c
else
  echo "note: mknod is not permitted here: no character device checks"
fi
mkdir "$tmp/dir"
expect 2 "--output onto a folder" -- "$clrdx" "${seg[@]}" --op sum --output "$tmp/dir"
kept "--output onto a folder" "$tmp/dir" -d
# A link to standard output, when that is a pipe: the pipe is refused and the link stays.
ln -s /proc/self/fd/1 "$tmp/stdout"
"$clrdx" "${seg[@]}" --op sum --output "$tmp/stdout" 2>"$tmp/err" | cat >"$tmp/out"
rc=${PIPESTATUS[0]}
[ "$rc" = 2 ] && [ "$(grep -c . "$tmp/err")" = 1 ] && ok ||
  bad "--output onto a link to a pipe: exit $rc, stderr $(cat "$tmp/err")"
kept "--output onto a link to a pipe" "$tmp/stdout" -L
ln -s fifo "$tmp/to_fifo"
expect 2 "--output onto a link to a FIFO" -- timeout 60 "$clrdx" "${seg[@]}" --op sum --output "$tmp/to_fifo"
kept "--output onto a link to a FIFO" "$tmp/to_fifo" -L
kept "--output onto a link to a FIFO" "$tmp/fifo" -p
expect 2 "bench --json onto a FIFO" -- timeout 60 "$clrdx" bench --device "$dev" \
  --strategy localtree --sizes 1Ki --repeat 1 --peak 1 --json "$tmp/fifo"
says "is a FIFO" "bench --json onto a FIFO"
kept "bench --json onto a FIFO" "$tmp/fifo" -p
expect 2 "bench --layouts --json onto a FIFO" -- timeout 60 "$clrdx" bench --device "$dev" \
  --layouts uniform:4 --sizes 4Ki --repeat 1 --json "$tmp/fifo"
kept "bench --layouts --json onto a FIFO" "$tmp/fifo" -p
# A link to a regular file (relative, into another folder): the target gets the results, the
# link stays, and no temporary file is left in either folder.
mkdir "$tmp/real" "$tmp/links"
echo old >"$tmp/real/res.npy"
chmod 600 "$tmp/real/res.npy"
ln -s ../real/res.npy "$tmp/links/res.npy"
expect 0 "--output onto a link to a file" -- "$clrdx" "${seg[@]}" --op sum --output "$tmp/links/res.npy"
kept "--output onto a link to a file" "$tmp/links/res.npy" -L
check_sums "$tmp/real/res.npy" "--output onto a link to a file"
[ "$(stat -c %a "$tmp/real/res.npy")" = 600 ] && ok || bad "the link's target lost its mode"
[ "$(ls -A "$tmp/real")" = res.npy ] && [ "$(ls -A "$tmp/links")" = res.npy ] && ok ||
  bad "files left behind: $(ls -A "$tmp/real" "$tmp/links")"
# A link to a file not made yet, in a folder that exists: the file is made.
ln -s ../real/new.npy "$tmp/links/new.npy"
expect 0 "--output onto a dangling link" -- "$clrdx" "${seg[@]}" --op sum --output "$tmp/links/new.npy"
kept "--output onto a dangling link" "$tmp/links/new.npy" -L
check_sums "$tmp/real/new.npy" "--output onto a dangling link"
ln -s ../missing/x.npy "$tmp/links/gone.npy"
expect 2 "--output onto a link into a missing folder" -- "$clrdx" "${seg[@]}" --op sum \
  --output "$tmp/links/gone.npy"
kept "--output onto a link into a missing folder" "$tmp/links/gone.npy" -L
# bench --json through a link: the rows land in the target.
ln -s ../real/rows.jsonl "$tmp/links/rows.jsonl"
expect 0 "bench --json onto a link" -- "$clrdx" bench --device "$dev" --strategy localtree \
  --sizes 1Ki --repeat 1 --peak 1 --json "$tmp/links/rows.jsonl"
kept "bench --json onto a link" "$tmp/links/rows.jsonl" -L
python3 -c 'import json,sys; rows=[json.loads(l) for l in open(sys.argv[1])]; assert rows and all(r["ok"] for r in rows), rows' \
  "$tmp/real/rows.jsonl" && ok || bad "bench --json onto a link: no rows in the target"
# The tuning file through a link: tune writes the target, the link stays.
printf '{"librdx_tuning": 1, "entries": [{"kind": "gpu", "note": "by hand"}]}\n' >"$tmp/real/tune.json"
ln -s ../real/tune.json "$tmp/links/tune.json"
expect 0 "tune --file onto a link" -- "$clrdx" tune --device "$dev" --types i32 --ops sum \
  --sizes 4Ki --repeat 2 --margin 0 --file "$tmp/links/tune.json"
kept "tune --file onto a link" "$tmp/links/tune.json" -L
python3 -c 'import json,sys; e=json.load(open(sys.argv[1]))["entries"]; assert any(x.get("note") == "by hand" for x in e) and len(e) > 1, e' \
  "$tmp/real/tune.json" && ok || bad "tune --file onto a link: the target lacks the entries"
expect 2 "tune --file onto a FIFO" -- timeout 60 "$clrdx" tune --device "$dev" --types i32 \
  --ops sum --sizes 4Ki --repeat 2 --file "$tmp/fifo"
kept "tune --file onto a FIFO" "$tmp/fifo" -p
[ ! -e "$tmp/fifo.lock" ] && ok || bad "tune --file onto a FIFO left $tmp/fifo.lock beside it"

# 2. An output that is a file the command reads, by any name, is refused before any work and
# the file is left as it was.
npy "$tmp/x2.npy" "<f4" "(12,)" f 1 2 3 4 5 6 7 8 9 10 11 12
for f in m.npy off.npy x2.npy; do cp "$tmp/$f" "$tmp/$f.orig"; done
ln "$tmp/m.npy" "$tmp/hard.npy"
ln -s m.npy "$tmp/soft.npy"
for out in "$tmp/m.npy" "$tmp/hard.npy" "$tmp/soft.npy" "$tmp/dir/../m.npy"; do
  expect 2 "--output $out (the input)" -- "$clrdx" "${seg[@]}" --op sum --output "$out"
  says "is the same file as --input" "--output $out (the input)"
done
expect 2 "--output onto the offsets" -- "$clrdx" "${seg[@]}" --op sum --output "$tmp/off.npy"
says "is the same file as --segments" "--output onto the offsets"
expect 2 "--output onto --input2" -- "$clrdx" "${seg[@]}" --input2 "$tmp/x2.npy" --op dot \
  --output "$tmp/x2.npy"
says "is the same file as --input2" "--output onto --input2"
expect 2 "--output onto --input4" -- "$clrdx" "${seg[@]}" --input2 "$tmp/m.npy" --input3 "$tmp/m.npy" \
  --input4 "$tmp/x2.npy" --op sum --map "x0 + x1 + x2 + x3" --output "$tmp/x2.npy"
says "is the same file as --input4" "--output onto --input4"
expect 2 "--output-indices onto the input" -- "$clrdx" "${seg[@]}" --op minmax \
  --output "$tmp/mm.npy" --output-indices "$tmp/soft.npy"
expect 2 "--output-indices onto --output" -- "$clrdx" "${seg[@]}" --op minmax \
  --output "$tmp/mm.npy" --output-indices "$tmp/dir/../mm.npy"
[ ! -e "$tmp/mm.npy" ] && ok || bad "a refused minmax wrote $tmp/mm.npy"
# A dangling link and the new file it names: one file, though neither exists yet.
ln -s ../real/both.npy "$tmp/links/both.npy"
expect 2 "--output-indices onto --output's dangling link" -- "$clrdx" "${seg[@]}" --op minmax \
  --output "$tmp/links/both.npy" --output-indices "$tmp/real/both.npy"
says "is the same file as --output" "--output-indices onto --output's dangling link"
[ ! -e "$tmp/real/both.npy" ] && ok || bad "a refused minmax wrote $tmp/real/both.npy"
expect 2 "--output onto the tuning file" -- env RDX_TUNING_FILE="$tmp/real/tune.json" \
  "$clrdx" "${seg[@]}" --op sum --output "$tmp/links/tune.json"
for f in m.npy off.npy x2.npy; do
  cmp -s "$tmp/$f" "$tmp/$f.orig" && ok || bad "$f was changed by a refused --output"
done
kept "the input's link" "$tmp/soft.npy" -L

# 3. Empty results keep the dtype of non-empty ones (an argmin/argmax index is <u8) and the
# shape (the input's without the axis; minmax one more axis of 2). The reference dtype is what
# the same request gives on data that is not empty.
npy "$tmp/off0.npy" "<i8" "(1,)" q 0
npy "$tmp/off2.npy" "<i8" "(3,)" q 0 2 5
npy "$tmp/e.npy" "<f4" "(3, 0, 4)" f
npy "$tmp/ne.npy" "<f4" "(3, 1, 4)" f 1 2 3 4 5 6 7 8 9 10 11 12
npy "$tmp/ei.npy" "<i2" "(3, 0, 4)" h
npy "$tmp/nei.npy" "<i2" "(3, 1, 4)" h 1 2 3 4 5 6 7 8 9 10 11 12
npy "$tmp/v.npy" "<i2" "(6,)" h 4 -1 7 7 0 2
# shape_is FILE SHAPE DTYPE_FROM DESCRIPTION: FILE has SHAPE and the dtype of DTYPE_FROM.
shape_is() {
  python3 -c "$npy_read
d, s, v = read('$1'); ref = read('$3')[0]
assert s == $2 and d == ref, (d, s, ref)" && ok || bad "$4: $(head -c 90 "$1" | tail -c +11)"
}
for req in "argmax" "argmin" "sum" "min" "minmax" "mean" "sum --acc f64" "sum --map x*x" \
  "custom"; do
  read -ra words <<<"$req"  # no glob: "x*x" stays as it is
  case $req in custom) op=(--combine "max(a, b)" --identity 0) ;; *) op=(--op "${words[@]}") ;; esac
  mm=$([ "$req" = minmax ] && echo " 2" || echo "")
  expect 0 "$req, segments" -- "$clrdx" reduce --device "$dev" --input "$tmp/v.npy" \
    --segments "$tmp/off2.npy" "${op[@]}" --output "$tmp/ref.npy"
  shape_is "$tmp/ref.npy" "(2,$mm)" "$tmp/ref.npy" "$req, segments"
  expect 0 "$req, no segments" -- "$clrdx" reduce --device "$dev" --input "$tmp/v.npy" \
    --segments "$tmp/off0.npy" "${op[@]}" --output "$tmp/o.npy"
  shape_is "$tmp/o.npy" "(0,$mm)" "$tmp/ref.npy" "$req, no segments"
  for in in e ei; do
    expect 0 "$req, axis 0 of (3, 1, 4) $in" -- "$clrdx" reduce --device "$dev" \
      --input "$tmp/n$in.npy" --axis 0 "${op[@]}" --output "$tmp/ref.npy"
    shape_is "$tmp/ref.npy" "(1, 4,$mm)" "$tmp/ref.npy" "$req, axis 0 of (3, 1, 4) $in"
    expect 0 "$req, axis 0 of (3, 0, 4) $in" -- "$clrdx" reduce --device "$dev" \
      --input "$tmp/$in.npy" --axis 0 "${op[@]}" --output "$tmp/o.npy"
    shape_is "$tmp/o.npy" "(0, 4,$mm)" "$tmp/ref.npy" "$req, axis 0 of (3, 0, 4) $in"
    expect 0 "$req, axis 1 of (3, 0, 4) $in" -- "$clrdx" reduce --device "$dev" \
      --input "$tmp/$in.npy" --axis 1 "${op[@]}" --output "$tmp/o.npy"
    shape_is "$tmp/o.npy" "(3, 4,$mm)" "$tmp/ref.npy" "$req, axis 1 of (3, 0, 4) $in"
  done
done

# 4. minmax --output-indices: the indexes of the minima and maxima (first occurrences, from the
# segment's start; 2^64 - 1 for an empty segment) beside --output's values, checked against a
# host loop; an empty segment is told from one of zeros.
npy "$tmp/z.npy" "<f4" "(12,)" f 3 1 1 5 5 0 2 2 7 7 -1 0
npy "$tmp/zoff.npy" "<i8" "(6,)" q 0 2 2 7 11 12
expect 0 "minmax --output-indices, segments" -- "$clrdx" reduce --device "$dev" \
  --input "$tmp/z.npy" --segments "$tmp/zoff.npy" --op minmax --output "$tmp/mmv.npy" \
  --output-indices "$tmp/mmi.npy"
python3 -c "$npy_read
x = read('$tmp/z.npy')[2]; offs = read('$tmp/zoff.npy')[2]
segs = [x[a:b] for a, b in zip(offs, offs[1:])]
vals, idxs = [], []
for s in segs:
    vals += [min(s), max(s)] if s else [0, 0]
    idxs += [s.index(min(s)), s.index(max(s))] if s else [2**64 - 1] * 2
assert read('$tmp/mmv.npy') == ('<f4', (5, 2), vals), read('$tmp/mmv.npy')
assert read('$tmp/mmi.npy') == ('<u8', (5, 2), idxs), read('$tmp/mmi.npy')
" && ok || bad "minmax --output-indices by segments"
for axis in 0 1; do
  expect 0 "minmax --output-indices, axis $axis" -- "$clrdx" reduce --device "$dev" \
    --input "$tmp/m.npy" --axis $axis --op minmax --output "$tmp/mmv.npy" --output-indices "$tmp/mmi.npy"
  python3 -c "$npy_read
x = read('$tmp/m.npy')[2]
lines = [x[c::4] for c in range(4)] if $axis == 0 else [x[r * 4:r * 4 + 4] for r in range(3)]
vals = [v for s in lines for v in (min(s), max(s))]
idxs = [i for s in lines for i in (s.index(min(s)), s.index(max(s)))]
assert read('$tmp/mmv.npy') == ('<f4', (len(lines), 2), vals), read('$tmp/mmv.npy')
assert read('$tmp/mmi.npy') == ('<u8', (len(lines), 2), idxs), read('$tmp/mmi.npy')
" && ok || bad "minmax --output-indices along axis $axis"
done
expect 0 "minmax --output-indices, every segment empty" -- "$clrdx" reduce --device "$dev" \
  --input "$tmp/e.npy" --axis 1 --op minmax --output "$tmp/mmv.npy" --output-indices "$tmp/mmi.npy"
python3 -c "$npy_read
assert read('$tmp/mmv.npy') == ('<f4', (3, 4, 2), [0.0] * 24), read('$tmp/mmv.npy')
assert read('$tmp/mmi.npy') == ('<u8', (3, 4, 2), [2**64 - 1] * 24), read('$tmp/mmi.npy')
" && ok || bad "minmax --output-indices of empty segments"
expect 2 "--output-indices without --output" -- "$clrdx" "${seg[@]}" --op minmax \
  --output-indices "$tmp/mmi.npy"
expect 2 "--output-indices with argmin" -- "$clrdx" "${seg[@]}" --op argmin \
  --output "$tmp/a.npy" --output-indices "$tmp/mmi.npy"
says "goes with --op minmax" "--output-indices with argmin"
expect 2 "--output-indices onto a FIFO" -- timeout 60 "$clrdx" "${seg[@]}" --op minmax \
  --output "$tmp/mmv.npy" --output-indices "$tmp/fifo"
kept "--output-indices onto a FIFO" "$tmp/fifo" -p

finish cli.outputs
