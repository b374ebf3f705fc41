/* seg_results.cl: a composite's last step on the device, so that a call along axes reads back
 * results, not states, and runs no loop over its segments on the host. Segment k's final state
 * states[k] (the composite's state_t, as seg_reduce or seg_finish stored it) becomes the values
 * users see through RDX_RESULT, the statements of ops/stats.cpp's stat_result_cl (the twin of
 * the host's stat_result): var's scaled variance back in range, std's root, mean's quotient,
 * any's and all's truth, minmax's extremes and their positions in the segment (SEG_POS).
 * Not from a seed.
 *
 * Built with the composite's definitions (USER_STATE, cl/common.h) followed by RDX_RESULT, and
 * R0_T .. R3_T, the outputs' types (cl/seg_result.h); VIEW as segmented.cl's view form. Launch:
 * one work-item per segment, global size >= segments, any local size. */
#ifndef RDX_COMMON_H
#include "common.h"
#endif

#include "seg_result.h"

kernel void seg_results(global const ACC* states, ulong segments, ulong length, ulong inner,
                        SEG_RESULT_PARAMS) {
  const ulong k = get_global_id(0);
  if (k >= segments) return;
  seg_result(states[k], k, length, length, inner, out0, out1, out2, out3);
}
