#!/usr/bin/env bash
# Runs `auto` and a yardstick (bench/yardsticks, or $RDX_YARDSTICKS) in one go on one machine, same
# contract and data, and prints issue 4's ratio table. Usage:
#   bench/bench_vs_yardsticks.sh cpu [max_log2=28]    PoCL vs the native OpenMP + SIMD loop
#   bench/bench_vs_yardsticks.sh gpu [max_log2=30]    NVIDIA OpenCL vs CUB (needs nvcc)
# RDX_BENCH_ROUNDS=R (default 1) alternates yardstick and clrdx R times and judges each row on
# the medians (shared machines drift between runs; see compare_yardsticks.py).
# Writes clrdx.jsonl, yardstick.jsonl and ratios.md into $RDX_BENCH_OUT (default build/bench).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
kind=${1:?cpu or gpu}
max=${2:-$([ "$kind" = gpu ] && echo 30 || echo 28)}
yard=${RDX_YARDSTICKS:-$root/bench/yardsticks}
out=${RDX_BENCH_OUT:-$root/build/bench}
clrdx=${CLRDX:-${RDX_BUILD_DIR:-$root/build}/tools/clrdx/clrdx}
mkdir -p "$out"
sizes=$(python3 -c "print(','.join(str(1 << k) for k in range(10, $max + 1, 2)))")
rounds=${RDX_BENCH_ROUNDS:-1}
[ "$kind" = cpu ] &&
  g++ -O3 -march=native -fopenmp -std=c++17 "$yard/native_cpu_reduce.cpp" -o "$out/native_cpu_reduce"
: >"$out/yardstick.jsonl"
: >"$out/clrdx.jsonl"
for ((r = 1; r <= rounds; ++r)); do
  if [ "$kind" = gpu ]; then
    "$yard/run_nvidia.sh" "$max" >>"$out/yardstick.jsonl"
  else
    "$out/native_cpu_reduce" "$max" >>"$out/yardstick.jsonl"
  fi
  for to in f32:sum i32:sum f64:sum f32:max; do
    "$clrdx" bench --device "$kind" --strategy auto --type "${to%%:*}" --op "${to##*:}" \
      --sizes "$sizes" --repeat 20 --json "$out/part.jsonl" >&2
    cat "$out/part.jsonl" >>"$out/clrdx.jsonl"
  done
done
python3 "$root/bench/compare_yardsticks.py" "$out/clrdx.jsonl" "$out/yardstick.jsonl" | tee "$out/ratios.md"
