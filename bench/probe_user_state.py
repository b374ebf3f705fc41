"""Where rdx's composite reductions spend their time on a GPU: 2^28 float32 elements in a
pyopencl array, each function called 10 times per round (2 rounds), the minimum and median of a
call (queue finished before and after), beside torch's equivalents where torch has CUDA.

    python3 bench/probe_user_state.py [--log2n 28]

docs/performance.md ("The matrix") cites its output. var and minmax run librdx's user-state kernel
(a multi-field state merged per element); sum, max and a mapped sum run the built-in operators.
"""
import argparse
import time

import numpy as np
import pyopencl as cl
import pyopencl.array as cla

import rdx


def timed(name, call, sync, reps=10):
    call()
    sync()
    times = []
    for _ in range(reps):
        sync()
        t0 = time.perf_counter()
        call()
        sync()
        times.append(time.perf_counter() - t0)
    times.sort()
    print(f"{name:28s} min {times[0] * 1e6:9.1f} med {times[len(times) // 2] * 1e6:9.1f} us",
          flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--log2n", type=int, default=28)
    n = 1 << ap.parse_args().log2n
    queue = cl.CommandQueue(cl.create_some_context(interactive=False))
    host = (np.random.default_rng(1).random(n, dtype=np.float32) * 2 - 1 + 3).astype(np.float32)
    a = cla.to_device(queue, host)
    calls = {
        "sum": lambda: rdx.sum(a),
        "max": lambda: rdx.max(a),
        "reduce sum map=x*x": lambda: rdx.reduce(a, "sum", map="x*x"),
        "mean": lambda: rdx.mean(a),
        "var": lambda: rdx.var(a),
        "var dtype=float32": lambda: rdx.var(a, dtype=np.float32),
        "minmax": lambda: rdx.minmax(a),
        "prod": lambda: rdx.prod(a),
        "norm": lambda: rdx.norm(a),
    }
    for _ in range(2):
        for name, call in calls.items():
            timed(name, call, queue.finish)
    try:
        import torch
        if not torch.cuda.is_available():
            return
    except ImportError:
        return
    t = torch.from_numpy(host).cuda()
    for name, call in {"torch sum": t.sum, "torch var": t.var,
                       "torch aminmax": lambda: torch.aminmax(t), "torch prod": t.prod,
                       "torch norm": lambda: torch.linalg.vector_norm(t)}.items():
        timed(name, call, torch.cuda.synchronize)


if __name__ == "__main__":
    main()
