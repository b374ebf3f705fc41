#!/usr/bin/env bash
# Runs `clrdx verify` for every strategy in parallel processes (kernel builds are single-threaded,
# so this uses a many-core machine well) and prints each strategy's line and the total.
# Usage: tools/verify_parallel.sh DEVICE [JOBS=8] [extra clrdx verify options, e.g. --quick]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
clrdx=${CLRDX:-${RDX_BUILD_DIR:-$root/build}/tools/clrdx/clrdx}
dev=$1 jobs=${2:-8}
shift $(( $# >= 2 ? 2 : 1 ))
out=$(mktemp -d)
"$clrdx" strategies --json | python3 -c 'import json,sys; print("\n".join(s["name"] for s in json.load(sys.stdin)))' |
  xargs -P "$jobs" -I{} sh -c "'$clrdx' verify --device '$dev' --strategy {} $* >'$out/{}.txt' 2>/dev/null; echo \$? >'$out/{}.rc'"
cat "$out"/*.txt | grep -v '^verify:'
python3 - "$out" <<'PY'
import glob, re, sys
p = f = k = 0
bad = []
for path in glob.glob(sys.argv[1] + "/*.txt"):
    for m in re.finditer(r"(\d+) passed, (\d+) failed, (\d+) skipped", open(path).read().split("\nverify:")[0]):
        p += int(m[1]); f += int(m[2]); k += int(m[3])
for path in glob.glob(sys.argv[1] + "/*.rc"):
    if open(path).read().strip() != "0":
        bad.append(path.rsplit("/", 1)[1][:-3])
print("verify (all strategies): %d passed, %d failed, %d skipped%s" % (p, f, k, "; non-zero exit: " + " ".join(sorted(bad)) if bad else ""))
sys.exit(1 if f or bad else 0)
PY
