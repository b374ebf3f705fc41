#!/bin/bash
# Session 30, eleventh call: the Xeon's transparent huge pages, and the same size three times in one
# command (f32 run_to_run and any_device at 2^26; f32 sum segments of 1024 at 2^26), 2 rounds.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib RDX_CACHE_DIR=off
{ for f in enabled defrag khugepaged/defrag khugepaged/scan_sleep_millisecs khugepaged/pages_to_scan; do echo "$f: $(cat /sys/kernel/mm/transparent_hugepage/$f 2>&1)"; done; grep -i huge /proc/meminfo; cat /proc/cpuinfo | grep MHz | sort | uniq -c; } > $OUT/thp.txt
for r in 1 2; do
  ./clrdx_cur bench --device cpu --strategy auto --determinism run_to_run,any_device --data random --sizes 64Mi,64Mi,64Mi --repeat 10 --type f32 --json /tmp/p.jsonl >/dev/null 2>>/tmp/err.txt
  sed "s/^{/{\"ab_round\":$r,/" /tmp/p.jsonl >> $OUT/bin.jsonl
  ./clrdx_cur bench --device cpu --type f32 --op sum --layouts uniform:1024,uniform:1024,uniform:1024 --sizes 64Mi --repeat 10 --json /tmp/p.jsonl > /dev/null 2>> /tmp/err.txt
  sed "s/^{/{\"ab_round\":$r,/" /tmp/p.jsonl >> $OUT/seg.jsonl
done
grep -v "^bench:" /tmp/err.txt | head > $OUT/err.txt
