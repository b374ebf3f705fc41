#!/usr/bin/env bash
# Sweeps the GPU tunables of the fixed-bin sum (Determinism any_device: lanes, unroll, work-groups
# a compute unit) against run_to_run: each type's sweep in one clrdx command, so that its rows
# read the same data and the rounds alternate (clrdx bench --rounds), run_to_run in the command
# before it, with the same data pattern and rounds: the measurement behind kBinned* in
# runtime/src/plan/plan.cpp. Prints each size's rows by median time over the rounds, with the
# ratio to run_to_run's median; with ptxas on PATH (NVIDIA), also the registers of each built
# binned_partial (the driver's binaries are PTX, kept by the kernel cache in OUT/cache).
# Usage: bench/sweep_binned.sh DEVICE [SIZES=64Mi,256Mi] [TYPES=f32,f64]
#   env: CLRDX (clrdx to run), RDX_BENCH_OUT (folder of the rows, default build/bench),
#        RDX_BENCH_ROUNDS (default 2), LANES (default 2,4,8), UNROLL (1,2,4,8), GPC (4),
#        DATA (random)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
clrdx=${CLRDX:-${RDX_BUILD_DIR:-$root/build}/tools/clrdx/clrdx}
dev=$1 sizes=${2:-64Mi,256Mi} types=${3:-f32,f64}
out=${RDX_BENCH_OUT:-${RDX_BUILD_DIR:-$root/build}/bench}
rounds=${RDX_BENCH_ROUNDS:-2}
mkdir -p "$out/cache"
export RDX_CACHE_DIR="$out/cache"
for t in ${types//,/ }; do
  # run_to_run in a command of its own just before (the lists would tune its fast_* plan too).
  common=(--device "$dev" --strategy auto --type "$t" --sizes "$sizes" --repeat 20 --peak 1
          --data "${DATA:-random}" --rounds "$rounds")
  "$clrdx" bench "${common[@]}" --determinism run_to_run --json "$out/binned_sweep_${t}_rtr.jsonl" \
    > "$out/binned_sweep_${t}_rtr.txt" 2>> "$out/binned_sweep.log"
  "$clrdx" bench "${common[@]}" --determinism any_device --vw "${LANES:-2,4,8}" \
    --unroll "${UNROLL:-1,2,4,8}" --groups-per-cu "${GPC:-4}" --json "$out/binned_sweep_$t.jsonl" \
    > "$out/binned_sweep_$t.txt" 2>> "$out/binned_sweep.log"
done
for t in ${types//,/ }; do
  python3 - "$out/binned_sweep_${t}_rtr.jsonl" "$out/binned_sweep_$t.jsonl" <<'PY'
import collections, json, re, statistics, sys
rows = [json.loads(l) for f in sys.argv[1:] for l in open(f)]
by = collections.defaultdict(lambda: collections.defaultdict(list))
for r in rows:
    by[(r["type"], r["n"])][re.sub(r"#\d+$", "", r["strategy"])].append(r["call_us"])
for (t, n), labels in sorted(by.items()):
    rtr = statistics.median(labels["auto"])
    print(f"{t} n = {n}: median call over the rounds (min-max); / run_to_run's median")
    for k, v in sorted(labels.items(), key=lambda kv: statistics.median(kv[1])):
        m = statistics.median(v)
        print(f"  {k:36s} {m:10.1f} us ({min(v):.1f}-{max(v):.1f})  {m / rtr:6.3f}")
PY
done
if command -v ptxas > /dev/null; then
  # A cache entry (runtime/src/core/binary_cache.cpp): the magic, the key's length, the binary's
  # length and a checksum (8 bytes each), the key (the build's options among it), the binary
  # (NVIDIA: PTX text).
  for f in $(grep -l "entry binned_partial" -r "$out/cache" 2>/dev/null); do
    python3 - "$f" "$out/binned_partial.ptx" <<'PY'
import re, sys
b = open(sys.argv[1], "rb").read()
key = re.search(rb"-DEXACT_T=(\w+).*?-DLANES=(\d+) -DUNROLL=(\d+)", b)
print("EXACT_T=%s LANES=%s UNROLL=%s" % tuple(x.decode() for x in key.groups()) if key else "?", end=" ")
key_len = int.from_bytes(b[8:16], "little")  # after the magic (8 bytes)
open(sys.argv[2], "wb").write(b[32 + key_len:])
PY
    ptxas -arch=sm_90 -v "$out/binned_partial.ptx" -o /dev/null 2>&1 |
      grep -A3 "entry function 'binned_partial'" | grep -o "Used [0-9]* registers" || echo
  done
fi
