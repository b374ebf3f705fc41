"""rdx.sum of a PyOpenCL array reduced in place against cupy.sum, torch.sum and
pyopencl.array.sum on the same GPU, float32, per call with the scalar on the host (each call ends
with the result read back: .item(), .get()), in alternating rounds: each round times every library
once (the median of repeated calls), and the table gives the median over the rounds and the ratio
of the others' time to rdx's (above 1: rdx is faster).

    python python/benchmarks/vs_gpu.py [--rounds R] [LOG2_SIZE ...]

Libraries that are not installed are left out. Every result is checked against the first."""
import statistics
import sys
import time

import numpy as np


def median_us(f, seconds=0.2, least=5):
    f()
    times = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end or len(times) < least:
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1e6


def main():
    args = sys.argv[1:]
    rounds = 3
    if "--rounds" in args:
        k = args.index("--rounds")
        rounds = int(args[k + 1])
        del args[k:k + 2]
    sizes = [int(s) for s in args] or [10, 20, 24, 28, 30]
    import pyopencl as cl
    import pyopencl.array as cla
    import rdx

    platforms = [p for p in cl.get_platforms() if p.get_devices(cl.device_type.GPU)]
    if not platforms:
        sys.exit("vs_gpu: no OpenCL GPU")
    dev = platforms[0].get_devices(cl.device_type.GPU)[0]
    cl_ctx = cl.Context([dev])
    queue = cl.CommandQueue(cl_ctx)
    print(f"device: {dev.name} ({platforms[0].name}, driver {dev.driver_version})")
    others = {}
    try:
        import cupy
        others["cupy.sum"] = lambda x: cupy.sum(x).item()
    except ImportError:
        cupy = None
    try:
        import torch
        others["torch.sum"] = lambda x: torch.sum(x).item()
    except ImportError:
        torch = None
    others["pyopencl.array.sum"] = lambda x: cla.sum(x, queue=queue).get()
    names = ["rdx.sum"] + list(others)
    print("| n | " + " | ".join(f"{n} (us)" for n in names) + " | " +
          " | ".join(f"{n} / rdx" for n in names[1:]) + " |")
    print("| --- " * (2 * len(names)) + "|")
    for k in sizes:
        n = 1 << k
        host = (np.arange(n, dtype=np.int64) % 7).astype(np.float32)  # sums exact in float32 up to 2^24
        x_cl = cla.to_device(queue, host)
        inputs = {"rdx.sum": x_cl, "pyopencl.array.sum": x_cl}
        if cupy is not None:
            inputs["cupy.sum"] = cupy.asarray(host)
        if torch is not None:
            inputs["torch.sum"] = torch.from_numpy(host).cuda()
        calls = {"rdx.sum": lambda x: float(rdx.sum(x)), **others}
        want = float(calls["rdx.sum"](x_cl))
        for name in names[1:]:
            got = float(calls[name](inputs[name]))
            if abs(got - want) > 1e-5 * abs(want):
                sys.exit(f"vs_gpu: {name} gave {got}, rdx.sum {want} at 2^{k}")
        per = {name: [] for name in names}
        for _ in range(rounds):
            for name in names:
                per[name].append(median_us(lambda: calls[name](inputs[name])))
        med = {name: statistics.median(v) for name, v in per.items()}
        print(f"| 2^{k} | " + " | ".join(f"{med[nm]:.1f}" for nm in names) + " | " +
              " | ".join(f"{med[nm] / med['rdx.sum']:.2f}x" for nm in names[1:]) + " |",
              flush=True)
        del x_cl, inputs


if __name__ == "__main__":
    main()
