#!/bin/bash
# Session 28, eighth call: H200, the grid at 2^22..2^24 with the host's finish of more partials
# (groups of 512 and 1024, up to 528 partials) against the default (1056 groups of 256, the last
# group's finish); probe_call_cost grid of 20b2452's code, 3 rounds, configurations alternating.
set -u
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib RDX_CACHE_DIR=off
./probe_s28fold grid gpu 3 4194304,8388608,16777216 256:8:2:0 1024:4:2:0 1024:8:2:0 1024:2:2:0 512:3:2:0 512:2:4:0 1024:4:4:0 256:8:4:0 >> $OUT/grid.jsonl 2>> $OUT/log.txt
/usr/bin/env python3 - $OUT/grid.jsonl <<'PY'
import json, statistics as st, sys, collections
d = collections.defaultdict(list); plan = {}
for l in open(sys.argv[1]):
    r = json.loads(l); d[(r["n"], r["config"])].append(r["call_us"])
    plan[(r["n"], r["config"])] = r["plan"].split("groups=")[1].split(" ")[0] + " hf=" + r["plan"].split("host_finish=")[1].split(" ")[0] + " ok=" + str(r["ok"])
for k in sorted(d): print(k, plan[k], round(st.median(d[k]), 2), d[k])
PY
