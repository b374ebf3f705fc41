#!/usr/bin/env bash
# clrdx's writes: no write error ignored, no update of the tuning file lost, nothing measured for
# a result that cannot be kept. A full file system is simulated by enospc_shim (preloaded), which
# fails writes, fsync and close on paths containing $RDX_ENOSPC_MATCH with ENOSPC; standard output
# is sent to /dev/full or closed.
# Usage: write_errors_test.sh path/to/clrdx path/to/enospc_shim.so
set -u
clrdx=$1 shim=$2
. "$(dirname "$0")/cli_lib.sh"

# fails CODE PATTERN DESCRIPTION: the last command (output in $tmp/out, $tmp/err, exit code in
# $rc) exited CODE with exactly one line on stderr, a `clrdx:` line matching PATTERN.
fails() {
  local code=$1 pattern=$2 what=$3
  if [ "$rc" != "$code" ]; then bad "$what: exit $rc, want $code; stderr: $(head -3 "$tmp/err")"; return; fi
  local lines; lines=$(grep -c . "$tmp/err")
  [ "$lines" = 1 ] || { bad "$what: $lines lines on stderr, want 1: $(head -5 "$tmp/err")"; return; }
  grep -q "^clrdx: .*$pattern" "$tmp/err" || { bad "$what: stderr '$(cat "$tmp/err")' lacks '$pattern'"; return; }
  ok
}
# The same for a command that prints progress on stderr first: its last line is the one clrdx: line.
fails_last() {
  local code=$1 pattern=$2 what=$3
  if [ "$rc" != "$code" ]; then bad "$what: exit $rc, want $code; stderr: $(tail -3 "$tmp/err")"; return; fi
  [ "$(grep -c '^clrdx:' "$tmp/err")" = 1 ] || { bad "$what: not one clrdx: line: $(tail -5 "$tmp/err")"; return; }
  tail -1 "$tmp/err" | grep -q "^clrdx: .*$pattern" || { bad "$what: last line '$(tail -1 "$tmp/err")' lacks '$pattern'"; return; }
  ok
}
# A small, quick tune (one type and operator, one small size).
tune_args=(tune --device "$dev" --types i32 --ops sum --sizes 4Ki --repeat 2)

# 1. Standard output that cannot be written: a full device, a closed descriptor.
reduce=(reduce --device "$dev" --type i32 --op sum --generate ones --count 1000)
"$clrdx" "${reduce[@]}" >/dev/full 2>"$tmp/err"; rc=$?
fails 1 "cannot write to standard output: No space left on device" "reduce > /dev/full"
"$clrdx" "${reduce[@]}" --json >/dev/full 2>"$tmp/err"; rc=$?
fails 1 "cannot write to standard output: No space left on device" "reduce --json > /dev/full"
"$clrdx" "${reduce[@]}" >&- 2>"$tmp/err"; rc=$?
fails 1 "cannot write to standard output: Bad file descriptor" "reduce with stdout closed"
"$clrdx" --help >/dev/full 2>"$tmp/err"; rc=$?
fails 1 "cannot write to standard output: No space left on device" "--help > /dev/full"
"$clrdx" --version >&- 2>"$tmp/err"; rc=$?
fails 1 "cannot write to standard output: Bad file descriptor" "--version with stdout closed"
# More than stdio's buffer: the write fails while the command prints, not at the end.
"$clrdx" strategies --device "$dev" --json >/dev/full 2>"$tmp/err"; rc=$?
fails 1 "cannot write to standard output: No space left on device" "strategies --json > /dev/full"
"$clrdx" "${reduce[@]}" >"$tmp/out" 2>"$tmp/err" && [ "$(cat "$tmp/out")" = 1000 ] && ok ||
  bad "reduce to a file: '$(cat "$tmp/out")' $(cat "$tmp/err")"

# 2. tune on a full disk: the old tuning file stays as it was, no temporary file is left, and the
# reason is given; whether write, fsync or close reports the full disk.
mkdir -p "$tmp/full"
printf '{"librdx_tuning": 1, "entries": [{"kind": "gpu", "note": "by hand"}]}\n' >"$tmp/full/tune.json"
cp "$tmp/full/tune.json" "$tmp/tune.before"
for on in write fsync close; do
  cp "$tmp/tune.before" "$tmp/full/tune.json"
  LD_PRELOAD=$shim RDX_ENOSPC_MATCH=$tmp/full/ RDX_ENOSPC_ON=$on "$clrdx" "${tune_args[@]}" \
    --file "$tmp/full/tune.json" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  fails_last 1 "No space left on device" "tune on a full disk ($on fails)"
  cmp -s "$tmp/tune.before" "$tmp/full/tune.json" && ok || bad "tune ($on fails) changed the tuning file: $(cat "$tmp/full/tune.json")"
  left=$(find "$tmp/full" -type f ! -name tune.json ! -name tune.json.lock)
  [ -z "$left" ] && ok || bad "tune ($on fails) left $left"
