# mk_src.py DEFINITIONS CLDIR OUT: the program librdx builds from segmented.cl (seg_cl_run's
# input): DEFINITIONS (librdx's generated definitions for an f32 sum, definitions_f32_sum.h, as
# PoCL's compiler dump of the program showed them), then CLDIR's common.h and segmented.cl with
# view.h inlined, as librdx puts them together (runtime/src/core/programs.cpp). src_cur.cl:
# CLDIR = `cl/` of bcd1384; src_A.cl: that folder with s34_A.patch applied, and so on.
import sys

defs, d, out = sys.argv[1:4]
seg = open(d + "/segmented.cl").read().replace('#include "view.h"', open(d + "/view.h").read())
common = open(d + "/common.h").read()
open(out, "w").write(open(defs).read() + '#line 1 "common.h"\n' + common + '\n#line 1 "segmented.cl"\n' + seg)
