#!/bin/bash
# Session 28, fifth call: H200, probe_call_cost of the plan-memo build with the raw launch's
# arguments set before each launch (raw_args_poll_us) beside raw_launch_poll_us, the call first and last (call_last_us).
set -u
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib RDX_CACHE_DIR=off
for r in 1 2 3; do for n in 1024 16384 262144 1048576; do
  ./probe_s28memo3 $n gpu | sed "s/^{/{\"ab_round\":$r,/" >> $OUT/probe.jsonl 2>> $OUT/log.txt
done; done