done

# 3. bench --json FILE on a full disk: FILE is not created, or stays as it was.
mkdir -p "$tmp/rows"
bench=(bench --device "$dev" --strategy localtree --sizes 1Ki --repeat 1 --peak 1)
LD_PRELOAD=$shim RDX_ENOSPC_MATCH=$tmp/rows/ "$clrdx" "${bench[@]}" --json "$tmp/rows/new.jsonl" \
  >"$tmp/out" 2>"$tmp/err"
rc=$?
fails_last 1 "No space left on device" "bench --json on a full disk"
[ -z "$(ls -A "$tmp/rows")" ] && ok || bad "bench --json on a full disk left: $(ls -A "$tmp/rows")"
echo old >"$tmp/rows/old.jsonl"
LD_PRELOAD=$shim RDX_ENOSPC_MATCH=$tmp/rows/ RDX_ENOSPC_ON=close "$clrdx" "${bench[@]}" \
  --json "$tmp/rows/old.jsonl" >"$tmp/out" 2>"$tmp/err"
rc=$?
fails_last 1 "No space left on device" "bench --json over a file on a full disk (close fails)"
[ "$(cat "$tmp/rows/old.jsonl")" = old ] && [ "$(ls -A "$tmp/rows")" = old.jsonl ] && ok ||
  bad "bench --json on a full disk changed the folder: $(ls -A "$tmp/rows")"

