"""What the Python layer adds to a reduction of a PyOpenCL array: rdx.sum of a float32
pyopencl.array.Array against the extension's own call on the same context and buffer
(rdx._rdx.reduce_op), and the parts of the layer that cost the most, on the first GPU (or with
--cpu the first CPU device) PyOpenCL sees. Medians of 400 calls, in microseconds.

    python python/benchmarks/pyopencl_layer.py [--cpu] [LOG2_SIZE ...]"""
import statistics
import sys
import time

import numpy as np
import pyopencl as cl
import pyopencl.array as cla

import rdx
from rdx import _rdx
from rdx._device import DeviceArray
from rdx._devices import queue_context


def median_us(f, n=400):
    for _ in range(20):
        f()
    times = []
    for _ in range(n):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1e6


def main():
    args = sys.argv[1:]
    kind = cl.device_type.GPU
    if "--cpu" in args:
        args.remove("--cpu")
        kind = cl.device_type.CPU
    dev = [d for p in cl.get_platforms() for d in p.get_devices() if d.type & kind][0]
    queue = cl.CommandQueue(cl.Context([dev]))
    print(f"device: {dev.name}")
    for k in [int(s) for s in args] or [10, 20]:
        x = cla.to_device(queue, np.ones(1 << k, np.float32))
        ctx = queue_context(queue)
        handle = _rdx.DeviceArray(x.base_data.int_ptr, "f32", 0, [1 << k], [1])
        whole = median_us(lambda: rdx.sum(x))
        call = median_us(lambda: _rdx.reduce_op(ctx, handle, "sum", None, "", "run_to_run"))
        describe = median_us(lambda: DeviceArray(x).handle("f32"))
        print(f"2^{k}: rdx.sum {whole:.1f} us, the extension's call {call:.1f} us, layer "
              f"{whole - call:.1f} us (of which the array's description {describe:.1f} us)")


if __name__ == "__main__":
    main()
