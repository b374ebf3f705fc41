/* seg_result.h: a composite's results from a segment's final state, the statements RDX_RESULT
 * (ops/stats.cpp's stat_result_cl, the host's stat_result's twin) run by seg_result below, for
 * cl/seg_results.cl (a launch over stored states) and cl/segmented.cl's SEG_RESULTS (the
 * reducing kernels' own last step: no states stored and read again). Not from a seed.
 *
 * Needs the composite's definitions (USER_STATE, cl/common.h), RDX_RESULT and R0_T, the first
 * output's type; R1_T .. R3_T (uchar, never written, where unused). The statements read `s` (the
 * state), `k` (the segment), `count` (its elements) and SEG_POS(k, at) (a flat index as a
 * position in segment k), and store out0[k] .. out3[k]. VIEW: cl/segmented.cl's view form. */
#ifndef RDX_SEG_RESULT_H
#define RDX_SEG_RESULT_H

#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable /* var's and mean's last steps in double */
#endif

#ifndef RDX_RESULT
#error "RDX_RESULT (the results' statements) is defined by the launcher"
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

#define SEG_RESULT_PARAMS \
  global R0_T *out0, global R1_T *out1, global R2_T *out2, global R3_T *out3

/* Segment k's results from its final state s over `count` elements; length and inner: the axis
 * form's (the view form's: its reduced length, inner unused). */
inline void seg_result(state_t s, ulong k, ulong count, ulong length, ulong inner,
                       SEG_RESULT_PARAMS) {
  (void)length;
  (void)inner;
  (void)out1;
  (void)out2;
  (void)out3;
  RDX_RESULT
}

#endif
