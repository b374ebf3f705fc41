"""NumPy's reductions on librdx: the same names, arguments, result dtypes, NaN rules, empty-input
rules and errors, plus device= and determinism= on each. The extension (rdx._rdx) reduces in
place; this module turns NumPy's rules into its calls.

The public functions are made at import from their rows in rdx/_table.py (make, below): each
is a plain function with NumPy's signature whose body calls its family's implementation here,
`_<family>(row, <its parameters>, device, determinism)`."""
from __future__ import annotations

import builtins
import inspect
import math
import textwrap
import warnings

import numpy as np

from . import _dtypes, _rdx, _table
from ._devices import context, queue_context
from ._device import pyopencl_array
from ._inputs import (_NAMES, BOOL, F64, INDEX_OPS, INTP, AxisError, DeviceArray, array,
                      axes, check_determinism, contiguous, finish, into, keepdims_flag, one_axis,
                      sizes, to_host, type_name)

_RUN = "run_to_run"
_F16 = np.dtype(np.float16)


def _context(name, device, arrays):
    """The context a call runs on: device= as rdx.context takes it; without it, PyOpenCL
    arrays run on their queue's context (Context.from_pyopencl, one per queue), host arrays on
    the default device. Host and device arrays in one call are a TypeError."""
    if type(arrays[0]) is np.ndarray and len(arrays) == 1:  # the common call, at its cost
        return context(device)
    on_device = [isinstance(x, DeviceArray) for x in arrays]
    if not builtins.any(on_device):
        return context(device)
    if not builtins.all(on_device):
        raise TypeError(f"rdx.{name}: PyOpenCL arrays and host arrays in one call (move them "
                        "to one side)")
    if device is not None:
        return context(device)
    queue = arrays[0].queue
    if queue is None:
        raise ValueError(f"rdx.{name}: the PyOpenCL array has no queue: pass device= (a "
                         "pyopencl.CommandQueue or rdx.Context.from_pyopencl(queue))")
    return queue_context(queue)


def _input(x):
    """What the extension reads: a NumPy array as it is (a read-only one through a memoryview:
    NumPy 1 refuses DLPack for it, an exception on every call), a DeviceArray as its handle."""
    if type(x) is np.ndarray:
        return x if x.flags.writeable else memoryview(x)
    return x.handle(type_name(x.dtype)) if isinstance(x, DeviceArray) else x


def _inputs(arrays):
    return [_input(x) for x in arrays]


def _op(name, op, a, ax, acc, device, determinism):
    """The built-in operator op: (value, index) as the extension gives them; over some axes of
    a PyOpenCL array, PyOpenCL arrays of the results on its queue (_op_on_device)."""
    check_determinism(determinism, name)
    ctx = _context(name, device, (a,))
    if ax is not None and isinstance(a, DeviceArray) and device is None:
        r = _op_on_device(ctx, a, op, ax, acc, determinism)
        if r is not None:
            return r
    return _rdx.reduce_op(ctx, _input(a), op, ax, acc, determinism)


_DTYPE_OF = {name: np.dtype(code) for code, name in _NAMES.items()}


def _op_on_device(ctx, a, op, ax, acc, determinism):
    """op over the axes ax of a PyOpenCL array with its results left on the device: (values,
    indexes or None), new PyOpenCL arrays on a's queue (values in the accumulator's dtype,
    indexes uint64). None where librdx converts the results on the host (float16 extremes)."""
    dt = _DTYPE_OF[acc] if acc else a.dtype
    if dt == _F16:
        return None
    kept = [n for k, n in enumerate(a.shape) if k not in ax]
    values = a.results(kept, dt)
    index = a.results(kept, np.uint64) if op in INDEX_OPS else None
    if not _rdx.reduce_op_into(ctx, _input(a), op, list(ax), acc, determinism,
                               values.handle(type_name(dt)),
                               None if index is None else index.handle("u64")):
        return None
    return values.arr, (None if index is None else index.arr)


