#!/bin/bash
# Session 26, sixth call: (1) where "1 error generated." came from in s26e (stderr of each clrdx
# command, all layouts at 1Mi); (2) lanes a segment (32..256) with the shuffles, f32 sum of 2^28 by
# offsets, 2 rounds.
set -u
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib RDX_CACHE_DIR=off
start=$(date +%s)
lay=uniform:4,uniform:16,uniform:64,uniform:256,uniform:1024,uniform:4096,uniform:16384,uniform:65536,uniform:262144,uniform:1048576,powerlaw
for v in s26b s26e; do
  for to in f32:sum i32:sum f32:max; do
    echo "== $v $to" >> $OUT/stderr.txt
    ./clrdx_$v bench --device gpu --type ${to%%:*} --op ${to##*:} --layouts $lay --sizes 1Mi \
      --repeat 2 --peak 4800 > /dev/null 2>> $OUT/stderr.txt
    echo "exit $?" >> $OUT/stderr.txt
  done
done
echo "errors at $(( $(date +%s) - start )) s" >> $OUT/log.txt
for r in 1 2; do
  for l in 32 64 128 256; do
    ./clrdx_s26e bench --device gpu --type f32 --op sum --layouts uniform:4096,uniform:16384,uniform:65536,powerlaw \
      --lanes $l --sizes 256Mi --repeat 10 --peak 4800 --json /tmp/p.jsonl > /dev/null 2>> /tmp/err.txt
    sed "s/^{/{\"lanes_set\":$l,\"ab_round\":$r,/" /tmp/p.jsonl >> $OUT/lanes.jsonl
  done
  echo "round $r at $(( $(date +%s) - start )) s" >> $OUT/log.txt
done
