#!/bin/bash
# Session 29, fifth call: H200, segments by offsets: the offsets checked in seg_reduce itself
# (clrdx_s29k: no seg_check launch; the old results saved for a restore) against af637c1
# (clrdx_s29: seg_check, then seg_reduce), and CUB; 4 rounds, the order reversed every other round.
set -u
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib PATH=$PATH:/usr/local/cuda/bin RDX_CACHE_DIR=off
start=$(date +%s)
[ -x /tmp/cubseg ] || nvcc -O3 -std=c++17 -arch=sm_90 -I/usr/local/cuda/include/cccl ../../bench/yardsticks/cub_segmented_reduce.cu -o /tmp/cubseg 2>> $OUT/log.txt
lay=uniform:256,uniform:1024,uniform:4096,uniform:16384,uniform:65536,uniform:262144,uniform:1048576,powerlaw
for r in 1 2 3 4; do
  /tmp/cubseg 28 | sed "s/^{/{\"ab_round\":$r,/" >> $OUT/cub.jsonl
  order=(s29 s29k); [ $((r % 2)) = 0 ] && order=(s29k s29)
  for v in "${order[@]}"; do
    for to in f32:sum i32:sum f32:max; do
      ./clrdx_$v bench --device gpu --type ${to%%:*} --op ${to##*:} --layouts $lay --sizes 256Mi \
        --repeat 10 --peak 4800 --json /tmp/p.jsonl > /dev/null 2>> /tmp/err.txt
      sed "s/^{/{\"variant\":\"$v\",\"ab_round\":$r,/" /tmp/p.jsonl >> $OUT/clrdx.jsonl
    done
  done
  echo "round $r at $(( $(date +%s) - start )) s" >> $OUT/log.txt
done
grep -v "^bench:" /tmp/err.txt | head -20 > $OUT/err.txt
# The device tests of the offsets' checks and the segmented forms, on the H200.
RDX_DEVICE=gpu timeout 200 ./rdx_device_tests_s29k -tc="segmented: offsets checked*,segmented: bad offsets*,segmented: offsets around*,segmented: typed forms*,*concurren*" > $OUT/tests_gpu.txt 2>&1
echo "tests exit $? at $(( $(date +%s) - start )) s" >> $OUT/log.txt
