#!/usr/bin/env python3
# CuPy's sum over axes (0, 2) of a W x n/W^2 x W f32 array (element i = i % 7), and over axis 1
# of an n/256 x 256 one: the median of 20 calls timed by CUDA events, after 3 warm-up calls.
import cupy as cp
n = 1 << 26
cases = [("rows:256", (n // 256, 256), (1,))] + [
    (f"apart:{w}", (w, n // w // w, w), (0, 2)) for w in (16, 64, 256)]
for name, shape, axes in cases:
    a = (cp.arange(n, dtype=cp.int64) % 7).astype(cp.float32).reshape(shape)
    for _ in range(3):
        cp.sum(a, axis=axes)
    cp.cuda.Device().synchronize()
    ts = []
    for _ in range(20):
        s, e = cp.cuda.Event(), cp.cuda.Event()
        s.record()
        cp.sum(a, axis=axes)
        e.record()
        e.synchronize()
        ts.append(cp.cuda.get_elapsed_time(s, e))
    ts.sort()
    med = ts[10]
    print(f"cupy {name:10} {med * 1e3:9.1f} us {n * 4 / med / 1e6:8.1f} GB/s")