# 4. Two tunes of one file at once (different types), and an entry added by hand while they run:
# every entry survives. Stale entries of this device for the pairs they measure are replaced
# (removed, or replaced by what each run found); its entry for another pair stays.
IFS=$'\t' read -r name driver < <("$clrdx" devices --json | python3 -c '
import json, sys
d = [x for x in json.load(sys.stdin) if x["kind"] == "cpu"][0]
print(json.dumps(d["name"]), json.dumps(d["driver"]), sep="\t")')
entry() { printf '{"device": %s, "driver": %s, "type": "%s", "op": "%s", "note": "%s"}' "$name" "$driver" "$1" "$2" "$3"; }
printf '{"librdx_tuning": 1, "entries": [{"kind": "gpu", "note": "by hand before"}, %s, %s, %s]}\n' \
  "$(entry i32 sum stale)" "$(entry f32 sum stale)" "$(entry i64 min keep)" >"$tmp/both.json"
tune_both=(tune --device "$dev" --ops sum --sizes 1Mi,4Mi --repeat 3 --margin 0 --file "$tmp/both.json")
"$clrdx" "${tune_both[@]}" --types i32 >"$tmp/out.i32" 2>"$tmp/err.i32" &
pid_i32=$!
"$clrdx" "${tune_both[@]}" --types f32 >"$tmp/out.f32" 2>"$tmp/err.f32" &
pid_f32=$!
# Both have read the file and are measuring: add an entry by hand (as an editor would).
for _ in $(seq 600); do
  grep -q built-in "$tmp/err.i32" && grep -q built-in "$tmp/err.f32" && break
  sleep 0.1
done
python3 - "$tmp/both.json" <<'PY'
import json, os, sys
path = sys.argv[1]
j = json.load(open(path))
j["entries"].append({"kind": "accelerator", "note": "by hand during"})
open(path + ".edit", "w").write(json.dumps(j, indent=2))
os.rename(path + ".edit", path)
PY
kill -0 "$pid_i32" 2>/dev/null && kill -0 "$pid_f32" 2>/dev/null ||
  echo "note: a tune ended before the entry was added by hand (a fast machine): not a concurrent edit"
wait $pid_i32; rc_i32=$?
wait $pid_f32; rc_f32=$?
[ "$rc_i32" = 0 ] && [ "$rc_f32" = 0 ] && ok ||
  bad "concurrent tunes: exit $rc_i32 and $rc_f32: $(tail -n1 "$tmp/err.i32") $(tail -n1 "$tmp/err.f32")"
python3 - "$tmp/both.json" "$tmp/out.i32" "$tmp/out.f32" <<'PY' && ok || bad "concurrent tunes lost an update: $(cat "$tmp/both.json")"
import json, re, sys
entries = json.load(open(sys.argv[1]))["entries"]
notes = [e.get("note", "") for e in entries]
assert "by hand before" in notes and "by hand during" in notes, notes
assert "keep" in notes and "stale" not in notes, notes
# Each run wrote its grid entries and the device's host throughput; the later run's throughput
# replaced the earlier one's: one entry with it.
assert sum(1 for e in entries if "host_mbps" in e) == 1, entries
for out, t in ((sys.argv[2], "i32"), (sys.argv[3], "f32")):
    wrote = int(re.search(r"wrote (\d+) entries", open(out).read()).group(1))
    assert sum(1 for e in entries if e.get("type") == t and e.get("device")) == wrote - 1, (t, wrote)
PY

# 5. bench --plot without gnuplot fails before measuring anything; with a plotter, its rows go
# to a private temporary file that is removed afterwards (never a fixed /tmp/clrdx_bench.jsonl).
mkdir -p "$tmp/bin" "$tmp/plotbin" "$tmp/t"
ln -s "$(python3 -c 'import sys; print(sys.executable)')" "$tmp/bin/python3"  # not a wrapper script
printf '#!/bin/sh\ncat >/dev/null\n' >"$tmp/plotbin/gnuplot"
chmod +x "$tmp/plotbin/gnuplot"
plot=(bench --device "$dev" --strategy localtree --sizes 16Mi --repeat 3)
start=$(date +%s%N)
TMPDIR=$tmp/t PATH=$tmp/bin "$clrdx" "${plot[@]}" --plot "$tmp/p.png" >"$tmp/out" 2>"$tmp/err"
rc=$?
ms=$((($(date +%s%N) - start) / 1000000))
fails 1 "gnuplot" "bench --plot without gnuplot"
[ ! -s "$tmp/out" ] && ok || bad "bench --plot without gnuplot measured first: $(head -3 "$tmp/out")"
[ "$ms" -lt 1000 ] && ok || bad "bench --plot without gnuplot took $ms ms before failing"
[ -z "$(ls -A "$tmp/t")" ] && ok || bad "bench --plot without gnuplot left $(ls -A "$tmp/t")"
TMPDIR=$tmp/t PATH=$tmp/plotbin:$PATH "$clrdx" "${bench[@]}" --plot "$tmp/p.png" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" = 0 ] && ok || bad "bench --plot with a plotter: exit $rc: $(tail -2 "$tmp/err")"
left=$(find "$tmp/t" -name '*clrdx*' -o -name '*.jsonl')
[ -z "$left" ] && ok || bad "bench --plot left its rows behind: $left"

# 6. tune --dry-run reports the real score of the best candidate when the built-in plan is kept
# (--margin 1: a candidate would have to be twice as fast, which at 1Mi none is), and of the
# candidate it would store otherwise.
"$clrdx" tune --device "$dev" --types i32 --ops sum --sizes 1Mi --repeat 3 --margin 1 --dry-run \
  --file "$tmp/dry.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
python3 - "$tmp/out" "$tmp/err" <<'PY' && ok || bad "tune --dry-run: the best score is not the best candidate's: $(cat "$tmp/out")"
import re, sys
out, err = open(sys.argv[1]).read(), open(sys.argv[2]).read()
lines = list(re.finditer(r"^tune:   (.+?) +([0-9.]+)x \(worst size [0-9.]+x\)( the built-in plan)?$", err, re.M))
scores = {l.group(1).strip(): l.group(2) for l in lines}
builtin = {l.group(1).strip() for l in lines if l.group(3)}
kept = re.search(r"built-in plan kept \(best candidate (.+) ([0-9.]+)x, [0-9.]+x at its worst size", out)
stored = re.search(r"^  i32 sum: (.+) \(([0-9.]+)x;", out, re.M)
m = kept or stored
assert m, out
assert scores.get(m.group(1)) == m.group(2), (m.groups(), scores)
if kept:  # the best of the candidates, but for those with the built-in plan (never stored)
    others = [float(s) for k, s in scores.items() if k not in builtin]
    assert float(m.group(2)) == max(others), (m.group(2), sorted(others), builtin)
PY
[ "$rc" = 0 ] && [ ! -e "$tmp/dry.json" ] && ok || bad "tune --dry-run: exit $rc, or it wrote the file"

# 7. A tuning file that cannot be written fails before anything is measured, with the reason.
RDX_TUNING_FILE=/dev/null/x "$clrdx" "${tune_args[@]}" >"$tmp/out" 2>"$tmp/err"
rc=$?
fails 2 "/dev/null/x.*Not a directory" "tune into /dev/null/x"
[ ! -s "$tmp/out" ] && ok || bad "tune into /dev/null/x measured first: $(head -3 "$tmp/out")"
# (--dry-run writes nothing, so it does not care.)
RDX_TUNING_FILE=/dev/null/x "$clrdx" "${tune_args[@]}" --dry-run >"$tmp/out" 2>"$tmp/err" && ok ||
  bad "tune --dry-run into /dev/null/x: $(tail -1 "$tmp/err")"

# 8. More data than memory can hold is "out of host memory", whatever the allocator says.
"$clrdx" reduce --device "$dev" --type u8 --op sum --generate ones --count 2^63 >"$tmp/out" 2>"$tmp/err"
rc=$?
fails 1 "out of host memory" "--count 2^63 u8"

finish cli.writes
