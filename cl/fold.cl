/* fold.cl: states [first, first + count) of v, then the tail_count states of `tail` (a second
 * buffer: amp_simple's tail state), combined in order into one, by one work-item. For a
 * user's reduction (USER_STATE), whose combine only the device runs: where a strategy finishes on
 * the host (its partials, or the states of an input's chunks), the host has the device fold them.
 * count 0 gives the identity (an empty input).
 * Not from a seed. Launch rules: one work-item (global = local = 1), any WG. */
#ifndef RDX_COMMON_H
#include "common.h"
#endif

#ifndef USER_STATE
#error "fold.cl is for a user's reduction: the host combines a built-in operator's states itself"
#endif

kernel void fold_states(global const ACC* v, ulong first, ulong count, global const ACC* tail,
                        ulong tail_count, global ACC* out) {
  state_t s = st_identity();
  for (ulong k = 0; k < count; ++k)
    s = st_combine(s, v[first + k]);
  for (ulong k = 0; k < tail_count; ++k)
    s = st_combine(s, tail[k]);
  out[0] = s;
}