def _stat(name, stat, arrays, ax, acc, device, determinism, map="", on_device=False):
    """The composite stat: (value, index, max, max_index) as the extension gives them; with
    on_device, over some axes of PyOpenCL arrays, PyOpenCL arrays of the results on the first
    array's queue (_stat_on_device)."""
    check_determinism(determinism, name)
    ctx = _context(name, device, arrays)
    if on_device and ax is not None and isinstance(arrays[0], DeviceArray) and device is None:
        r = _stat_on_device(ctx, stat, arrays, ax, acc, determinism, map)
        if r is not None:
            return r
    return _rdx.reduce_stat(ctx, _inputs(arrays), stat, ax, acc, determinism, map)


def _stat_on_device(ctx, stat, arrays, ax, acc, determinism, map):
    """stat over the axes ax of PyOpenCL arrays with its results left on the device: (value,
    None, None, None), or for minmax (minima, their indexes, maxima, theirs), new PyOpenCL
    arrays on the first array's queue in the types librdx gives (_rdx.stat_types). None where
    there are no results or a result type is a 16-bit float (the host path converts those)."""
    a = arrays[0]
    kept = [n for k, n in enumerate(a.shape) if k not in ax]
    if math.prod(kept) == 0:
        return None
    types = _rdx.stat_types(ctx, stat, [type_name(x.dtype) for x in arrays], acc, determinism)
    dtypes = [_DTYPE_OF.get(t) for t in types]
    if builtins.any(d is None or (d.kind == "f" and d.itemsize == 2) for d in dtypes):
        return None
    outs = [a.results(kept, d) for d in dtypes]
    _rdx.reduce_stat_into(ctx, _inputs(arrays), stat, list(ax), acc, determinism, map,
                          [o.handle(t) for o, t in zip(outs, types)])
    return tuple([o.arr for o in outs] + [None] * (4 - len(outs)))


# Sums and products --------------------------------------------------------------------------

def _sum_like(row, a, axis=None, dtype=None, out=None, keepdims=False, initial=None,
              device=None, determinism=_RUN):
    """sum, prod and their nan* forms: row.ops[0] (sum, prod); row.stat (nansum, nanprod) for
    floats; initial= combined with each result on the host."""
    name = row.name
    a, dt = array(a, name)
    res = _dtypes.RESULT[row.result](dt, dtype, name)
    start = _initial(initial, res)
    a, acc = _dtypes.sum_accumulator(a, res)
    ax = axes(axis, a.ndim, scalar_axis=True)
    keepdims = keepdims_flag(keepdims)
    op = row.ops[0]
    if (op == "sum" and not row.stat and ax is None and determinism == "any_device"
            and a.dtype.kind == "f" and not isinstance(a, DeviceArray)):
        a = contiguous(a)  # the fixed bins are a whole-input form: a view sums its copy
    if row.stat and a.dtype.kind == "f":  # nansum, nanprod of floats
        value = _stat(name, row.stat, [a], ax, acc, device, determinism, on_device=True)[0]
    else:
        value = _op(name, op, a, ax, acc, device, determinism)[0]
    if start is None:
        return finish(value, res, a.shape, ax, keepdims, out)
    r = finish(value, res, a.shape, ax, keepdims, None)
    return _combine(_INITIAL[op], r, start, res, out)


# NumPy's ufunc of each operator, which combines initial= with the reduction's result
_INITIAL = {"sum": np.add, "prod": np.multiply, "min": np.minimum, "max": np.maximum,
            "nanmin": np.fmin, "nanmax": np.fmax}


def _initial(initial, res):
    """initial= as NumPy 2 takes it: None (none), or one value converted to the result dtype
    (a Python integer out of its range is NumPy 2's OverflowError, a float is truncated)."""
    if initial is None:
        return None
    if np.ndim(initial) != 0:
        raise ValueError("setting an array element with a sequence.")
    if type(initial) is int and res.kind in "iu":
        info = np.iinfo(res)
        if not info.min <= initial <= info.max:
            raise OverflowError(f"Python integer {initial} out of bounds for {res}")
    if isinstance(initial, (float, np.floating)) and res.kind in "iu":
        int(initial)  # NaN and infinities: Python's ValueError and OverflowError, as NumPy's
    return np.asarray(initial).astype(res)[()]


