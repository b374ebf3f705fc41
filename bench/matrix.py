#!/usr/bin/env python3
"""The matrix: every reduction of rdx that NumPy has, against the peers on one device.

  build-py/venv/bin/python bench/matrix.py --device cpu              # PoCL: host arrays, NumPy
  python bench/matrix.py --device gpu                                 # + torch, cupy, pyopencl
  python bench/matrix.py --device cpu --check-only                    # CI: results only
  python bench/matrix.py --funcs sum,argmax --layouts flat,columns:16 --sizes 2^20 --json m.json

Each cell is one function of rdx x one layout x one element type x one size. Element i holds
i % 7 (prod and nanprod: -1 where i % 7 == 3, else 1, so that every product is exact; dot's second
array: i % 5). Layouts of n elements: flat; 2-D along each axis (rows:W is an n/W x W array
along axis 1, columns:W the same along axis 0) for W = 16, 4096, n/64 (64 x n/64) and a square;
apart:16 (16 x n/256 x 16 over axes (0, 2)); step:2 (a[::2]), T (the square's transpose, every
axis) and offset:3 (a[3:]). A layout that n does not fill is left out.

rdx runs on host NumPy arrays with device= on a CPU device, and on pyopencl.array.Arrays of the
same data on a GPU (--pyopencl on a CPU device too): brought to the host ("rdx", or "rdx.cl"
beside host arrays), and, where rdx returns a device array, left on the device ("rdx.dev",
waited for). Peers: NumPy on host arrays; on a GPU, torch and cupy when importable (CUDA arrays
of the same data) and pyopencl.array's sum, min, max and dot. Every call ends with its result
on the host. Rounds alternate (rdx, then each peer, then rdx again ...); a measurement is the
median of repeated calls (perf_counter) after a warm-up, the repeat count adapting to
--target-ms within --max-repeat; the table gives the median of the rounds, each peer's time over
rdx's (above 1: rdx is faster) and rdx's GB/s of the bytes the input holds.

Every rdx result is checked against NumPy: NumPy's result dtype and shape; integer and bool
results, extremes and indexes exactly; float sums, products, means, moments, dot and norm
against NumPy's computation in float64, rounded to the result dtype, within a relative
tolerance (float32 1e-5, 1e-4 for mean/var/std; float16 2e-3, 5e-3; float64 1e-7). A mismatch
or an rdx error is reported in the table and on stderr, and the command exits 1; bad arguments
exit 2.
"""
from __future__ import annotations

import argparse
import gc
import json
import math
import os
import statistics
import sys
import tempfile
import time
import warnings

import numpy as np

FUNCS = ["sum", "prod", "min", "max", "argmin", "argmax", "mean", "var", "std", "any", "all",
         "count_nonzero", "nansum", "nanprod", "nanmin", "nanmax", "nanargmin", "nanargmax",
         "nanmean", "nanvar", "nanstd", "minmax", "dot", "norm"]
TYPES = {"f16": np.float16, "f32": np.float32, "f64": np.float64, "i8": np.int8,
         "i16": np.int16, "i32": np.int32, "i64": np.int64, "u8": np.uint8, "u16": np.uint16,
         "u32": np.uint32, "u64": np.uint64}
DEFAULT_TYPES = ["f32", "i32", "f16"]
ONE_AXIS = {"argmin", "argmax", "nanargmin", "nanargmax"}  # an int or None: no tuple
PRODUCTS = {"prod", "nanprod"}  # read the +-1 data
# the reference of each function on data without NaN: nan forms are their plain forms
CANONICAL = {"nansum": "sum", "nanprod": "prod", "nanmin": "min", "nanmax": "max",
             "nanargmin": "argmin", "nanargmax": "argmax", "nanmean": "mean", "nanvar": "var",
             "nanstd": "var", "std": "var"}
MOMENTS = {"mean", "var", "std", "nanmean", "nanvar", "nanstd"}
RTOL = {"f2": (2e-3, 5e-3), "f4": (1e-5, 1e-4), "f8": (1e-7, 1e-7)}  # (others, moments)


