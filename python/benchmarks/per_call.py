"""Per-call times of rdx.sum against the extension's own call (rdx._rdx.reduce_op: what the
Python layer adds) and numpy.sum, for float32 and int32 arrays of 2^10 .. 2^24 elements (or
the sizes given), and of rdx.sum(determinism="exact") against math.fsum on float64:

    python python/benchmarks/per_call.py [--device SEL] [LOG2_SIZE ...]

Each figure is the median of repeated timings, in microseconds."""
import math
import statistics
import sys
import time

import numpy as np

import rdx
from rdx import _rdx


def median_us(f, seconds=0.3):
    f()  # the first call builds kernels
    times = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end or len(times) < 5:
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1e6


def main():
    args = sys.argv[1:]
    device = ""
    if "--device" in args:
        k = args.index("--device")
        device = args[k + 1]
        del args[k:k + 2]
    sizes = [int(s) for s in args] or [10, 16, 20, 24]
    ctx = rdx.context(device)
    print(f"device: {ctx.device.name} ({ctx.device.platform})")
    print(f"{'array':>14} {'rdx.sum':>10} {'_rdx call':>10} {'layer':>8} {'np.sum':>10}")
    rng = np.random.default_rng(0)
    for k in sizes:
        for dt in (np.float32, np.int32):
            a = (rng.standard_normal(1 << k) * 100).astype(dt)
            r = median_us(lambda: rdx.sum(a, device=ctx))
            c = median_us(lambda: _rdx.reduce_op(ctx, a, "sum", None,
                                                 "i64" if dt == np.int32 else "", "run_to_run"))
            n = median_us(lambda: np.sum(a))
            print(f"{np.dtype(dt).name:>7} 2^{k:<4} {r:10.1f} {c:10.1f} {r - c:8.1f} {n:10.1f}")
    for k in sizes:
        a = rng.standard_normal(1 << k)
        e = median_us(lambda: rdx.sum(a, device=ctx, determinism="exact"))
        f = median_us(lambda: math.fsum(a))
        print(f"float64 2^{k:<4} exact {e:10.1f} us, math.fsum {f:10.1f} us: {f / e:6.1f}x")


if __name__ == "__main__":
    main()