def _combine(ufunc, r, start, res, out):
    """A result with initial= taken as one more element of each slice (NumPy's ufunc of 0-d
    arrays: integers wrap without a warning)."""
    r = ufunc(np.asarray(to_host(r)), np.asarray(start), dtype=res)
    if r.ndim == 0:
        r = r[()]
    return r if out is None else into(out, r)


# Extremes and their indexes -----------------------------------------------------------------

_UFUNC = {"min": "minimum", "max": "maximum", "nanmin": "fmin", "nanmax": "fmax"}


def _extreme(row, a, axis=None, out=None, keepdims=False, initial=None, device=None,
             determinism=_RUN):
    """min, max, nanmin, nanmax: the operator row.ops[0]; initial= combined with each result
    on the host (of an empty slice: initial itself)."""
    name = row.name
    a, dt = array(a, name)
    ax = axes(axis, a.ndim, scalar_axis=True)
    keepdims = keepdims_flag(keepdims)
    op = row.ops[0]
    start = _initial(initial, dt)
    if sizes(a.shape, ax)[0] == 0:  # NumPy's rule, even where there are no results
        if start is None:
            raise ValueError(f"zero-size array to reduction operation {_UFUNC[op]} which has "
                             "no identity")
        kept = [n for k, n in enumerate(a.shape) if ax is not None and k not in ax]
        return finish(np.full(kept, start, dt), dt, a.shape, ax, keepdims, out)
    value = _op(name, op, a, ax, "", device, determinism)[0]
    if start is None:
        r = finish(value, dt, a.shape, ax, keepdims, out)
    else:
        r = _combine(_INITIAL[op], finish(value, dt, a.shape, ax, keepdims, None), start, dt,
                     out)
    if row.nan == "ignore" and dt.kind == "f" and _has_nan(r):
        warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=3)
    return r


def _ptp(row, a, axis=None, out=None, keepdims=False, device=None, determinism=_RUN):
    """ptp: NumPy's own form, maximum less minimum (row.ops) subtracted in the element dtype."""
    name = row.name
    a, dt = array(a, name)
    ax = axes(axis, a.ndim, scalar_axis=True)
    keepdims = keepdims_flag(keepdims)
    hi_op, lo_op = row.ops
    if sizes(a.shape, ax)[0] == 0:
        raise ValueError(f"zero-size array to reduction operation {_UFUNC[hi_op]} which has "
                         "no identity")
    hi = finish(_op(name, hi_op, a, ax, "", device, determinism)[0], dt, a.shape, ax, keepdims,
                None)
    lo = finish(_op(name, lo_op, a, ax, "", device, determinism)[0], dt, a.shape, ax, keepdims,
                None)
    # NumPy's, or PyOpenCL's for results on the device (bool ones are read back): integers
    # wrap, bool is NumPy's TypeError
    r = hi - lo if pyopencl_array(hi) else np.subtract(hi, lo)
    return r if out is None else into(out, to_host(r))


def _arg(row, a, axis=None, out=None, keepdims=False, device=None, determinism=_RUN):
    """argmin, argmax, nanargmin, nanargmax: the index of the operator row.ops[0]."""
    name = row.name
    a, dt = array(a, name)
    if row.nan == "ignore" and dt.kind == "f" and isinstance(axis, tuple):
        axes(axis, a.ndim)  # np.nanargmin reads the axis in np.all of its NaN mask first
    ax = one_axis(axis, a.ndim)
    if sizes(a.shape, ax)[0] == 0:  # NumPy's rule, even where there are no results
        raise ValueError(f"attempt to get {name.removeprefix('nan')} of an empty sequence")
    if isinstance(out, np.ndarray) and not np.can_cast(out.dtype, INTP, "safe"):
        # NumPy writes the indexes through an intp copy of out: out must cast to intp safely
        what = "array data" if out.ndim else "scalar"
        raise TypeError(f"Cannot cast {what} from {out.dtype!r} to {INTP!r} according to the "
                        "rule 'safe'")
    index = _op(name, row.ops[0], a, ax, "", device, determinism)[1]
    return finish(index, INTP, a.shape, ax, bool(keepdims), out)


