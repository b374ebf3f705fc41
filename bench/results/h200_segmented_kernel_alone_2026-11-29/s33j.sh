#!/bin/bash
# Session 33, thirteenth call: the SASS of seg_reduce (s33i's PTX: HEAD's kernel, cur; positions in
# 32 bits, p32; HEAD's with `.maxnreg 32` after its .reqntid, m32), for the loads' order.
cd "$(dirname "$0")"
export PATH=$PATH:/usr/local/cuda/bin
o=/tmp/o33j; rm -rf $o; mkdir -p $o
for v in cur p32 m32; do
  ptxas -arch=sm_90 ptx/seg_$v.ptx -o /tmp/$v.cubin 2>> $o/err.txt
  cuobjdump -sass -fun seg_reduce /tmp/$v.cubin > $o/seg_$v.sass 2>> $o/err.txt
done
tar czf $OUT/out.tgz -C /tmp o33j
