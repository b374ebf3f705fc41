#!/bin/bash
# CPU short segments on PoCL (the device machine's Xeon): the default form against 16-element loads
# in groups of 64 (unroll 2 and 4), and the native loop, alternating rounds.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib RDX_CACHE_DIR=off
lscpu | grep -E "Model name|^CPU\(s\)|L3"; ./clrdx devices 2>&1 | grep -i cpu | head -2
g++ -O3 -march=native -fopenmp -std=c++17 native_cpu_segmented.cpp -o native_seg
L=uniform:16,uniform:64,uniform:128,uniform:256,uniform:512,rows:64,rows:256
for r in 1 2 3; do
  ./native_seg 26 | grep -v columns | sed "s/^{/{\"round\":$r,\"label\":\"native\",/" >> $OUT/native.jsonl
  for v in "def:" "v16u2:--seg-vector 16 --seg-unroll 2" "v16u4:--seg-vector 16 --seg-unroll 4"; do
    for to in f32:sum i32:sum f32:max; do
      ./clrdx bench --device cpu --type ${to%%:*} --op ${to##*:} --layouts $L --sizes 64Mi --repeat 10 ${v#*:} --json $OUT/p.jsonl >/dev/null 2>$OUT/err.txt || cat $OUT/err.txt
      sed "s/^{/{\"round\":$r,\"label\":\"${v%%:*}\",/" $OUT/p.jsonl >> $OUT/clrdx.jsonl
    done
  done
  echo "round $r at $SECONDS s"
done
cat $OUT/native.jsonl $OUT/clrdx.jsonl | grep layout > $OUT/all.jsonl
python3 tab.py $OUT/all.jsonl native,def,v16u2,v16u4 | tee $OUT/table.md