def _minmax(row, a, axis=None, keepdims=False, device=None, determinism=_RUN):
    """minmax: the composite row.stat, (nanmin, nanmax) in one pass."""
    name = row.name
    a, dt = array(a, name)
    ax = axes(axis, a.ndim, scalar_axis=True)
    keepdims = keepdims_flag(keepdims)
    if sizes(a.shape, ax)[0] == 0:  # NumPy's rule, even where there are no results
        raise ValueError("zero-size array to reduction operation minmax which has no identity")
    lo, _, hi, _ = _stat(name, row.stat, [a], ax, "", device, determinism, on_device=True)
    return (finish(lo, dt, a.shape, ax, keepdims, None),
            finish(hi, dt, a.shape, ax, keepdims, None))


# Means, variances and deviations ------------------------------------------------------------

def _counts(a, ax, device, determinism):
    """How many elements of each slice are not NaN."""
    return _stat("count", "count", [a], ax, "", device, determinism, "x == x")[0]


def _moment(row, a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, mean=None,
            correction=None, device=None, determinism=_RUN):
    """mean, var, std and their nan* forms (the composite row.stat; a mean along axes: the
    operator row.ops[0], the sum); var and std with ddof: var * n / (n - ddof); around a given
    mean (NumPy 2's mean=): _around."""
    name, stat = row.name, row.stat
    if correction is not None:  # NumPy 2's name of ddof
        if not (isinstance(ddof, (int, float, np.number)) and ddof == 0):
            raise ValueError("ddof and correction can't be provided simultaneously.")
        ddof = correction
    a, dt = array(a, name)
    if row.nan == "ignore" and dt.kind == "f" and dtype is not None \
            and np.dtype(dtype).kind not in "fc":  # np.nanmean's own rule, bool too
        raise TypeError("If a is inexact, then dtype must be inexact")
    res = _dtypes.RESULT[row.result](dt, dtype, name)
    given = a  # an integer dtype's steps cast the elements themselves
    a, acc = _dtypes.mean_accumulator(a, res, dtype)
    # np.nanmean and friends of floats are ufunc reductions (a 0-d array's axis 0 is every
    # axis); of integers they are np.mean, np.var and np.std, which take no axis of a 0-d array
    nan_form = row.nan == "ignore" and dt.kind == "f"
    if (mean is not None and dtype is None and not nan_form and res.kind == "f"
            and type(mean) not in (bool, int, float)):
        # np.var computes x - mean in their common dtype (NumPy 2's rule: a Python number does
        # not widen it, a NumPy one does); np.nanvar writes it into the array's own
        res = np.promote_types(res, np.asarray(mean).dtype)
    if nan_form and isinstance(out, np.ndarray) and out.dtype.kind not in "fc":
        raise TypeError("If a is inexact, then out must be inexact")  # np.nanmean's own rule
    if row.stat.endswith("std") and isinstance(out, np.ndarray) and out.dtype.kind in "biu":
        # NumPy's std writes the variance into out, then takes np.sqrt(out, out=out): of an
        # integer or bool out that is np.sqrt's casting TypeError, raised here by np.sqrt
        var = _table.BY_NAME[row.name[:-3] + "var"]
        r = _moment(var, a, axis, dtype, out, ddof, keepdims, mean, None, device, determinism)
        return np.sqrt(r, out=r)
    if not nan_form and isinstance(axis, tuple):  # np.mean counts a tuple's items first,
        for item in axis:                         # reading a bool as an int: out of range is
            if isinstance(item, (bool, np.bool_)) and int(item) >= a.ndim:  # an AxisError
                raise AxisError(int(item), a.ndim)
    ax = axes(axis, a.ndim, scalar_axis=nan_form)
    keepdims = keepdims_flag(keepdims)
    ddof = _ddof(ddof, name)
    if not nan_form:
        stat = stat.removeprefix("nan")
    root = stat.endswith("std")
    if res.kind in "iu":
        if nan_form:
            raise TypeError("If a is inexact, then dtype must be inexact")  # np.nanmean's
        return _integer_moment(name, stat, given, ax, res, ddof, keepdims, out, mean, device,
                               determinism)
    if ax is None and determinism != _RUN and stat != "mean":
        a = contiguous(a)  # the exact moments are whole-input forms (not per segment)
    base = stat if ddof == 0 else stat[:-3] + "var"
    reduced, kept = sizes(a.shape, ax)
    if stat == "mean" and ax is not None and determinism == _RUN and reduced and kept:
        # Along axes every slice holds `reduced` elements: the mean is their sum over that
        # (NumPy's own form), by the sum's kernels in the composite's accumulator (float64 where
        # the device has it); the composite's per-slice count cost 5-80x the sum's time.
        if not acc:
            ctx = _context(name, device, [a])
            acc = "f64" if ctx.device_facts()["fp64"] else "f32"
        value = _op(name, row.ops[0], a, ax, acc, device, determinism)[0]
        return finish(value / value.dtype.type(reduced), res, a.shape, ax, keepdims, out)
    back = None  # the queue of results on the device that steps on the host return them to
    if mean is not None:  # the population variance around it (the root and ddof below)
        value, n = _around(name, a, ax, acc, mean, nan_form, reduced, device, determinism)
    else:
        value = _stat(name, base, [a], ax, acc, device, determinism, on_device=True)[0]
        n = None
        if nan_form and (ddof != 0 or _has_nan(value)):
            n = _counts(a, ax, device, determinism)
            back, value = _to_host(value)
    # NumPy 2's warnings: np.mean and np.var test the slices' length, even where there are no
    # slices; the nan* forms of floats test each slice (none where there are none)
    counted = kept or not nan_form
    if stat.endswith("mean"):
        if counted and (reduced == 0 if n is None else np.any(np.asarray(n) == 0)):
            warnings.warn("Mean of empty slice", RuntimeWarning, stacklevel=3)
        return finish(_on_queue(back, value), res, a.shape, ax, keepdims, out)
    count = reduced if n is None else np.asarray(n, F64)
    if counted and (reduced - ddof <= 0 if n is None else np.any(count - ddof <= 0)):
        warnings.warn("Degrees of freedom <= 0 for slice" + ("." if nan_form else ""),
                      RuntimeWarning, stacklevel=3)
    if ddof != 0 and pyopencl_array(value):
        if n is None and value.dtype == F64 and reduced > 0 and reduced - ddof > 0:
            # The host's steps below on the device in float64 (PyOpenCL divides by a scalar as
            # a product with its reciprocal: within an ulp of the host's quotient)
            v = value * float(reduced) / float(reduced - ddof)
            return finish(_sqrt(v) if root else v, res, a.shape, ax, keepdims, out)
        back, value = _to_host(value)
    if ddof != 0 or mean is not None:
        with np.errstate(divide="ignore", invalid="ignore"):
            dof = count - ddof
            v = np.asarray(value, F64) * count / np.maximum(dof, 0)
            # NumPy divides a sum of no squares, 0, by dof: an empty slice with ddof < 0 is 0
            v = np.where((count == 0) & (dof > 0), 0.0, v)
            if nan_form:  # np.nanvar: NaN where the degrees of freedom are not positive
                v = np.where(dof <= 0, np.nan, v)
            value = np.sqrt(v) if root else v
    return finish(_on_queue(back, value), res, a.shape, ax, keepdims, out)


