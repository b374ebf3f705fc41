#!/bin/bash
# Session 26, fourth call: seg_reduce's last warp levels by shuffles (cl_shfl/segmented.cl)
# against the embedded cl/ (base), H200, 2^28 elements by offsets, 2 alternating rounds; the
# segmented device tests with cl_shfl; whether the PTX holds shfl.sync.
set -u
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib RDX_CACHE_DIR=off
start=$(date +%s)
RDX_KERNEL_DIR=$PWD/cl_shfl RDX_DEVICE=gpu timeout 200 ./rdx_device_tests_s26 --test-case='segmented*' > /tmp/t.txt 2>&1
echo "exit $?" >> /tmp/t.txt; tail -4 /tmp/t.txt > $OUT/tests_gpu_shfl.txt
echo "tests at $(( $(date +%s) - start )) s" >> $OUT/log.txt
RDX_CACHE_DIR=/tmp/cache RDX_KERNEL_DIR=$PWD/cl_shfl ./clrdx_s26b bench --device gpu --type f32 --op sum --layouts uniform:4096,uniform:16 --sizes 1Mi --repeat 2 > /dev/null 2>&1
echo "ptx with shfl.sync: $(grep -l -r shfl.sync /tmp/cache | wc -l) of $(ls /tmp/cache | wc -l) cache entries" >> $OUT/log.txt
lay=uniform:16,uniform:256,uniform:1024,uniform:4096,uniform:16384,uniform:65536,uniform:262144,uniform:1048576,powerlaw
for r in 1 2; do
  for v in base shfl; do
    for to in f32:sum i32:sum f32:max; do
      if [ $v = shfl ]; then export RDX_KERNEL_DIR=$PWD/cl_shfl; else unset RDX_KERNEL_DIR; fi
      ./clrdx_s26b bench --device gpu --type ${to%%:*} --op ${to##*:} --layouts $lay --sizes 256Mi \
        --repeat 10 --peak 4800 --json /tmp/p.jsonl > /dev/null 2>> /tmp/err.txt
      sed "s/^{/{\"variant\":\"$v\",\"ab_round\":$r,/" /tmp/p.jsonl >> $OUT/seg_ab.jsonl
    done
    echo "round $r $v at $(( $(date +%s) - start )) s" >> $OUT/log.txt
  done
done
grep -v "^bench:" /tmp/err.txt | head -20 > $OUT/err.txt
