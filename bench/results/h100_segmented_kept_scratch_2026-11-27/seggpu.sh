#!/bin/bash
# GPU long segments: CUB against three clrdx builds, alternating: base, $MID (run2: A, runs 3 and 4: D;
# the README says which build each is) and C (no check). TESTS: the device tests run first (run2:
# "segmented: bad*,segmented: offsets around*,segmented: typed*,offsets: partials*"; runs 3 and 4 the
# default below).
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib RDX_CACHE_DIR=off
nvidia-smi -L
MID=${MID:-D}
TESTS=${TESTS:-segmented*,offsets: partials*,exact segments: the same*,concurrency: segmented*,concurrency: one*}
RDX_DEVICE=gpu timeout 200 ./rdx_device_tests "--test-case=$TESTS" > $OUT/gpu_tests.txt 2>&1; echo "tests rc $?"; tail -3 $OUT/gpu_tests.txt
nvcc -O3 -std=c++17 -arch=sm_90 -I/usr/local/cuda/include/cccl cub_segmented_reduce.cu -o cub_seg || exit 1
L=uniform:1024,uniform:4096,uniform:16384,uniform:65536,uniform:262144,uniform:1048576,powerlaw,rows:4096,rows:65536
ROUNDS=${ROUNDS:-2}
for r in $(seq $ROUNDS); do
  ./cub_seg 28 | sed "s/^{/{\"round\":$r,\"label\":\"cub\",/" >> $OUT/cub.jsonl
  for b in base $MID C; do
    for to in f32:sum i32:sum f32:max; do
      env $([ $b = C ] && echo RDX_X_NOCHECK=1) ./clrdx_$b bench --device gpu --type ${to%%:*} --op ${to##*:} --layouts $L --sizes 256Mi --repeat 10 --json $OUT/p.jsonl >/dev/null 2>$OUT/err.txt || cat $OUT/err.txt
      sed "s/^{/{\"round\":$r,\"label\":\"$b\",/" $OUT/p.jsonl >> $OUT/clrdx.jsonl
    done
  done
  echo "round $r done at $SECONDS s"
done
MID=$MID python3 - $OUT <<'PY' | tee $OUT/table.md
import json,os,sys,collections,statistics
d=collections.defaultdict(list); bad=[]
for f in ("cub.jsonl","clrdx.jsonl"):
    for l in open(sys.argv[1]+"/"+f):
        r=json.loads(l)
        if "layout" not in r: continue
        d[(r["op"],r["type"],r["layout"],r["label"])].append(r["GBps"])
        if r.get("checked") is False: bad.append(r)
print("unchecked/wrong rows:", len(bad))
mid=os.environ.get("MID","D")
labs=["cub","base",mid,"C"]
print("| op | type | layout | "+" | ".join(labs)+" | base/cub | %s/cub | C/cub | %s/base |"%(mid,mid))
print("|"+" --- |"*(3+len(labs)+4))
m=lambda v:statistics.median(v) if v else float("nan")
for k in sorted({k[:3] for k in d}):
    v=[d.get(k+(l,),[]) for l in labs]
    cells=[" ".join("%.0f"%x for x in x_) or "-" for x_ in v]
    c,b,a,cc=[m(x) for x in v]
    print("| %s | %s | %s | %s | %.3f | %.3f | %.3f | %.3f |"%(k[0],k[1],k[2]," | ".join(cells),b/c,a/c,cc/c,a/b))
PY
