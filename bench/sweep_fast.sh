#!/usr/bin/env bash
# Sweeps the tuning table of fast_strided / fast_blocked on one device and prints the rows sorted
# by time per size: the measurement behind the defaults in runtime/src/plan/fast_tuning.cpp.
# Usage: bench/sweep_fast.sh DEVICE STRATEGY SIZES [TYPE=f32] [OP=sum]
#   e.g. bench/sweep_fast.sh gpu fast_strided 16Mi,256Mi
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
clrdx=${CLRDX:-${RDX_BUILD_DIR:-$root/build}/tools/clrdx/clrdx}
dev=$1 strategy=$2 sizes=$3 type=${4:-f32} op=${5:-sum}
out=$(mktemp -d)
if [ "$strategy" = fast_strided ]; then
  configs="256:4:1:4 256:4:2:4 256:8:1:4 256:8:2:4 256:8:4:4 256:16:1:4 256:16:2:4 256:16:4:4 256:32:1:4 256:32:2:4 512:4:2:4 512:8:1:4 512:8:2:4 512:16:2:4 1024:4:2:4 1024:8:1:4 256:8:2:8 256:16:1:8 256:16:2:8 512:8:1:8"
else
  configs="1:1:1:8 1:1:1:16 1:2:1:16 1:4:1:16 1:8:1:16 1:4:1:8 8:1:1:16 16:1:1:16"
fi
for c in $configs; do
  IFS=: read -r wg gpc unroll vw <<<"$c"
  "$clrdx" bench --device "$dev" --strategy "$strategy" --type "$type" --op "$op" --sizes "$sizes" \
    --repeat 20 --wg "$wg" --groups-per-cu "$gpc" --unroll "$unroll" --vw "$vw" \
    --label "wg=$wg,gpc=$gpc,unroll=$unroll,vw=$vw" --peak 1 --json "$out/$c.jsonl" >/dev/null 2>&1
done
cat "$out"/*.jsonl | python3 -c '
import json, sys, collections
by = collections.defaultdict(list)
for l in sys.stdin:
    r = json.loads(l); by[r["n"]].append(r)
for n in sorted(by):
    print("n = %d" % n)
    for r in sorted(by[n], key=lambda r: r["call_us"]):
        print("  %-32s call %9.1f us  %8.1f GB/s  dev %9.1f us  %8.1f GB/s" % (
            r["strategy"], r["call_us"], r["GBps"], r["dev_us"], r["dev_GBps"]))'
rm -rf "$out"
