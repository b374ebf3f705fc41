/* view.h: where the view form's elements are (rdx::reduce_axes over reduced axes apart, strides
 * of any sign, an offset: rdx::ViewForm), for cl/segmented.cl and cl/exact_segments.cl.
 *
 * VIEW_KEPT and VIEW_REDUCED (build constants, each 0 to 64) count the kept and the reduced axes;
 * the buffer `view` (longs) holds, in order, the kept axes' extents, their strides, the reduced
 * axes' extents, their strides, and the first element's offset. Segment r's element k is at
 * offset + (r's digits over the kept extents, C order) . kept strides + (k's digits over the
 * reduced extents) . reduced strides. Strides may be negative: the sums are taken modulo 2^64,
 * which the host has checked lands on an element of the data. The outermost axis of a group
 * needs no remainder (r < segments, k < the segment's length). A lane walking a segment steps
 * along the innermost reduced axis (view_cursor) and works the digits out again only where it
 * leaves a run of it. */
#ifndef RDX_VIEW_H
#define RDX_VIEW_H

#if !defined(VIEW_KEPT) || !defined(VIEW_REDUCED)
#error "VIEW_KEPT and VIEW_REDUCED (the view form's axes) are defined by the launcher"
#endif
#define VIEW_AT_OFFSET (2 * VIEW_KEPT + 2 * VIEW_REDUCED)

/* The digits of `i` over `dims` extents at ext[0..dims), times the strides at str[0..dims). */
inline ulong view_walk(global const long* ext, global const long* str, uint dims, ulong i) {
  ulong at = 0;
  for (uint d = dims; d-- > 1;) {
    const ulong e = (ulong)ext[d];
    at += (i % e) * (ulong)str[d];
    i /= e;
  }
  return dims ? at + i * (ulong)str[0] : 0;
}

/* The offset of segment r's first element. */
inline ulong view_first(global const long* v, ulong r) {
  return (ulong)v[VIEW_AT_OFFSET] + view_walk(v, v + VIEW_KEPT, VIEW_KEPT, r);
}

/* The innermost reduced axis: its extent and stride (none: 1 and 0), and how far row `row` of
 * it (the digits of the outer reduced axes) is from a segment's first element. A segment's
 * element k is element k % extent of row k / extent. */
#if VIEW_REDUCED > 0
#define VIEW_RUN_EXTENT(v) ((ulong)(v)[2 * VIEW_KEPT + VIEW_REDUCED - 1])
#define VIEW_RUN_STRIDE(v) ((ulong)(v)[2 * VIEW_KEPT + 2 * VIEW_REDUCED - 1])
inline ulong view_row(global const long* v, ulong row) {
  return view_walk(v + 2 * VIEW_KEPT, v + 2 * VIEW_KEPT + VIEW_REDUCED, VIEW_REDUCED - 1, row);
}
#else
#define VIEW_RUN_EXTENT(v) 1ul
#define VIEW_RUN_STRIDE(v) 0ul
inline ulong view_row(global const long* v, ulong row) {
  (void)v;
  (void)row;
  return 0;
}
#endif

/* Elements per segment. */
inline ulong view_length(global const long* v) {
  ulong n = 1;
  for (uint d = 0; d < VIEW_REDUCED; ++d)
    n *= (ulong)v[2 * VIEW_KEPT + d];
  return n;
}

/* How far a segment's element k is from its first. */
inline ulong view_step(global const long* v, ulong k) {
  return view_walk(v + 2 * VIEW_KEPT, v + 2 * VIEW_KEPT + VIEW_REDUCED, VIEW_REDUCED, k);
}

/* A walk over a segment's elements k, k + step, k + 2 step, ... that divides only where it
 * leaves a run of the innermost reduced axis: `at` is element k's index in the input. */
typedef struct {
  ulong at, j, row, first, extent, stride;
} view_cursor;

inline view_cursor view_start(global const long* v, ulong first, ulong k) {
  view_cursor c;
  c.first = first;
  c.extent = VIEW_RUN_EXTENT(v);
  c.stride = VIEW_RUN_STRIDE(v);
  c.row = k / c.extent;
  c.j = k % c.extent;
  c.at = first + view_row(v, c.row) + c.j * c.stride;
  return c;
}

inline void view_advance(global const long* v, view_cursor* c, ulong step) {
  c->j += step;
  if (c->j < c->extent) {
    c->at += step * c->stride;
    return;
  }
  c->row += c->j / c->extent;
  c->j %= c->extent;
  c->at = c->first + view_row(v, c->row) + c->j * c->stride;
}

#endif
