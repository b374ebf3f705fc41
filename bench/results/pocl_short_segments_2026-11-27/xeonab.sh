#!/bin/bash
cd "$(dirname "$0")"
lscpu | grep -E "Model name|^CPU\(s\)"
g++ -O3 -march=native -fopenmp -std=c++17 native_cpu_segmented.cpp -o native_seg
for r in 1 2 3; do ./native_seg 26 | grep -v columns | sed "s/^{/{\"round\":$r,\"label\":\"native\",/" >> $OUT/all.jsonl; done
sed -i 's/for to in .*; do/for to in f32:sum f32:max f32:min i32:max f64:max f32:nanmax; do/' shortab.sh
./shortab.sh 3 26 $OUT
python3 tab.py $OUT/all.jsonl native,clrdx,clrdx_new | grep -E "uniform:(16|64|256) " 
