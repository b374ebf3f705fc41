#!/bin/bash
# CPU short segments, sums: the default form against 16-element loads in groups of 64 (4 and 2 in
# flight), through the tunables of one clrdx, alternating. Usage: sumab.sh ROUNDS LOG2N OUTDIR,
# beside clrdx (B=path to use another) and tab.py; L=layouts and FORMS=labels (def, v16u4, v16u2)
# narrow the run.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib RDX_CACHE_DIR=off
R=${1:-8}; LG=${2:-24}; O=${3:-$OUT}; B=${B:-./clrdx}
L=${L:-uniform:64,uniform:128,uniform:256,uniform:384,rows:64,rows:256}
FORMS=${FORMS:-def,v16u4,v16u2}
declare -A args=([def]="" [v16u4]="--seg-vector 16 --seg-unroll 4" [v16u2]="--seg-vector 16 --seg-unroll 2")
for r in $(seq $R); do
  for v in ${FORMS//,/ }; do
    for to in f32:sum i32:sum f64:sum; do
      $B bench --device cpu --type ${to%%:*} --op ${to##*:} --layouts $L --sizes $((1 << LG)) --repeat 10 ${args[$v]} --json $O/p.jsonl >/dev/null 2>$O/err.txt || cat $O/err.txt
      sed "s/^{/{\"round\":$r,\"label\":\"$v\",/" $O/p.jsonl >> $O/all.jsonl
    done
  done
  echo "round $r at $SECONDS s"
done
rm -f $O/p.jsonl
grep -c '"checked":false' $O/all.jsonl
python3 tab.py $O/all.jsonl $FORMS | tee $O/table.md
