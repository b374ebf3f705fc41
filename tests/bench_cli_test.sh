#!/usr/bin/env bash
# clrdx bench's peak and plot. The peak is measured by reading the very bytes each size reduces
# (a cache-resident size against a cache-resident read), or given with --peak; the table, the
# JSON rows and the "% peak" column agree on it. Timings are not asserted (a busy machine makes
# any bound flaky): the checks are what was measured, for which bytes, and how it is reported.
# --plot draws bars at one size (the strategies in `clrdx strategies` order) and lines across
# sizes; without gnuplot those checks are skipped, said so, and the script exits 77 (ctest: skip).
# Usage: bench_cli_test.sh path/to/clrdx
set -u
clrdx=$1
. "$(dirname "$0")/cli_lib.sh"
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-$tmp/pocl-cache}

# rows_agree TABLE ROWS EXPECT_SOURCE ELEMENT_BYTES INPUTS [GIVEN]: every JSON row carries the
# peak's source, its bytes (n x element bytes x inputs when measured, 0 when given) and a
# positive finite figure; each table header prints that peak and its label; each row's "% peak"
# is 100 x GB/s / that row's peak, and a measured peak is never beaten: a correct row that read
# faster than the bare read is the peak, named in the label (a peak a row beats is no peak).
rows_agree() {
  python3 - "$@" <<'EOF'
import json, math, re, sys
table, rows, source, es, inputs = sys.argv[1:6]
given = float(sys.argv[6]) if len(sys.argv) > 6 else None
es, inputs = int(es), int(inputs)
rows = [json.loads(l) for l in open(rows) if l.strip()]
text = open(table).read()
errors = []
if not rows:
    errors.append("no JSON rows")
peaks = {}
for r in rows:
    n, peak = r["n"], r.get("peak_GBps")
    if r.get("peak_source") != source:
        errors.append("n=%d %s: peak_source %r, want %r" % (n, r["strategy"], r.get("peak_source"), source))
    if not isinstance(peak, (int, float)) or not math.isfinite(peak) or peak <= 0:
        errors.append("n=%d: peak_GBps %r is not a positive figure" % (n, peak))
        continue
    if given is not None and peak != given:
        errors.append("n=%d: peak_GBps %r, want the given %r" % (n, peak, given))
    want_bytes = 0 if given is not None else n * es * inputs
    if r.get("peak_bytes") != want_bytes:
        errors.append("n=%d: peak_bytes %r, want %d" % (n, r.get("peak_bytes"), want_bytes))
    if peaks.setdefault(n, peak) != peak:
        errors.append("n=%d: rows of one size carry different peaks" % n)
# Each size's header and rows, in the table's order.
sections = re.split(r"\n(?=\S.* of n = \d+ )", text)
for n, peak in peaks.items():
    sec = [s for s in sections if re.search(r" of n = %d \(" % n, s)]
    if len(sec) != 1:
        errors.append("n=%d: %d table sections" % (n, len(sec)))
        continue
    head = sec[0].splitlines()[0]
    if source == "given":
        label = re.escape("(given)")
    else:
        label = re.escape("(measured read of the same %.1f MiB" % (n * es * inputs / 1048576))
        label += r"(, by \S+: the bare read's best was [\d.]+ GB/s)?\)"
    want = re.escape("peak %.1f GB/s " % peak) + label + "$"
    if not re.search(want, head):
        errors.append("n=%d: header %r does not end with /%s/" % (n, head, want))
    for r in rows:
        if r["n"] != n:
            continue
        m = re.search(r"^  %s +\S+ \S+ +([\d.]+) +([\d.]+)%%" % re.escape(r["strategy"]), sec[0], re.M)
        if not m:
            errors.append("n=%d %s: no table row" % (n, r["strategy"]))
            continue
        pct = 100 * r["GBps"] / peak
        if given is None and r["ok"] and pct > 100 + 1e-9:
            errors.append("n=%d %s: %.2f%% of the measured peak" % (n, r["strategy"], pct))
        if abs(float(m.group(2)) - pct) > 0.051 + 1e-6 * pct:
            errors.append("n=%d %s: %% peak %s, want %.2f" % (n, r["strategy"], m.group(2), pct))
if "measured copy" in text:
    errors.append("the table still says 'measured copy'")
print("\n".join(errors))
sys.exit(1 if errors else 0)
EOF
}
check_rows() { # DESCRIPTION rows_agree-args...
  local what=$1; shift
  if out=$(rows_agree "$@" 2>&1); then ok; else bad "$what: $out"; fi
}

# Measured: f32 at a size in every cache and at 64 MiB (beyond this machine's last-level cache).
expect 0 "bench, measured peak" -- "$clrdx" bench --device "$dev" --strategy localtree,auto \
  --sizes 1Ki,256Ki --repeat 1 --json "$tmp/m.jsonl"
