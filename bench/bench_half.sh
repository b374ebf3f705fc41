#!/usr/bin/env bash
# f16 and bf16 sums against the f32 sum of the same bytes, in GB/s of input:
#   bench/bench_half.sh DEVICE [MIB] [ROUNDS]     (MIB: comma list of input sizes in MiB; 64,256)
# For each size, `clrdx bench --strategy auto --op sum` of f32 (MIB * 2^18 elements) and of f16
# and bf16 (twice as many elements: the same bytes), element i holding i % 7, each row the
# median of --repeat 20 calls; the three types alternate, ROUNDS (default 3) times. Prints each
# round's GB/s and the ratio of the medians over rounds to f32's. CLRDX overrides the binary
# (default build/tools/clrdx/clrdx).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
clrdx=${CLRDX:-$root/build/tools/clrdx/clrdx}
device=${1:?usage: bench_half.sh DEVICE [MIB] [ROUNDS]}
mib=${2:-64,256}
rounds=${3:-3}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for r in $(seq "$rounds"); do
  for t in f32 f16 bf16; do
    per=$([ "$t" = f32 ] && echo 18 || echo 19)  # elements per MiB: 2^18 of 4 bytes, 2^19 of 2
    sizes=$(echo "$mib" | tr ',' '\n' | while read -r m; do echo $((m << per)); done | paste -sd,)
    "$clrdx" bench --device "$device" --strategy auto --op sum --type "$t" --sizes "$sizes" \
      --repeat 20 --peak 1 --json "$out/$t-$r.json" >/dev/null 2>&1
  done
done
python3 - "$out" "$rounds" <<'PY'
import json, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
rows = {}  # (MiB, type) -> [GB/s per round]
for t in ("f32", "f16", "bf16"):
    for r in range(1, rounds + 1):
        for line in open(f"{out}/{t}-{r}.json"):
            j = json.loads(line)
            if not j["ok"]:
                sys.exit(f"bench_half: {t} n={j['n']}: the result was wrong")
            mib = j["n"] * (4 if t == "f32" else 2) // 2**20
            rows.setdefault((mib, t), []).append(j["GBps"])
print(f"{'MiB':>5} type  {'GB/s per round':34} median  vs f32")
for (mib, t), v in sorted(rows.items(), key=lambda kv: (kv[0][0], ("f32", "f16", "bf16").index(kv[0][1]))):
    m, f = statistics.median(v), statistics.median(rows[(mib, "f32")])
    print(f"{mib:5} {t:5} {' '.join(f'{x:8.1f}' for x in v):34} {m:7.1f}  {m / f:5.3f}x")
PY