def _integer_moment(name, stat, a, ax, res, ddof, keepdims, out, mean, device, determinism):
    """np.mean, np.var and np.std with an integer dtype, NumPy's own steps: sums in res
    (rdx.sum's, the elements cast to res), each divided by the count and cast back to res
    (truncated); var subtracts that integer mean from the elements on the host (NumPy's
    np.subtract and np.square), then sums the squares in res; std is np.sqrt of it (of an
    array into itself: NumPy's casting TypeError, as NumPy's)."""
    if isinstance(a, DeviceArray):
        raise NotImplementedError(f"rdx.{name}: an integer dtype of a PyOpenCL array (NumPy's "
                                  "steps subtract the mean on the host)")
    n = sizes(a.shape, ax)[0]
    summing = _table.BY_NAME["sum"]

    def total(x, kd):
        return _sum_like(summing, x, ax, res, None, kd, None, device, determinism)

    def divide(r, count):
        with np.errstate(divide="ignore", invalid="ignore"):
            if isinstance(r, np.ndarray):
                return np.true_divide(r, count, out=r, casting="unsafe")
            return r.dtype.type(r / count)

    if stat == "mean":
        if n == 0:
            warnings.warn("Mean of empty slice", RuntimeWarning, stacklevel=4)
        r = divide(total(a, keepdims), n)
    else:
        if ddof >= n:
            warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning, stacklevel=4)
        if mean is None:
            with np.errstate(divide="ignore", invalid="ignore"):
                mean = (np.asarray(total(a, True)) / n).astype(res)
        x = np.subtract(a, mean)
        x = np.square(x, out=x)
        r = divide(total(x, keepdims), np.maximum(n - ddof, 0))
        if stat == "std":
            r = np.sqrt(r, out=r) if isinstance(r, np.ndarray) else r.dtype.type(np.sqrt(r))
    return r if out is None else into(out, r)


