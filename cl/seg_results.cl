/* seg_results.cl: a composite's last step on the device, so that a call along axes reads back
 * results, not states, and runs no loop over its segments on the host. Segment k's final state
 * states[k] (the composite's state_t, as seg_reduce or seg_finish stored it) becomes the values
 * users see through RDX_RESULT, the statements of ops/stats.cpp's stat_result_cl (the twin of
 * the host's stat_result): var's scaled variance back in range, std's root, mean's quotient,
 * any's and all's truth, minmax's extremes and their positions in the segment (SEG_POS).
 * Not from a seed.
 *
 * Built with the composite's definitions (USER_STATE, cl/common.h) followed by RDX_RESULT, and
 * R0_T .. R3_T, the outputs' types (those unused: uchar, never written); VIEW as segmented.cl's
 * view form. Launch: one work-item per segment, global size >= segments, any local size. */
#ifndef RDX_COMMON_H
#include "common.h"
#endif

#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#ifndef R1_T
#define R1_T uchar
#endif
#ifndef R2_T
#define R2_T uchar
#endif
#ifndef R3_T
#define R3_T uchar
#endif

/* Flat index `at` (a user's map's i) as a position in segment k: the view form numbers the
 * elements in segment order (rows of `length`); the axis form's element `at` lies (at / inner)
 * % length along its axis. An empty segment's ULONG_MAX stays. */
#ifdef VIEW
#define SEG_POS(k, at) ((at) == ULONG_MAX ? (at) : (at) - (k) * length)
#else
#define SEG_POS(k, at) ((at) == ULONG_MAX ? (at) : (at) / inner % length)
#endif

kernel void seg_results(global const ACC* states, ulong segments, ulong length, ulong inner,
                        global R0_T* out0, global R1_T* out1, global R2_T* out2,
                        global R3_T* out3) {
  const ulong k = get_global_id(0);
  if (k >= segments) return;
  const state_t s = states[k];
  const ulong count = length;
  (void)inner;
  (void)out1;
  (void)out2;
  (void)out3;
  RDX_RESULT
}