# Layouts -----------------------------------------------------------------------------------

def _side(n):
    return math.isqrt(n)


def _square(x, n):
    s = _side(n)
    return (x if s * s == n else x[:s * s]).reshape(s, s)


class Layout:
    """A view of a 1-D array x of n elements, written with reshape, slices and .T only, so that
    it applies to NumPy, PyOpenCL, torch and CuPy arrays alike; axis: what is reduced."""

    def __init__(self, name, axis, fits, view):
        self.name, self.axis, self.fits, self.view = name, axis, fits, view


def _rows(w, axis):
    kind = "rows" if axis == 1 else "columns"
    return Layout(f"{kind}:{w}", axis, lambda n: n % w == 0 and n >= w,
                  lambda x, n: x.reshape(n // w, w))


LAYOUTS = [
    Layout("flat", None, lambda n: n >= 1, lambda x, n: x),
    _rows(16, 1), _rows(16, 0), _rows(4096, 1), _rows(4096, 0),
    Layout("rows:n/64", 1, lambda n: n % 64 == 0 and n >= 64, lambda x, n: x.reshape(64, n // 64)),
    Layout("columns:n/64", 0, lambda n: n % 64 == 0 and n >= 64,
           lambda x, n: x.reshape(64, n // 64)),
    Layout("rows:square", 1, lambda n: n >= 4, _square),
    Layout("columns:square", 0, lambda n: n >= 4, _square),
    Layout("apart:16", (0, 2), lambda n: n % 256 == 0, lambda x, n: x.reshape(16, n // 256, 16)),
    Layout("step:2", None, lambda n: n >= 2, lambda x, n: x[::2]),
    Layout("T", None, lambda n: n >= 4, lambda x, n: _square(x, n).T),
    Layout("offset:3", None, lambda n: n >= 4, lambda x, n: x[3:]),
]
LAYOUT_BY_NAME = {lay.name: lay for lay in LAYOUTS}


def applies(func, layout, ndim):
    """Whether NumPy's function takes this layout: argmin & co. one axis or None, dot 1-D."""
    if func in ONE_AXIS:
        return not isinstance(layout.axis, tuple)
    if func == "dot":
        return ndim == 1
    return True


# Data ---------------------------------------------------------------------------------------

def make_data(kind, dt, n):
    i = np.arange(n, dtype=np.int64)
    if kind == "pm1":
        v = np.where(i % 7 == 3, -1, 1)
    elif kind == "second":
        v = i % 5
    else:
        v = i % 7
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # -1 into an unsigned type wraps, as intended
        return v.astype(dt)


# NumPy: the peer and the reference ---------------------------------------------------------

def numpy_call(func, x, y, axis):
    if func == "minmax":
        return np.min(x, axis=axis), np.max(x, axis=axis)
    if func == "dot":
        return np.dot(x, y)
    if func == "norm":
        return np.linalg.norm(x, axis=axis)
    return getattr(np, func)(x, axis=axis)


_DTYPES = {}


def numpy_dtype(func, dt, ndim, axis):
    """NumPy's result dtype of func for this element type and layout (from a small array)."""
    key = (func, dt, ndim, axis)
    if key not in _DTYPES:
        t = np.ones((3,) * ndim, dt)
        r = numpy_call(func, t, t, axis)
        _DTYPES[key] = np.asarray(r[0] if func == "minmax" else r).dtype
    return _DTYPES[key]


class Reference:
    """What each rdx result must be, for one base array: NumPy's own result where it is exact
    (integer sums and products, extremes, indexes, logical reductions), else NumPy's
    computation in float64 rounded to NumPy's result dtype. Kept per (function, layout): the
    nan forms and std share their plain forms' values."""

    def __init__(self, x, y, n):
        self.x, self.y, self.n = x, y, n
        self.x64 = self.y64 = None
        self.cache = {}

    def _f64(self):
        if self.x64 is None:
            self.x64 = self.x.astype(np.float64)
            self.y64 = None if self.y is None else self.y.astype(np.float64)
        return self.x64, self.y64

    def _raw(self, canon, layout):
        key = (canon, layout.name)
        if key in self.cache:
            return self.cache[key]
        n, ax, lay = self.n, layout.axis, layout.view
        floating = self.x.dtype.kind == "f"
        if canon in ("mean", "var", "norm") or (floating and canon in ("sum", "prod", "dot")):
            x64, y64 = self._f64()
            xv = lay(x64, n)
            if canon == "dot":
                r = np.dot(xv, lay(y64, n))
            elif canon == "norm":
                r = np.linalg.norm(xv, axis=ax)
            else:
                r = getattr(np, canon)(xv, axis=ax)
        else:
            r = numpy_call(canon, lay(self.x, n), None if self.y is None else lay(self.y, n), ax)
        self.cache[key] = r
        return r

    def value(self, func, layout, dtype):
        canon = CANONICAL.get(func, func)
        if func == "minmax":
            return self._raw("min", layout), self._raw("max", layout)
        r = self._raw(canon, layout)
        if func in ("std", "nanstd"):
            r = np.sqrt(r)
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")  # float16 sums past 65504 are inf, as rdx's
            return np.asarray(r).astype(dtype)


def compare(func, got, want, dtype, rtol):
    """None when got is want (shape, dtype, values), else what differs, in one line."""
    if func == "minmax":
        if not (isinstance(got, tuple) and len(got) == 2):
            return f"not a pair: {type(got).__name__}"
        for part, g, w in zip(("min", "max"), got, want):
            msg = compare("", g, w, dtype, rtol)
            if msg:
                return f"{part}: {msg}"
        return None
    g, w = np.asarray(got), np.asarray(want)
    if g.shape != w.shape:
        return f"shape {g.shape}, NumPy's {w.shape}"
    if g.dtype != dtype:
        return f"dtype {g.dtype}, NumPy's {dtype}"
    if dtype.kind in "biu":
        bad = g != w
    else:
        bad = ~np.isclose(g.astype(np.float64), w.astype(np.float64), rtol=rtol, atol=0,
                          equal_nan=True)
    if not np.any(bad):
        return None
    where = tuple(int(k) for k in np.argwhere(bad)[0]) if g.ndim else ()
    got_v, want_v = g[where], w[where]
    exact = "" if dtype.kind in "biu" else f" (rtol {rtol:g})"
    return (f"{int(np.count_nonzero(bad))} of {g.size} differ{exact}; at {list(where)}: "
            f"{got_v!r}, NumPy {want_v!r}")


def tolerance(func, dtype):
    rt = RTOL.get(f"{dtype.kind}{dtype.itemsize}", (0, 0))
    return rt[1] if func in MOMENTS else rt[0]


# rdx and the peers ---------------------------------------------------------------------------

def rdx_call(rdx, func, x, y, axis, **kw):
    if func == "dot":
        return rdx.dot(x, y, **kw)
    return getattr(rdx, func)(x, axis=axis, **kw)


class Peer:
    """A peer library: a copy of the base array on its device, and its call of each function
    (None where it has none), which ends with the result on the host."""
    name = ""

    def to_device(self, a):
        return a

    def release(self):
        pass

    def call(self, func, x, y, axis, dt):
        raise NotImplementedError


class NumpyPeer(Peer):
    name = "numpy"

    def call(self, func, x, y, axis, dt):
        return lambda: numpy_call(func, x, y, axis)


class TorchPeer(Peer):
    name = "torch"

    def __init__(self):
        import torch
        if not torch.cuda.is_available():
            raise ImportError("torch has no CUDA device")
        self.t, self.version = torch, torch.__version__

    def to_device(self, a):
        return self.t.from_numpy(np.ascontiguousarray(a)).to("cuda")

    def release(self):
        self.t.cuda.empty_cache()

    def call(self, func, x, y, axis, dt):
        T = self.t
        kw = {} if axis is None else {"dim": axis}
        ints = dt.kind in "iub"  # torch's var, std and norm take floats: the cast is timed
        if func in ("nanprod", "nanmin", "nanmax", "nanargmin", "nanargmax", "nanvar", "nanstd"):
            return None  # torch has no such function
        if func in ("prod", "minmax") and isinstance(axis, tuple):
            return None  # one dim or all
        if func == "nanmean" and ints:
            return None
        f = {
            "sum": lambda: T.sum(x, **kw), "nansum": lambda: T.nansum(x, **kw),
            "prod": lambda: T.prod(x, **kw),
            "min": lambda: T.amin(x, **kw), "max": lambda: T.amax(x, **kw),
            "argmin": lambda: T.argmin(x, **kw), "argmax": lambda: T.argmax(x, **kw),
            "mean": ((lambda: T.mean(x, dtype=T.float64, **kw)) if ints
                     else (lambda: T.mean(x, **kw))),
            "nanmean": lambda: T.nanmean(x, **kw),
            "var": lambda: T.var(x.double() if ints else x, correction=0, **kw),
            "std": lambda: T.std(x.double() if ints else x, correction=0, **kw),
            "any": lambda: T.any(x, **kw), "all": lambda: T.all(x, **kw),
            "count_nonzero": lambda: T.count_nonzero(x, **kw),
            "minmax": lambda: T.aminmax(x, **kw),
            "dot": lambda: T.dot(x, y),
            "norm": lambda: T.linalg.vector_norm(x.double() if ints else x, **kw),
        }[func]

        def host():
            r = f()
            return tuple(v.cpu() for v in r) if isinstance(r, tuple) else r.cpu()
        return host


class CupyPeer(Peer):
    name = "cupy"

    def __init__(self):
        import cupy
        if cupy.cuda.runtime.getDeviceCount() < 1:
            raise ImportError("cupy has no CUDA device")
        self.cp, self.version = cupy, cupy.__version__

    def to_device(self, a):
        return self.cp.asarray(a)

    def release(self):
        self.cp.get_default_memory_pool().free_all_blocks()

    def call(self, func, x, y, axis, dt):
        cp = self.cp
        if func == "minmax":
            return lambda: (cp.min(x, axis=axis).get(), cp.max(x, axis=axis).get())
        if func == "dot":
            return lambda: cp.dot(x, y).get()
        if func == "norm":
            return lambda: cp.linalg.norm(x, axis=axis).get()
        f = getattr(cp, func, None)
        return None if f is None else (lambda: cp.asarray(f(x, axis=axis)).get())


class ClArrayPeer(Peer):
    """pyopencl.array's own reductions: sum, min, max and dot of whole arrays."""
    name = "cl.array"

    def __init__(self, cla, queue):
        self.cla, self.queue = cla, queue

    def to_device(self, a):
        return self.cla.to_device(self.queue, a)

    def call(self, func, x, y, axis, dt):
        if axis is not None or func not in ("sum", "min", "max", "dot"):
            return None
        cla = self.cla
        if func == "dot":
            return lambda: cla.dot(x, y).get()
        f = getattr(cla, func)
        return lambda: f(x).get()


def on_device(r, cla):
    items = r if isinstance(r, tuple) else (r,)
    return cla is not None and any(isinstance(v, cla.Array) for v in items)


def to_host(r, cla):
    if isinstance(r, tuple):
        return tuple(to_host(v, cla) for v in r)
    return r.get() if cla is not None and isinstance(r, cla.Array) else r


# Timing ---------------------------------------------------------------------------------------

def measure(fn, target_s, max_repeat, min_repeat=3):
    """The median time of one call, in seconds: one call, then as many more as make about
    target_s (at least min_repeat, at most max_repeat)."""
    gc.disable()
    try:
        t = time.perf_counter()
        fn()
        first = time.perf_counter() - t
        repeat = int(min(max_repeat, max(min_repeat, target_s / max(first, 1e-7))))
        times = [first]
        for _ in range(repeat):
            t = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t)
    finally:
        gc.enable()
    return statistics.median(times)


# The matrix --------------------------------------------------------------------------------

def run(args, rdx, cl_setup, peers, out):
    """Every cell, each in its rounds: (the rows, the peers' refusals)."""
    cla, queue = cl_setup if cl_setup else (None, None)
    primary_cl = args.mode == "gpu"  # rdx's own column reads pyopencl arrays
    rows, notes = [], {}
    kinds = {"main": [f for f in args.funcs if f not in PRODUCTS],
             "pm1": [f for f in args.funcs if f in PRODUCTS]}
    for type_name in args.types:
        dt = np.dtype(TYPES[type_name])
        for n in args.sizes:
            for kind, funcs in kinds.items():
                if not funcs:
                    continue
                start = time.perf_counter()
                x = make_data(kind, dt, n)
                y = make_data("second", dt, n) if "dot" in funcs else None
                ref = Reference(x, y, n)
                dev = {}  # impl: (x, y) on its device
                if cla is not None:
                    dev["cl"] = (cla.to_device(queue, x),
                                 None if y is None else cla.to_device(queue, y))
                for p in peers:
                    if p.name == "cl.array":
                        dev[p.name] = dev["cl"]  # the arrays rdx reads
                    elif p.name != "numpy":
                        dev[p.name] = (p.to_device(x), None if y is None else p.to_device(y))
                cells = 0
                for layout in args.layouts:
                    if not layout.fits(n):
                        continue
                    xv = layout.view(x, n)
                    yv = None if y is None else layout.view(y, n)
                    for func in funcs:
                        if not applies(func, layout, xv.ndim):
                            continue
                        row = cell(args, rdx, func, layout, type_name, dt, n, xv, yv, ref, dev,
                                   cla, queue, primary_cl, peers, notes)
                        rows.append(row)
                        out(row)
                        cells += 1
                for p in peers:
                    dev.pop(p.name, None)
                    p.release()
                dev.clear()
                print(f"matrix: {type_name} n={n} {kind}: {cells} cells, "
                      f"{time.perf_counter() - start:.1f} s", file=sys.stderr, flush=True)
    return rows, notes


def cell(args, rdx, func, layout, type_name, dt, n, xv, yv, ref, dev, cla, queue, primary_cl,
         peers, notes):
    ax = layout.axis
    want_dtype = numpy_dtype(func, dt, xv.ndim, ax)
    want = ref.value(func, layout, want_dtype)
    rtol = tolerance(func, want_dtype)
    # The bytes the function reads: dot's second array too, no other function's.
    nbytes = xv.size * xv.itemsize + (yv.size * yv.itemsize if func == "dot" else 0)
    row = {"func": func, "layout": layout.name, "shape": list(xv.shape),
           "axis": list(ax) if isinstance(ax, tuple) else ax, "type": type_name, "n": n,
           "bytes": nbytes, "us": {}, "rounds_us": {}, "ratio": {}, "check": "ok"}
    impls = {}  # name: the call, in the order of a round
    problems = []

    def add_rdx(name, fn, keep=None):
        try:
            r = fn()
        except Exception as e:  # an rdx error on what NumPy takes is a defect: reported
            problems.append(f"{name}: {type(e).__name__}: {e}")
            return
        msg = compare(func, to_host(r, cla), want, want_dtype, rtol)
        if msg:
            problems.append(f"{name}: {msg}")
        impls[name] = (lambda: to_host(fn(), cla))
        if keep is not None and on_device(r, cla):
            impls[keep] = (lambda: (fn(), queue.finish()))

    if "cl" in dev:
        dx = layout.view(dev["cl"][0], n)
        dy = None if dev["cl"][1] is None else layout.view(dev["cl"][1], n)
        cl_fn = (lambda: rdx_call(rdx, func, dx, dy, ax))
    if primary_cl:
        add_rdx("rdx", cl_fn, keep="rdx.dev")
    else:
        add_rdx("rdx", lambda: rdx_call(rdx, func, xv, yv, ax, device=args.device))
        if "cl" in dev:
            add_rdx("rdx.cl", cl_fn, keep="rdx.dev")
    if problems:
        row["check"] = "; ".join(problems)
    if args.check_only or "rdx" not in impls:
        return row

    for p in peers:
        if p.name == "numpy":
            if n > args.numpy_max:
                continue
            fn = p.call(func, xv, yv, ax, dt)
        else:
            px, py = dev[p.name]
            fn = p.call(func, layout.view(px, n), None if py is None else layout.view(py, n),
                        ax, dt)
        if fn is None:
            continue
        try:
            fn()  # the warm-up; a peer that refuses this cell is left out of it
        except Exception as e:
            why = " ".join(f"{type(e).__name__}: {e}".split())  # one line
            notes.setdefault(f"{p.name} {func} {type_name}", why[:160])
            continue
        impls[p.name] = fn
    for name, fn in impls.items():  # rdx's warm-up was its check; the others' too
        row["rounds_us"][name] = []
    for _ in range(args.rounds):
        for name, fn in impls.items():
            row["rounds_us"][name].append(measure(fn, args.target, args.max_repeat) * 1e6)
    for name, times in row["rounds_us"].items():
        row["us"][name] = statistics.median(times)
    base = row["us"]["rdx"]
    for p in peers:
        if p.name in row["us"]:
            row["ratio"][p.name] = row["us"][p.name] / base
    row["GBps"] = nbytes / base / 1e3
    return row


# Output ---------------------------------------------------------------------------------------

def fmt_us(v):
    return "-" if v is None else (f"{v:.1f}" if v < 1000 else f"{v:.0f}")


def size_name(n):
    return f"2^{n.bit_length() - 1}" if n & (n - 1) == 0 else str(n)


def table(args, rows, impl_names, peer_names, header):
    cols = ["function", "layout", "shape", "axis", "type", "n"]
    if not args.check_only:
        for name in impl_names:
            cols.append(f"{name} us")
            if name == "rdx":
                cols.append("rdx GB/s")
            if name in peer_names:
                cols.append(f"{name}/rdx")
    cols.append("check")
    order = {f: i for i, f in enumerate(FUNCS)}
    lorder = {lay.name: i for i, lay in enumerate(LAYOUTS)}
    torder = {t: i for i, t in enumerate(args.types)}
    rows = sorted(rows, key=lambda r: (order[r["func"]], torder[r["type"]], r["n"],
                                       lorder[r["layout"]]))
    lines = header + ["", "| " + " | ".join(cols) + " |", "|" + " --- |" * len(cols)]
    for r in rows:
        axis = r["axis"]
        cells = [r["func"], r["layout"], " x ".join(map(str, r["shape"])),
                 "all" if axis is None else (",".join(map(str, axis))
                                             if isinstance(axis, list) else str(axis)),
                 r["type"], size_name(r["n"])]
        if not args.check_only:
            for name in impl_names:
                cells.append(fmt_us(r["us"].get(name)))
                if name == "rdx":
                    cells.append(f"{r['GBps']:.2f}" if "GBps" in r else "-")
                if name in peer_names:
                    ratio = r["ratio"].get(name)
                    cells.append("-" if ratio is None else f"{ratio:.2f}")
        cells.append("ok" if r["check"] == "ok" else "**MISMATCH** " +
                     r["check"].replace("|", "/").replace("\n", " "))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def write_json(path, doc):
    """The rows into path, whole or not at all: a temporary file beside it, then os.replace."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".matrix-", suffix=".json", dir=folder)
    try:
        with os.fdopen(fd, "w") as f:
            json.dump(doc, f, indent=1)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


# Arguments -----------------------------------------------------------------------------------

def parse_size(text):
    """'2^k' or an element count."""
    t = text.strip()
    try:
        v = 1 << int(t[2:]) if t.startswith("2^") else int(t)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a size (2^k or a count): {t!r}") from None
    if not 1 <= v <= 1 << 40:
        raise argparse.ArgumentTypeError(f"a size from 1 to 2^40: {t!r}")
    return v


def parse_list(text, known, what):
    names = [s.strip() for s in text.split(",") if s.strip()]
    if not names:
        raise argparse.ArgumentTypeError(f"no {what} given")
    bad = [s for s in names if s not in known]
    if bad:
        raise argparse.ArgumentTypeError(f"unknown {what} {bad[0]!r} (known: "
                                         f"{', '.join(known)})")
    return list(dict.fromkeys(names))


def parser():
    ap = argparse.ArgumentParser(
        prog="matrix.py", description=__doc__.split("\n\n")[0].strip(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n\n".join(__doc__.split("\n\n")[1:]))
    ap.add_argument("--device", default="",
                    help="rdx's device selector (cpu, gpu, an index, P:D, part of a name; "
                         "default: rdx's default device); a GPU device adds the GPU peers")
    ap.add_argument("--funcs", type=lambda s: parse_list(s, FUNCS, "function"), default=FUNCS,
                    help="comma-separated functions (default: all %d)" % len(FUNCS))
    ap.add_argument("--layouts", type=lambda s: parse_list(s, list(LAYOUT_BY_NAME), "layout"),
                    default=list(LAYOUT_BY_NAME),
                    help="comma-separated layouts (default: all): " + ", ".join(LAYOUT_BY_NAME))
    ap.add_argument("--types", type=lambda s: parse_list(s, list(TYPES), "type"),
                    default=DEFAULT_TYPES,
                    help="comma-separated element types (default: %s; also %s)" % (
                        ",".join(DEFAULT_TYPES),
                        ",".join(t for t in TYPES if t not in DEFAULT_TYPES)))
    ap.add_argument("--sizes", type=lambda s: [parse_size(v) for v in s.split(",")],
                    help="comma-separated sizes, 2^k or counts (default: 2^10,2^16,2^20,2^24 "
                         "and --largest; with --check-only 2^10,2^16)")
    ap.add_argument("--largest", type=parse_size,
                    help="the largest default size (default: 2^26 on a CPU, 2^28 on a GPU)")
    ap.add_argument("--check-only", action="store_true",
                    help="check every result against NumPy, time nothing (the CI mode)")
    ap.add_argument("--rounds", type=int, default=2, help="alternating rounds (default 2)")
    ap.add_argument("--target-ms", type=float, default=50.0,
                    help="about how long one measurement lasts (default 50)")
    ap.add_argument("--max-repeat", type=int,
                    help="the most calls of one measurement (default 100 on a CPU, 20 on a "
                         "GPU, which keeps the whole GPU matrix to a few minutes)")
    ap.add_argument("--numpy-max", type=parse_size,
                    help="the largest size NumPy is timed at (default: every size on a CPU, "
                         "2^20 on a GPU, where the host is not what is measured)")
    ap.add_argument("--peers",
                    type=lambda s: parse_list(s, ["numpy", "torch", "cupy", "cl.array"], "peer"),
                    help="comma-separated peers (default: numpy, and on a GPU torch, cupy and "
                         "cl.array where importable)")
    ap.add_argument("--pyopencl", action=argparse.BooleanOptionalAction, default=None,
                    help="also run rdx on pyopencl arrays (default: on a GPU only, where they "
                         "are rdx's column)")
    ap.add_argument("--json", metavar="FILE", help="write the rows as JSON into FILE")
    return ap


def pyopencl_queue(device_name):
    import pyopencl as cl
    import pyopencl.array as cla
    for platform in cl.get_platforms():
        for d in platform.get_devices():
            if d.name.strip() == device_name.strip():
                return cla, cl.CommandQueue(cl.Context([d]), d)
    raise RuntimeError(f"PyOpenCL does not list the device {device_name!r}")


def main(argv=None):
    ap = parser()
    args = ap.parse_args(argv)
    if args.rounds < 1:
        ap.error("--rounds: at least 1")
    if args.target_ms <= 0:
        ap.error("--target-ms: a positive number")
    if args.max_repeat is not None and args.max_repeat < 3:
        ap.error("--max-repeat: at least 3")
    if args.json and not os.path.isdir(os.path.dirname(os.path.abspath(args.json))):
        ap.error(f"--json: no folder {os.path.dirname(os.path.abspath(args.json))!r}")
    try:
        import rdx
        ctx = rdx.context(args.device)
    except Exception as e:
        print(f"matrix.py: rdx: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    facts = ctx.device
    args.mode = "gpu" if facts.kind == "gpu" else "cpu"
    gpu = args.mode == "gpu"
    largest = args.largest or (1 << (28 if gpu else 26))
    if args.sizes is None:
        args.sizes = [1 << 10, 1 << 16] if args.check_only else sorted(
            {1 << 10, 1 << 16, 1 << 20, 1 << 24, largest})
    args.layouts = [LAYOUT_BY_NAME[name] for name in args.layouts]
    args.target = args.target_ms / 1e3
    args.max_repeat = args.max_repeat or (20 if gpu else 100)
    args.numpy_max = args.numpy_max or (1 << 20 if gpu else 1 << 62)
    use_cl = gpu if args.pyopencl is None else args.pyopencl
    wanted = args.peers or ["numpy", "torch", "cupy", "cl.array"]

    missing = [f for f in args.funcs if not callable(getattr(rdx, f, None))]
    args.funcs = [f for f in args.funcs if f not in missing]
    cl_setup = None
    if use_cl:
        try:
            cl_setup = pyopencl_queue(facts.name)
        except Exception as e:
            print(f"matrix.py: pyopencl: {type(e).__name__}: {e}", file=sys.stderr)
            return 1
    peers, absent = [], []
    if "numpy" in wanted:
        peers.append(NumpyPeer())
    if gpu and not args.check_only:
        for name, make in (("torch", TorchPeer), ("cupy", CupyPeer)):
            if name in wanted:
                try:
                    peers.append(make())
                except Exception as e:  # not importable here: left out, said so
                    absent.append(f"{name} ({type(e).__name__}: {str(e)[:80]})")
    if cl_setup and "cl.array" in wanted and not args.check_only:
        peers.append(ClArrayPeer(*cl_setup))
    if args.check_only:
        peers = []

    versions = [f"NumPy {np.__version__}"] + [f"{p.name} {p.version}" for p in peers
                                               if hasattr(p, "version")]
    inputs = "pyopencl arrays" if gpu else "host arrays" + (
        " (rdx.cl: pyopencl arrays)" if cl_setup else "")
    header = [f"rdx {rdx.__version__} on {facts.name} ({facts.platform}, {facts.kind}), "
              f"rdx's inputs: {inputs}; {', '.join(versions)}",
              "command: " + " ".join(["python", "bench/matrix.py"] +
                                     (sys.argv[1:] if argv is None else list(argv)))]
    if not args.check_only:
        header.append(f"{args.rounds} alternating rounds, each a median of calls after a "
                      f"warm-up ({args.target_ms:g} ms, at most {args.max_repeat} calls); "
                      "peer/rdx above 1: rdx is faster; GB/s: the input's bytes over rdx's time")
    if not args.check_only and "numpy" in wanted and args.numpy_max < max(args.sizes):
        header.append(f"NumPy timed up to n = {size_name(args.numpy_max)} (--numpy-max)")
    if missing:
        header.append("not in rdx, skipped: " + ", ".join(missing))
    if absent:
        header.append("peers not available: " + "; ".join(absent))

    def progress(row):
        if row["check"] != "ok":
            print(f"matrix: MISMATCH {row['func']} {row['layout']} {row['type']} "
                  f"n={row['n']}: {row['check']}", file=sys.stderr, flush=True)

    rows, notes = run(args, rdx, cl_setup, peers, progress)
    impl_names = ["rdx"] + (["rdx.cl"] if cl_setup and not gpu else []) + (
        ["rdx.dev"] if cl_setup else []) + [p.name for p in peers]
    if not args.check_only:
        impl_names = [i for i in impl_names if any(i in r["us"] for r in rows)]
    for key, why in sorted(notes.items()):
        header.append(f"{key}: refused ({why})")
    sys.stdout.write(table(args, rows, impl_names, {p.name for p in peers}, header))
    bad = [r for r in rows if r["check"] != "ok"]
    print(f"matrix: {len(rows)} cells, {len(bad)} mismatched", file=sys.stderr)
    if args.json:
        write_json(args.json, {"header": header, "device": facts.name, "mode": args.mode,
                               "check_only": args.check_only, "rows": rows})
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
