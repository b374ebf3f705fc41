/* view.h: where the view form's elements are (rdx::reduce_axes over reduced axes apart, strides
 * of any sign, an offset: rdx::ViewForm), for cl/segmented.cl and cl/exact_segments.cl.
 *
 * VIEW_KEPT and VIEW_REDUCED (build constants, each 0 to 64) count the kept and the reduced axes;
 * the buffer `view` (longs) holds, in order, the kept axes' extents, their strides, the reduced
 * axes' extents, their strides, and the first element's offset. Segment r's element k is at
 * offset + (r's digits over the kept extents, C order) . kept strides + (k's digits over the
 * reduced extents) . reduced strides. Strides may be negative: the sums are taken modulo 2^64,
 * which the host has checked lands on an element of the data. The outermost axis of a group
 * needs no remainder (r < segments, k < the segment's length). */
#ifndef RDX_VIEW_H
#define RDX_VIEW_H

#if !defined(VIEW_KEPT) || !defined(VIEW_REDUCED)
#error "VIEW_KEPT and VIEW_REDUCED (the view form's axes) are defined by the launcher"
#endif
#define VIEW_AT_OFFSET (2 * VIEW_KEPT + 2 * VIEW_REDUCED)

/* The digits of `i` over `dims` extents at v[0..dims), times the strides at v[dims..2 dims). */
inline ulong view_walk(global const long* v, uint dims, ulong i) {
  ulong at = 0;
  for (uint d = dims; d-- > 1;) {
    const ulong e = (ulong)v[d];
    at += (i % e) * (ulong)v[dims + d];
    i /= e;
  }
  return dims ? at + i * (ulong)v[dims] : 0;
}

/* The offset of segment r's first element. */
inline ulong view_first(global const long* v, ulong r) {
  return (ulong)v[VIEW_AT_OFFSET] + view_walk(v, VIEW_KEPT, r);
}

/* Elements per segment. */
inline ulong view_length(global const long* v) {
  ulong n = 1;
  for (uint d = 0; d < VIEW_REDUCED; ++d)
    n *= (ulong)v[2 * VIEW_KEPT + d];
  return n;
}

/* How far a segment's element k is from its first. */
inline ulong view_step(global const long* v, ulong k) {
  return view_walk(v + 2 * VIEW_KEPT, VIEW_REDUCED, k);
}

#endif