cp "$tmp/out" "$tmp/m.txt"
says "measuring read bandwidth" "bench says what it measures"
check_rows "measured peak, f32" "$tmp/m.txt" "$tmp/m.jsonl" "measured read" 4 1
expect 0 "bench, measured peak beyond the cache" -- "$clrdx" bench --device "$dev" \
  --strategy auto --sizes 16Mi --repeat 1 --json "$tmp/big.jsonl"
cp "$tmp/out" "$tmp/big.txt"
check_rows "measured peak, 64 MiB" "$tmp/big.txt" "$tmp/big.jsonl" "measured read" 4 1
# Byte counts that are no multiple of a vector load (the read's tail), down to fewer bytes than one.
expect 0 "bench, measured peak, i8 tails" -- "$clrdx" bench --device "$dev" --strategy auto \
  --type i8 --sizes 3,1000,65537 --repeat 1 --json "$tmp/i8.jsonl"
cp "$tmp/out" "$tmp/i8.txt"
check_rows "measured peak, i8" "$tmp/i8.txt" "$tmp/i8.jsonl" "measured read" 1 1
# A map over two inputs reads both: the peak reads both too.
expect 0 "bench, measured peak, two inputs" -- "$clrdx" bench --device "$dev" --strategy auto \
  --map 'x0*x1' --inputs 2 --sizes 64Ki --repeat 1 --json "$tmp/map.jsonl"
cp "$tmp/out" "$tmp/map.txt"
check_rows "measured peak, two inputs" "$tmp/map.txt" "$tmp/map.jsonl" "measured read" 4 2
# Given: nothing measured, the figure as given.
expect 0 "bench --peak" -- "$clrdx" bench --device "$dev" --strategy auto --sizes 4Ki,8Ki \
  --repeat 1 --peak 12.5 --json "$tmp/g.jsonl"
cp "$tmp/out" "$tmp/g.txt"
grep -q "measuring read bandwidth" "$tmp/err" && bad "bench --peak measured anyway" || ok
check_rows "given peak" "$tmp/g.txt" "$tmp/g.jsonl" "given" 4 1 12.5

# Lists of tunables and rounds: a row for each combination in each round, named by the values
# of the lists of more than one, round 2 on ending in #R, every row checked against the host.
expect 0 "bench, tunable lists and rounds" -- "$clrdx" bench --device "$dev" --strategy auto \
  --determinism any_device --vw 2,4 --unroll 1,4 --groups-per-cu 2 --rounds 2 --sizes 4Ki,5000 \
  --repeat 1 --peak 10 --json "$tmp/lists.jsonl"
cp "$tmp/out" "$tmp/lists.txt"
if out=$(python3 - "$tmp/lists.jsonl" "$tmp/lists.txt" <<'EOF'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
text = open(sys.argv[2]).read()
want = []
for n in (4096, 5000):
    for rnd in (1, 2):
        for vw in (2, 4):
            for u in (1, 4):
                want.append((n, "auto/vw%d/u%d:any_device%s" % (vw, u, "#2" if rnd == 2 else ""), rnd))
got = [(r["n"], r["strategy"], r["round"]) for r in rows]
errors = []
if got != want:
    errors.append("rows %r, want %r" % (got, want))
if not all(r["ok"] for r in rows):
    errors.append("a row failed its check: %r" % [r["strategy"] for r in rows if not r["ok"]])
for n in (4096, 5000):
    if len({r["result"] for r in rows if r["n"] == n}) != 1:
        errors.append("n=%d: any_device rows disagree" % n)
for _, label, _ in want:
    if "\n  %s " % label not in text:
        errors.append("no table row %s" % label)
print("\n".join(errors))
sys.exit(1 if errors else 0)
EOF
); then ok; else bad "bench lists and rounds: $out"; fi
expect 2 "bench, a bad value in a list" -- "$clrdx" bench --device "$dev" --unroll 1,x
expect 2 "bench, 0 rounds" -- "$clrdx" bench --device "$dev" --rounds 0
expect 2 "bench, a grid list with --layouts" -- "$clrdx" bench --device "$dev" \
  --layouts uniform:64 --unroll 2
says "go without --layouts" "bench --layouts --unroll says why"

# Composites (--op mean, var, ...: rdx::reduce's and, with --layouts, rdx::reduce_axes_into's or
# reduce_segments'), each row checked against verify's host reference (a WRONG row exits 1).
expect 0 "bench --op var, whole" -- "$clrdx" bench --device "$dev" --strategy auto --op var \
  --sizes 1000,4Ki --repeat 1 --peak 10 --json "$tmp/var.jsonl"
if out=$(python3 - "$tmp/var.jsonl" <<'EOF'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
errors = []
if [(r["n"], r["op"]) for r in rows] != [(1000, "var"), (4096, "var")]:
    errors.append("rows %r" % [(r["n"], r["op"]) for r in rows])
if not all(r["ok"] for r in rows):
    errors.append("a row failed its check: %r" % rows)
print("\n".join(errors))
sys.exit(1 if errors else 0)
EOF
); then ok; else bad "bench --op var: $out"; fi
expect 0 "bench --op minmax, whole" -- "$clrdx" bench --device "$dev" --strategy auto \
  --op minmax --type i32 --sizes 777 --repeat 1 --peak 10
