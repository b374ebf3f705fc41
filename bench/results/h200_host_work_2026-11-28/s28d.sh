#!/bin/bash
# Session 28, fourth call: H200, ways to bring one result back after a kernel of a given length
# (probe_group_cost spin, with the blocking read, clWaitForEvents, a second queue, and a mapped
# ALLOC_HOST_PTR buffer), 3 runs; then the group mode once.
set -u
cd "$(dirname "$0")"
for r in 1 2 3; do
  ./probe_group_cost_s28 spin 0,300,1000,3000,10000 | sed "s/^{\"iters/{\"run\":$r,\"iters/" >> $OUT/spin.txt 2>> $OUT/log.txt
done
./probe_group_cost_s28 >> $OUT/groups.txt 2>> $OUT/log.txt
