"""rdx.f(a, device=SEL) against numpy.f(a) on host float32 arrays, in alternating rounds in one
process (rdx, the extension's own call, numpy, rdx, ...): per case the median over rounds of
each one's time (itself the median of the round's calls), the layer (rdx's time less the
extension's call, rdx._rdx.reduce_op / reduce_stat with the arguments the layer passes: what
the Python side adds) and numpy / rdx (above 1 rdx is faster), the median of the rounds' ratios.

    python python/benchmarks/vs_numpy.py [--device cpu] [--rounds 5] [--only SUBSTRING ...]

Cases: flat sum, max, argmax, mean, var of 2^10 and 2^22 elements (element values 0..6), and
sum, mean, argmax along axis 0 and 1 of 1024 x 4096, 262144 x 16 and 64 x 65536."""
import argparse
import statistics
import time

import numpy as np

import rdx
from rdx import _rdx

_RUN = "run_to_run"


def cases(ctx, device):
    """(label, rdx's call, the extension's call, numpy's call)."""
    rng = np.random.default_rng(0)
    out = []
    for k in (10, 22):
        a = (rng.random(1 << k, dtype=np.float32) * 6).astype(np.float32)
        for name in ("sum", "max", "argmax"):
            out.append((f"{name} 2^{k}", lambda a=a, f=getattr(rdx, name): f(a, device=device),
                        lambda a=a, op=name: _rdx.reduce_op(ctx, a, op, None, "", _RUN),
                        lambda a=a, f=getattr(np, name): f(a)))
        for name in ("mean", "var"):
            out.append((f"{name} 2^{k}", lambda a=a, f=getattr(rdx, name): f(a, device=device),
                        lambda a=a, s=name: _rdx.reduce_stat(ctx, [a], s, None, "", _RUN),
                        lambda a=a, f=getattr(np, name): f(a)))
    for shape in ((1024, 4096), (262144, 16), (64, 65536)):
        m = (rng.random(shape, dtype=np.float32) * 6).astype(np.float32)
        for ax in (0, 1):
            where = f"{shape[0]}x{shape[1]} axis {ax}"
            for name in ("sum", "argmax"):
                out.append((f"{name} {where}",
                            lambda f=getattr(rdx, name), ax=ax: f(m, axis=ax, device=device),
                            lambda op=name, ax=ax: _rdx.reduce_op(ctx, m, op, (ax,), "", _RUN),
                            lambda f=getattr(np, name), ax=ax: f(m, axis=ax)))
            out.append((f"mean {where}", lambda ax=ax: rdx.mean(m, axis=ax, device=device),
                        lambda ax=ax: _rdx.reduce_stat(ctx, [m], "mean", (ax,), "", _RUN),
                        lambda ax=ax: np.mean(m, axis=ax)))
    return out


def round_us(f, budget_s):
    """The median of calls of f for about budget_s seconds (at least 3), in microseconds."""
    times = []
    end = time.perf_counter() + budget_s
    while len(times) < 3 or (time.perf_counter() < end and len(times) < 2000):
        t = time.perf_counter_ns()
        f()
        times.append(time.perf_counter_ns() - t)
    return statistics.median(times) / 1e3


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--device", default="cpu")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--budget", type=float, default=0.05, help="seconds per call per round")
    p.add_argument("--only", nargs="*", default=[], help="cases whose label has one of these")
    args = p.parse_args()
    ctx = rdx.context(args.device)
    print(f"device: {ctx.device.name} ({ctx.device.platform}); NumPy {np.__version__}; "
          f"{args.rounds} rounds")
    print(f"{'case':>26} {'rdx us':>10} {'ext us':>10} {'layer us':>9} {'numpy us':>10} "
          f"{'numpy/rdx':>9}")
    for label, f, ext, ref in cases(ctx, args.device):
        if args.only and not any(s in label for s in args.only):
            continue
        for g in (f, ext, ref):
            g()  # kernels built, caches warm
        r, e, n = [], [], []
        for _ in range(args.rounds):
            r.append(round_us(f, args.budget))
            e.append(round_us(ext, args.budget))
            n.append(round_us(ref, args.budget))
        med = statistics.median
        ratio = med(x / y for x, y in zip(n, r))
        layer = med(x - y for x, y in zip(r, e))
        print(f"{label:>26} {med(r):10.1f} {med(e):10.1f} {layer:9.1f} {med(n):10.1f} "
              f"{ratio:9.2f}", flush=True)


if __name__ == "__main__":
    main()