! grep -q WRONG "$tmp/out" && grep -q "^  auto .* 0 \.\. 6 *$" "$tmp/out" && ok ||
  bad "bench --op minmax: $(cat "$tmp/out")"
expect 0 "bench --op std --layouts" -- "$clrdx" bench --device "$dev" --op std \
  --layouts rows:16,columns:64,apart:4,uniform:100 --sizes 4Ki --repeat 1 --json "$tmp/seg.jsonl"
python3 -c 'import json, sys; r = [json.loads(l) for l in open(sys.argv[1])]; sys.exit(not (len(r) == 4 and all(x["checked"] and x["op"] == "std" for x in r)))' \
  "$tmp/seg.jsonl" && ok || bad "bench --op std --layouts: $(cat "$tmp/seg.jsonl")"
expect 0 "bench --op minmax --layouts" -- "$clrdx" bench --device "$dev" --op minmax --type i16 \
  --layouts columns:64,powerlaw --sizes 4Ki --repeat 1
! grep -q WRONG "$tmp/out" && ok || bad "bench --op minmax --layouts: $(cat "$tmp/out")"
expect 2 "bench, a composite with --map" -- "$clrdx" bench --device "$dev" --op var --map "x*x"
says "not the composite var" "bench --op var --map says why"
expect 2 "bench, neither an operator nor a composite" -- "$clrdx" bench --device "$dev" --op median

# The plot.
skipped=""
if ! command -v gnuplot >/dev/null; then
  skipped="gnuplot is not on PATH (tools/setup.sh --plot installs it)"
else
  plot=$(dirname "$0")/../tools/clrdx/plot_bench.py
  # One size, every strategy: bars in the order of `clrdx strategies`.
  expect 0 "bench --plot, one size" -- "$clrdx" bench --device "$dev" --strategy all \
    --sizes 1Ki --repeat 1 --json "$tmp/one.jsonl" --plot "$tmp/one.png"
  [ "$(head -c 8 "$tmp/one.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] && ok ||
    bad "bench --plot at one size wrote no PNG"
  expect 0 "plot_bench.py, one size" -- python3 "$plot" "$tmp/one.jsonl" "$tmp/one2.png" \
    --script "$tmp/one.gp"
  grep -q "with boxes" "$tmp/one.gp" && ! grep -q "linespoints" "$tmp/one.gp" && ok ||
    bad "one size: the plot is not a bar chart: $(grep '^plot' "$tmp/one.gp")"
  grep -q "set logscale y" "$tmp/one.gp" && ok || bad "one size: the bars' axis is not logarithmic"
  want=$("$clrdx" strategies | awk 'NR > 1 && /^[a-z]/ {print $1}')
  got=$(sed -n '/^\$bars0 << EOD$/,/^EOD$/p' "$tmp/one.gp" | sed -n 's/^[0-9]* "\([^"]*\)" .*/\1/p')
  [ -n "$got" ] && [ "$got" = "$want" ] && ok ||
    bad "one size: bars in the order '$(echo $got)', want '$(echo $want)'"
  grep -q "title 'peak [0-9.]* GB/s (measured read)'" "$tmp/one.gp" && ok ||
    bad "one size: no peak line: $(grep '^plot' "$tmp/one.gp")"
  # Several sizes: lines against n, the peak among them.
  expect 0 "bench --plot, several sizes" -- "$clrdx" bench --device "$dev" \
    --strategy localtree,auto --sizes 1Ki,4Ki,16Ki --repeat 1 --json "$tmp/sev.jsonl" \
    --plot "$tmp/sev.png"
  [ "$(head -c 8 "$tmp/sev.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] && ok ||
    bad "bench --plot at several sizes wrote no PNG"
  expect 0 "plot_bench.py, several sizes" -- python3 "$plot" "$tmp/sev.jsonl" "$tmp/sev2.png" \
    --script "$tmp/sev.gp"
  [ "$(grep -o "with linespoints title '[a-z]*'" "$tmp/sev.gp" | wc -l)" = 2 ] &&
    ! grep -q "with boxes" "$tmp/sev.gp" && ok ||
    bad "several sizes: not one line per strategy: $(grep '^plot' "$tmp/sev.gp")"
  grep -q "title 'peak (measured read)'" "$tmp/sev.gp" && ok ||
    bad "several sizes: no peak line: $(grep '^plot' "$tmp/sev.gp")"
fi

finish bench_cli_test
rc=$?
if [ "$rc" = 0 ] && [ -n "$skipped" ]; then
  echo "SKIPPED the plot checks: $skipped"
  exit 77
fi
exit "$rc"