def _around(name, a, ax, acc, mean, nan_form, reduced, device, determinism):
    """NumPy 2's var(mean=): the population variance around the given mean, and the slices'
    counts (None: `reduced` each). Where the mean is one value per slice (it broadcasts
    to the result kept as 1 along the reduced axes), from librdx's moments: sum((x - m)^2) =
    n var + n (mean - m)^2, two non-negative terms; else (a mean that varies along a reduced
    axis) on the host: NumPy's x - m, squared, summed on the device."""
    with np.errstate(divide="ignore", invalid="ignore"):
        m = np.asarray(mean)
        if m.dtype.kind not in "biuf":
            raise TypeError(f"rdx.{name}: mean= of dtype {m.dtype} (real numbers only)")
        full = np.broadcast_to(m, np.broadcast_shapes(m.shape, a.shape))
        if full.shape != a.shape:
            raise ValueError(f"rdx.{name}: mean= of shape {m.shape} does not broadcast to "
                             f"the array's {a.shape}")
        reduced_axes = tuple(range(a.ndim)) if ax is None else ax
        n = _counts(a, ax, device, determinism) if nan_form else None
        count = reduced if n is None else np.asarray(n, F64)
        m = m.reshape((1,) * (a.ndim - m.ndim) + m.shape)
        if builtins.all(m.shape[k] == 1 for k in reduced_axes):
            kept_axes = [k for k in range(a.ndim) if k not in reduced_axes]
            per_slice = np.broadcast_to(m.reshape([m.shape[k] for k in kept_axes]),
                                        [a.shape[k] for k in kept_axes]).astype(F64)
            kind = "nan" if nan_form else ""
            var0 = np.asarray(_stat(name, kind + "var", [a], ax, acc, device, determinism)[0],
                              F64)
            mu = np.asarray(_stat(name, kind + "mean", [a], ax, acc, device, determinism)[0],
                            F64)
            total = count * var0 + count * (mu - per_slice) ** 2
            total = np.where(np.asarray(count) == 0, 0.0, total)
        else:
            d = np.subtract(a, full, dtype=F64)
            d = d * d
            if nan_form:
                d[np.isnan(d)] = 0.0
            total = np.asarray(_op(name, "sum", d, ax, "", device, determinism)[0], F64)
        return total / count, n


def _to_host(value):
    """(the queue of results on the device, their values read back) for steps of NumPy's on the
    host; (None, value) for results on the host."""
    if pyopencl_array(value):
        return value.queue, value.get()
    return None, value


def _on_queue(queue, value):
    """A result computed on the host from results on the device (_to_host) moved to the device
    again, a PyOpenCL array on their queue; value as is where queue is None."""
    if queue is None:
        return value
    import pyopencl.array as cla

    return cla.to_device(queue, np.ascontiguousarray(value))


def _sqrt(v):
    """The square root of results on the device (OpenCL's, correctly rounded in float64)."""
    import pyopencl.clmath as clmath

    return clmath.sqrt(v)


