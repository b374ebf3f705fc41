#!/bin/bash
# CPU short segments: HEAD's clrdx (clrdx) against the new plan (clrdx_new), alternating rounds,
# and the native loop where the machine has a compiler. Usage: shortab.sh ROUNDS LOG2N OUTDIR
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib RDX_CACHE_DIR=off
R=${1:-6}; LG=${2:-26}; O=${3:-$OUT}
L=uniform:16,uniform:64,uniform:128,uniform:256,uniform:512,rows:64,rows:256
for r in $(seq $R); do
  for b in clrdx clrdx_new; do
    for to in f32:sum f32:max f32:min i32:sum i32:max f64:sum f64:max f32:nanmax i32:xor; do
      ./$b bench --device cpu --type ${to%%:*} --op ${to##*:} --layouts $L --sizes $((1 << LG)) --repeat 10 --json $O/p.jsonl >/dev/null 2>$O/err.txt || cat $O/err.txt
      sed "s/^{/{\"round\":$r,\"label\":\"$b\",/" $O/p.jsonl >> $O/all.jsonl
    done
  done
  echo "round $r at $SECONDS s"
done
rm -f $O/p.jsonl
grep -c '"checked":false' $O/all.jsonl
python3 tab.py $O/all.jsonl clrdx,clrdx_new | tee $O/table.md
