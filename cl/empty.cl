/* empty.cl: no reduction. The baseline of `clrdx bench`: the device's round trip of one empty
 * kernel (one work-item) plus a blocking read of one scalar, the floor of any one-launch call.
 * Launch rules: global size 1. */
kernel void rdx_empty(global uint* x) {
  (void)x;
}