def _has_nan(value) -> bool:
    """Whether a result (a number, or an array of them) holds a NaN."""
    if isinstance(value, (float, np.floating)):
        return bool(value != value)
    if pyopencl_array(value):  # results on the device: their max (NaN if any is) read back
        m = _rdx.reduce_op(queue_context(value.queue),
                           DeviceArray(value).handle(type_name(value.dtype)), "max", None, "",
                           _RUN)[0]
        return m != m
    return bool(np.isnan(value).any())


def _ddof(ddof, name):
    """ddof as NumPy takes it: a number (a bool, a numpy scalar or a 0-d array too)."""
    if type(ddof) is int:
        return ddof
    if isinstance(ddof, np.ndarray) and ddof.ndim == 0:
        ddof = ddof[()]
    if isinstance(ddof, (bool, np.bool_)):
        return int(ddof)
    if not isinstance(ddof, (int, float, np.integer, np.floating)):
        raise TypeError(f"rdx.{name}: ddof must be a number, not {type(ddof).__name__}")
    return ddof


# Logical reductions and counts --------------------------------------------------------------

def _logical(row, a, axis=None, out=None, keepdims=False, device=None, determinism=_RUN):
    """any, all: the composite row.stat."""
    a, _ = array(a, row.name)
    ax = axes(axis, a.ndim, scalar_axis=True)
    keepdims = keepdims_flag(keepdims)
    value = _stat(row.name, row.stat, [a], ax, "", device, determinism)[0]
    return finish(value, BOOL, a.shape, ax, keepdims, out)


def _count_nonzero(row, a, axis=None, keepdims=False, device=None, determinism=_RUN):
    """count_nonzero: the composite row.stat (count)."""
    a, _ = array(a, row.name)
    ax = axes(axis, a.ndim, scalar_axis=True)
    whole = axis is None and not keepdims  # NumPy's own test, before keepdims is read
    keepdims = False if whole else keepdims_flag(keepdims)
    value = _stat(row.name, row.stat, [a], ax, "", device, determinism, on_device=not whole)[0]
    if whole:
        return _count_type(value)
    return finish(value, INTP, a.shape, ax, keepdims, None)


# np.count_nonzero(a) is a Python int in NumPy 1, an intp scalar in NumPy 2
_count_type = type(np.count_nonzero(np.zeros(1)))


# Products of two arrays, and norms ----------------------------------------------------------

def _inner(row, a, b, da, db, device, determinism):
    """The sum of a * b (the composite row.stat) over arrays of one shape, in np.result_type's
    dtype."""
    res = np.result_type(da, db)
    if res.kind == "b":  # NumPy's bool dot: whether some pair is both true
        kind, acc = np.dtype(np.uint8), "u64"
    else:
        kind, acc = res, "f32" if res == np.float16 else ""
    if a.dtype != kind:
        a = a.astype(kind)
    if b.dtype != kind:
        b = b.astype(kind)
    if not (a.flags.c_contiguous and b.flags.c_contiguous) and a.strides != b.strides:
        a, b = contiguous(a), contiguous(b)
    value = _stat(row.name, row.stat, [a, b], None, acc, device, determinism)[0]
    if res.kind == "b":
        return np.bool_(value != 0)
    return res.type(value)


def _dot(row, a, b, out=None, device=None, determinism=_RUN):
    """dot of two 1-D arrays."""
    a, da = array(a, row.name)
    b, db = array(b, row.name)
    if a.ndim != 1 or b.ndim != 1:
        raise NotImplementedError("rdx.dot: the inner product of two 1-D arrays only (not "
                                  f"{a.ndim}-D and {b.ndim}-D)")
    if a.shape != b.shape:
        raise ValueError(f"shapes {a.shape} and {b.shape} not aligned: {a.shape[0]} (dim 0) != "
                         f"{b.shape[0]} (dim 0)")
    r = _inner(row, a, b, da, db, device, determinism)
    return r if out is None else into(out, r)


def _vdot(row, a, b, device=None, determinism=_RUN):
    """vdot of real arrays."""
    a, da = array(a, row.name)
    b, db = array(b, row.name)
    if a.size != b.size:
        raise ValueError(f"cannot reshape array of size {b.size} into shape ({a.size},)")
    if a.shape != b.shape:
        a, b = a.reshape(-1), b.reshape(-1)
    return _inner(row, a, b, da, db, device, determinism)


def _norm(row, x, ord=None, axis=None, keepdims=False, device=None, determinism=_RUN):
    """np.linalg.norm's 2-norm and Frobenius norm: the composite row.stat (norm2)."""
    x, dt = array(x, row.name)
    if axis is not None and not isinstance(axis, tuple):
        try:
            axis = (int(axis),)  # np.linalg.norm's own reading (1.0 and "1" are axis 1)
        except (TypeError, ValueError) as e:
            raise TypeError("'axis' must be None, an integer or a tuple of integers") from e
    k = x.ndim if axis is None else len(axis)
    if axis is not None and k not in (1, 2):
        raise ValueError("Improper number of dimensions to norm.")
    if not (ord is None or (ord == 2 and k == 1) or (ord == "fro" and k == 2)):
        raise NotImplementedError(f"rdx.norm: ord={ord!r} of {k} axes (the 2-norm and the "
                                  "Frobenius norm only)")
    ax = axes(axis, x.ndim)
    value = _stat(row.name, row.stat, [x], ax, "", device, determinism, on_device=True)[0]
    return finish(value, _dtypes.RESULT[row.result](dt, None, row.name), x.shape, ax,
                  bool(keepdims), None)


# The public functions, made from the table --------------------------------------------------

def docstring(row: _table.Row) -> str:
    """What the function computes (the row's doc), and how it differs from NumPy."""
    head = f"np.{row.numpy}: {row.doc}." if row.numpy else f"rdx.{row.name}: {row.doc}."
    lines = [head]
    if row.omits:
        taken = ", ".join(f"{p}=" for p in row.omits)
        why = "; ".join(f"{p}: {reason}" for p, reason in row.omits.items())
        lines.append(f"NumPy's {taken} not taken ({why}).")
    for why in dict.fromkeys(row.differs.values()):
        taken = ", ".join(f"{p}=" for p, w in row.differs.items() if w == why)
        lines.append(f"{taken}: {why}.")
    if row.device_results:
        given = [f"{p}=" for p in ("initial", "mean") if p in row.signature().parameters]
        lines.append("Over some axes of a PyOpenCL array: a pyopencl.array.Array of the "
                     f"results on its queue (NumPy arrays with {', '.join(given + ['device='])}, "
                     "or bool and float16 extremes); out= takes a NumPy or a PyOpenCL array.")
    lines.append("device=: a selector, an rdx.Context or a pyopencl.CommandQueue; "
                 "determinism=: \"run_to_run\", \"any_device\" or \"exact\" (docs/python.md).")
    return "\n\n".join(textwrap.fill(line, 88) for line in lines)


def make(row: _table.Row):
    """rdx.<row.name>: a function of the row's signature whose body is one call,
    _<family>(row, <its parameters>, device, determinism), in the family's parameter order; a
    parameter the family takes and the row lacks gets the family's default (mean's ddof=0)."""
    impl = globals()["_" + row.family]
    sig = row.signature()
    taken = sig.parameters
    args = []
    for p in list(inspect.signature(impl).parameters.values())[1:]:
        args.append(p.name if p.name in taken else repr(p.default))
    missing = set(taken) - {p for p in inspect.signature(impl).parameters}
    if missing:
        raise TypeError(f"rdx._table: {row.name}'s family {row.family} takes no {missing}")
    source = f"def {row.name}{sig}:\n    return _impl(_row, {', '.join(args)})\n"
    scope = {"_impl": impl, "_row": row}
    exec(compile(source, f"<rdx._table: {row.name}>", "exec"), scope)  # noqa: S102 - the table's
    f = scope[row.name]
    f.__module__ = __name__
    f.__doc__ = docstring(row)
    return f


FUNCTIONS = {row.name: make(row) for row in _table.FUNCTIONS}
