"""Users' reductions and segments: rdx.reduce, rdx.ReductionKernel (PyOpenCL's), rdx.reduce_segments
and rdx.reduceat (NumPy's ufunc.reduceat). Users' expressions are librdx's (docs/custom.md):
OpenCL C expressions over x (x0 .. x3) and i (map), a and b (combine), checked before they are
compiled."""
from __future__ import annotations

import builtins
import math
import re
import sys

import numpy as np

from . import _dtypes, _rdx
from ._devices import Context, context, queue_context
from ._inputs import (INDEX_OPS, INTP, DeviceArray, array, axes, check_determinism, contiguous,
                      finish, keepdims_flag, type_name)
from ._reductions import _context, _inputs, _op

_RUN = "run_to_run"
_U8 = np.dtype(np.uint8)

# Operator names: rdx's and NumPy's (function and ufunc names).
_OPS = {
    "sum": "sum", "add": "sum", "prod": "prod", "multiply": "prod",
    "min": "min", "minimum": "min", "amin": "min", "max": "max", "maximum": "max", "amax": "max",
    "nanmin": "nanmin", "fmin": "nanmin", "nanmax": "nanmax", "fmax": "nanmax",
    "argmin": "argmin", "argmax": "argmax", "nanargmin": "nanargmin", "nanargmax": "nanargmax",
    "and": "and", "bitwise_and": "and", "or": "or", "bitwise_or": "or",
    "xor": "xor", "bitwise_xor": "xor",
}
_EXTREMES = ("min", "max", "nanmin", "nanmax")
_BITWISE = ("and", "or", "xor")
_UFUNCS = {"sum": np.add, "prod": np.multiply, "min": np.minimum, "max": np.maximum,
           "nanmin": np.fmin, "nanmax": np.fmax, "and": np.bitwise_and, "or": np.bitwise_or,
           "xor": np.bitwise_xor}
_CL_TYPES = {"i1": "char", "u1": "uchar", "i2": "short", "u2": "ushort", "i4": "int",
             "u4": "uint", "i8": "long", "u8": "ulong", "f2": "float", "f4": "float",
             "f8": "double", "b1": "uchar"}
_USES_I = re.compile(r"(?<![\w.])i(?!\w)")


def _op_name(op, name):
    """op as rdx's operator name: a name of _OPS or a NumPy ufunc (np.add, np.maximum)."""
    if isinstance(op, np.ufunc):
        op = op.__name__
    if not isinstance(op, str):
        raise TypeError(f"rdx.{name}: op must be an operator name or a NumPy ufunc, not "
                        f"{type(op).__name__}")
    try:
        return _OPS[op]
    except KeyError:
        raise ValueError(f"rdx.{name}: unknown operator {op!r} (one of: "
                         f"{', '.join(sorted(set(_OPS.values())))})") from None


def literal(v) -> str:
    """A value as an OpenCL C expression: strings as they are, numbers exactly (floats as hex
    literals, C99's notation)."""
    if isinstance(v, str):
        return v
    if isinstance(v, (bool, np.bool_)):
        return "1" if v else "0"
    if isinstance(v, (int, np.integer)):
        v = int(v)
        if v == -(1 << 63):
            return "(-9223372036854775807L - 1L)"
        if v >= 1 << 63:
            return f"{v}UL"
        return f"({v}L)" if v < 0 else (f"{v}L" if v > 0x7FFFFFFF else str(v))
    if isinstance(v, (float, np.floating)):
        v = float(v)
        if math.isnan(v):
            return "NAN"
        if math.isinf(v):
            return "INFINITY" if v > 0 else "(-INFINITY)"
        return f"({v.hex()})" if v < 0 else v.hex()
    raise TypeError(f"a number or an OpenCL C expression (a str), not {type(v).__name__}")


def _field(res: np.dtype) -> str:
    """The field type of a result dtype: float16 computes in float32 (rounded once at the end);
    bool is a byte."""
    if res.kind == "f" and res.itemsize == 2:
        return "f32"
    return type_name(res)


def _definition(op, res, map, combine, identity, name, rname):
    if op is not None:
        if combine is not None or identity is not None:
            raise ValueError(f"rdx.{name}: an operator (op) or combine and identity, not both")
        if op in INDEX_OPS:
            raise ValueError(f"rdx.{name}: {op} takes no map (its state has an index)")
        return _rdx.Definition(op, _field(res), map or "", "", "", rname)
    if combine is None or identity is None:
        raise ValueError(f"rdx.{name}: a reduction of your own needs combine and identity (or "
                         "op, a built-in operator)")
    return _rdx.Definition("", _field(res), literal(map) if map is not None else "",
                           literal(combine), literal(identity), rname)


def _user_dtype(op, dt, dtype, name):
    """The result dtype of a user's reduction: dtype, else np.sum's for sum and prod, else
    the element type (bool: uint8, a byte field)."""
    if dtype is not None:
        res = _dtypes.requested(dtype, name)
    elif op in ("sum", "prod"):
        res = _dtypes.sum_dtype(dt, None, name)
    else:
        res = dt
    return _U8 if res.kind == "b" else res


def _bitwise(op, a, axis, dtype, keepdims, device, determinism, name):
    a, dt = array(a, name)
    if dtype is not None:
        res = _dtypes.requested(dtype, name)
        if res != dt:
            a, dt = a.astype(res), res
    if dt.kind == "f":
        raise TypeError(f"rdx.{name}: {op} of {dt}: bitwise operators take integers and bool")
    ax = axes(axis, a.ndim, scalar_axis=True)
    value = _op(name, op, a, ax, "", device, determinism)[0]
    return finish(value, dt, a.shape, ax, keepdims_flag(keepdims), None)


def reduce(a, op=None, *, map=None, combine=None, identity=None, dtype=None, axis=None,
           keepdims=False, device=None, determinism=_RUN):
    """A built-in operator (op: "sum", "prod", "min", "max", "argmin", "argmax", the nan*
    forms, "and", "or", "xor", or a NumPy ufunc such as np.add), optionally over a map; or a
    reduction of your own: map (of x, the element, and i, its index), combine (of a and b) and
    identity, OpenCL C expressions, computed in dtype (default: the element type; np.sum's
    for sum and prod)."""
    from . import _reductions as r

    name = "reduce"
    check_determinism(determinism, name)
    op = None if op is None else _op_name(op, name)
    if map is None and combine is None and identity is None:
        if op is None:
            raise ValueError("rdx.reduce: op, or map, combine and identity")
        kw = {"device": device, "determinism": determinism}
        if op in ("sum", "prod"):
            return r.FUNCTIONS[op](a, axis=axis, dtype=dtype, keepdims=keepdims, **kw)
        if op in _BITWISE:
            return _bitwise(op, a, axis, dtype, keepdims, device, determinism, name)
        if dtype is not None:  # NumPy's dtype= of an extreme: the elements cast to it
            a = a.astype(dtype) if hasattr(a, "astype") else np.asarray(a).astype(dtype)
        return r.FUNCTIONS[op](a, axis=axis, keepdims=keepdims, **kw)
    a, dt = array(a, name)
    res = _user_dtype(op, dt, dtype, name)
    ax = axes(axis, a.ndim, scalar_axis=True)
    keepdims = keepdims_flag(keepdims)
    if map is not None and _USES_I.search(literal(map)):
        if ax is not None:
            raise NotImplementedError("rdx.reduce: a map that reads i with axis= (i is the "
                                      "element's index in the whole array only)")
        a = contiguous(a)  # i: the index in C order
    definition = _definition(op, res, map, combine, identity, name, "")
    ctx = _context(name, device, [a])
    value = _rdx.reduce_custom(ctx, _inputs([a]), definition, ax, determinism)
    return finish(value, res, a.shape, ax, keepdims, None)


# Segments -----------------------------------------------------------------------------------

def _segment_array(a, name):
    a, dt = array(a, name)
    if a.ndim != 1:
        raise ValueError(f"rdx.{name}: a 1-D array, not {a.ndim}-D")
    return contiguous(a), dt


def _offsets(offsets, n, name):
    o = np.asarray(offsets)
    if o.ndim != 1 or o.size == 0:
        raise ValueError(f"rdx.{name}: offsets must be a 1-D sequence of at least one offset")
    if o.dtype.kind not in "iu":
        raise TypeError(f"rdx.{name}: offsets must be integers, not {o.dtype}")
    if o[0] != 0:
        raise ValueError(f"rdx.{name}: offsets must start at 0, not {o[0]}")
    if o.size > 1 and np.any(o[1:] < o[:-1]):
        k = int(np.argmax(o[1:] < o[:-1]))
        raise ValueError(f"rdx.{name}: offsets decrease at {k + 1} ({o[k]} then {o[k + 1]})")
    if o[-1] > n:
        raise ValueError(f"rdx.{name}: the last offset {o[-1]} is past the array's {n} elements")
    return np.ascontiguousarray(o, dtype=np.uint64)


def reduce_segments(a, offsets, op=None, *, map=None, combine=None, identity=None, dtype=None,
                    device=None, determinism=_RUN):
    """One result per segment of a 1-D array: segment k is a[offsets[k]:offsets[k + 1]]
    (offsets start at 0, never decrease, end at most at len(a)). op or map/combine/identity as
    rdx.reduce; the result dtype is NumPy's for the operator; argmin and argmax count from each
    segment's start. An empty segment gives the identity, or ValueError where there is none."""
    name = "reduce_segments"
    check_determinism(determinism, name)
    op = None if op is None else _op_name(op, name)
    a, dt = _segment_array(a, name)
    o = _offsets(offsets, a.size, name)
    empty = o.size > 1 and bool(np.any(o[1:] == o[:-1]))
    ctx = _context(name, device, [a])
    if map is not None or combine is not None or identity is not None or op is None:
        res = _user_dtype(op, dt, dtype, name)
        definition = _definition(op, res, map, combine, identity, name, "")
        values = _rdx.reduce_segments_custom(ctx, _inputs([a]), o, definition, determinism)
        return values.astype(res, copy=False)
    if op in ("sum", "prod"):
        res = _dtypes.sum_dtype(dt, dtype, name)
        a, acc = _dtypes.sum_accumulator(a, res)
        ctx = _context(name, device, [a])
        values = _rdx.reduce_segments_op(ctx, _inputs([a])[0], o, op, acc, determinism)[0]
        return values.astype(res, copy=False)
    if op in _BITWISE and dt.kind == "f":
        raise TypeError(f"rdx.{name}: {op} of {dt}: bitwise operators take integers and bool")
    if dtype is not None and op not in INDEX_OPS:
        res = _dtypes.requested(dtype, name)
        if res != dt:
            a, dt = a.astype(res), res
            ctx = _context(name, device, [a])
    if empty and op not in _BITWISE:
        raise ValueError(f"rdx.{name}: an empty segment has no {op} (zero-size array to "
                         "reduction operation which has no identity)")
    values, indexes = _rdx.reduce_segments_op(ctx, _inputs([a])[0], o, op, "", determinism)
    if op in INDEX_OPS:
        return indexes.astype(INTP, copy=False)
    return values.astype(dt, copy=False)


def reduceat(a, indices, op="sum", *, dtype=None, device=None, determinism=_RUN):
    """NumPy's ufunc.reduceat of a 1-D array (np.add.reduceat(a, indices) is
    rdx.reduceat(a, indices, "sum")): result i reduces a[indices[i]:indices[i + 1]] where
    indices[i] < indices[i + 1], else it is a[indices[i]]; the last reduces a[indices[-1]:].
    op: sum, prod, min, max, nanmin, nanmax, and, or, xor (or their ufuncs)."""
    name = "reduceat"
    check_determinism(determinism, name)
    op = _op_name(op, name)
    if op in INDEX_OPS:
        raise ValueError(f"rdx.{name}: {op} is not a ufunc: it has no reduceat")
    source = a
    a, dt = _segment_array(a, name)
    n = a.size
    idx = np.asarray(indices)
    if idx.size == 0:
        idx = idx.astype(np.intp)  # [] is float64 to NumPy
    if idx.dtype.kind not in "iu":
        raise TypeError(f"rdx.{name}: indices must be integers, not {idx.dtype}")
    if idx.ndim != 1:
        raise ValueError(f"rdx.{name}: indices must be 1-D")
    idx = idx.astype(np.int64)
    bad = (idx < 0) | (idx >= n)
    if np.any(bad):
        raise IndexError(f"index {idx[np.argmax(bad)]} out-of-bounds in {name} [0, {n})")
    if op in ("sum", "prod"):
        res = _dtypes.sum_dtype(dt, dtype, name)
    else:
        res = _dtypes.requested(dtype, name) if dtype is not None else dt
    if idx.size == 0:
        return np.empty(0, res)
    # The pieces between every boundary, reduced on the device in one call; each result is a
    # run of pieces (one, unless the indices go back), combined on the host by NumPy.
    bounds = np.unique(np.concatenate(([0], idx, [n])))
    pos = np.searchsorted(bounds, idx)
    pieces_per = np.diff(np.append(pos, bounds.size - 1))
    if (np.any(pieces_per > 1) and determinism != _RUN and res.kind == "f"
            and op in ("sum", "prod")):
        raise _rdx.UnsupportedError(f"rdx.{name}: {determinism} sums of indices that go back "
                                    "(pieces combined on the host)")
    pieces = reduce_segments(source, bounds, op, dtype=dtype, device=device, determinism=determinism)
    out = _UFUNCS[op].reduceat(pieces, pos)
    back = np.zeros(idx.size, bool)
    back[:-1] = idx[:-1] >= idx[1:]
    if np.any(back):  # NumPy's rule: a[indices[i]] itself
        at = idx[back]
        if isinstance(a, DeviceArray):
            got = np.array([a.arr[int(k)].get() for k in at], dt)
        else:
            got = a[at].view(dt) if dt.kind == "b" else a[at]
        out[back] = got.astype(res)
    return out.astype(res, copy=False)


# PyOpenCL's ReductionKernel -------------------------------------------------------------------

_ARG_TYPES = {
    "char": "i1", "signed char": "i1", "uchar": "u1", "unsigned char": "u1",
    "short": "i2", "ushort": "u2", "unsigned short": "u2",
    "int": "i4", "uint": "u4", "unsigned int": "u4", "unsigned": "u4",
    "long": "i8", "ulong": "u8", "unsigned long": "u8",
    "half": "f2", "float": "f4", "double": "f8",
}
_QUALIFIERS = {"const", "__const", "__global", "global", "restrict", "__restrict",
               "__restrict__", "volatile", "__constant", "constant"}


def _parse_arguments(arguments):
    """PyOpenCL's arguments ("float *x, const float *y, float a", or a list of its VectorArg
    and ScalarArg) as [(is_vector, dtype, name)]."""
    out = []
    if isinstance(arguments, str):
        for part in arguments.split(","):
            part = part.strip()
            if not part:
                continue
            vector = "*" in part
            words = [w for w in part.replace("*", " ").split() if w not in _QUALIFIERS]
            if len(words) < 2 or not re.fullmatch(r"[A-Za-z_]\w*", words[-1]):
                raise ValueError(f"rdx.ReductionKernel: cannot read the argument {part!r}")
            ctype = " ".join(words[:-1])
            if ctype not in _ARG_TYPES:
                raise NotImplementedError(f"rdx.ReductionKernel: argument {part!r}: type "
                                          f"{ctype!r} (one of {', '.join(_ARG_TYPES)})")
            out.append((vector, np.dtype(_ARG_TYPES[ctype]), words[-1]))
    else:
        for arg in arguments:
            kind = type(arg).__name__
            if kind not in ("VectorArg", "ScalarArg") or not hasattr(arg, "name"):
                raise TypeError("rdx.ReductionKernel: arguments is a C argument list (a str) "
                                f"or PyOpenCL's VectorArg and ScalarArg, not {kind}")
            out.append((kind == "VectorArg", np.dtype(arg.dtype), arg.name))
    names = [n for _, _, n in out]
    if len(set(names)) != len(names):
        raise ValueError(f"rdx.ReductionKernel: an argument name repeats in {names}")
    return out


def _is_context(x) -> bool:
    if isinstance(x, _rdx.Context):
        return True
    cl = sys.modules.get("pyopencl")
    return cl is not None and isinstance(x, (cl.Context, cl.CommandQueue))


_PARAMS = ("dtype_out", "neutral", "reduce_expr", "map_expr", "arguments", "name", "options",
           "preamble")


class ReductionKernel:
    """PyOpenCL's ReductionKernel on librdx: ReductionKernel(dtype_out, neutral, reduce_expr,
    map_expr=None, arguments=None, name="reduce_kernel", *, device=None), or with PyOpenCL's
    context first: ReductionKernel(ctx, dtype_out, neutral, ...). Called with the arguments'
    values (arrays for the `*` ones: PyOpenCL arrays on the device, or host arrays; scalars for
    the others), it returns the reduction's value as a NumPy scalar of dtype_out.

    map_expr reads the arrays' elements as PyOpenCL's does, name[i] (or x0 .. x3 without
    arguments) and the index i; reduce_expr combines a and b; neutral is the identity."""

    def __init__(self, *args, device=None, **kwargs):
        ctx = kwargs.pop("ctx", None)
        if args and _is_context(args[0]):
            if ctx is not None:
                raise TypeError("ReductionKernel: ctx given twice")
            ctx, args = args[0], args[1:]
        if len(args) > len(_PARAMS):
            raise TypeError(f"ReductionKernel takes at most {len(_PARAMS)} arguments after ctx")
        params = dict(zip(_PARAMS, args))
        for k, v in kwargs.items():
            if k not in _PARAMS:
                raise TypeError(f"ReductionKernel: unexpected keyword argument {k!r}")
            if k in params:
                raise TypeError(f"ReductionKernel: {k} given twice")
            params[k] = v
        for k in ("dtype_out", "neutral", "reduce_expr"):
            if k not in params:
                raise TypeError(f"ReductionKernel: missing argument {k!r}")
        if ctx is not None and device is not None:
            raise TypeError("ReductionKernel: ctx or device=, not both")
        if params.get("options"):
            raise NotImplementedError("ReductionKernel: options (build options) are librdx's "
                                      "own")
        if params.get("preamble"):
            raise NotImplementedError("ReductionKernel: a preamble (librdx's expressions are "
                                      "expressions only: no helper functions or macros)")
        self.dtype_out = _dtypes.requested(params["dtype_out"], "ReductionKernel")
        self.name = params.get("name") or "reduce_kernel"
        self._ctx, self._device = ctx, device
        self._pyopencl_context = None  # a context made for a pyopencl.Context ctx
        self.arguments = (_parse_arguments(params["arguments"])
                          if params.get("arguments") is not None else None)
        reduce_expr = literal(params["reduce_expr"])
        map_expr = params.get("map_expr")
        map_expr = "x0" if map_expr is None else literal(map_expr)
        if self.arguments is not None:
            vectors = [n for v, _, n in self.arguments if v]
            if not vectors:
                raise ValueError("ReductionKernel: arguments name no array (a `*` argument)")
            if len(vectors) > 4:
                raise NotImplementedError(f"ReductionKernel: {len(vectors)} arrays (librdx's "
                                          "reductions read at most four)")
            map_expr = self._rename(map_expr, vectors)
        self.neutral = literal(params["neutral"])
        self.map_expr, self.reduce_expr = map_expr, reduce_expr

    @staticmethod
    def _rename(map_expr, vectors):
        """name[i] -> x0, x1, ... in the order of the arrays among the arguments."""
        which = {n: k for k, n in enumerate(vectors)}
        pattern = re.compile(r"\b(" + "|".join(map(re.escape, vectors)) + r")\s*\[\s*i\s*\]")
        out = pattern.sub(lambda m: f"x{which[m.group(1)]}", map_expr)
        left = re.search(r"\b(" + "|".join(map(re.escape, vectors)) + r")\b", out)
        if left:
            raise NotImplementedError(
                f"ReductionKernel: map_expr {map_expr!r} reads {left.group(1)} other than as "
                f"{left.group(1)}[i] (librdx's map reads each array's element i only)")
        return out

    def _scalars(self, expr, values):
        if not values:
            return expr
        pattern = re.compile(r"(?<![\w.])(" + "|".join(map(re.escape, values)) + r")(?!\w)")
        return pattern.sub(lambda m: values[m.group(1)], expr)

    def _context_for(self, arrays, queue):
        if queue is not None:
            return queue_context(queue)
        if self._device is not None:
            return context(self._device)
        ctx = self._ctx
        if ctx is None:
            return _context("ReductionKernel", None, arrays)
        if isinstance(ctx, _rdx.Context):
            return ctx
        cl = sys.modules["pyopencl"]
        if isinstance(ctx, cl.CommandQueue):
            return queue_context(ctx)
        for x in arrays:  # a pyopencl.Context: the arrays' queue where they have one on it
            if isinstance(x, DeviceArray) and x.queue is not None and x.context == ctx:
                return queue_context(x.queue)
        if self._pyopencl_context is None:
            self._pyopencl_context = Context.from_pyopencl(ctx)
        return self._pyopencl_context

    def __call__(self, *args, queue=None, wait_for=None, return_event=False, allocator=None,
                 out=None, range=None, slice=None, determinism=_RUN):
        """The reduction of the arguments' values: a NumPy scalar of dtype_out. queue: the
        PyOpenCL queue to run on (default: the arrays' own); wait_for: PyOpenCL events waited
        for first. return_event, out, range and slice are PyOpenCL's only."""
        del allocator  # nothing is allocated for the caller
        if return_event or out is not None or range is not None or slice is not None:
            raise NotImplementedError("ReductionKernel: return_event, out, range and slice are "
                                      "not supported (the result is a NumPy scalar)")
        check_determinism(determinism, "ReductionKernel")
        if wait_for:
            sys.modules["pyopencl"].wait_for_events(list(wait_for))
        spec = self.arguments
        if spec is None:
            spec = [(True, None, f"x{k}") for k in builtins.range(len(args))]
        if len(args) != len(spec):
            raise TypeError(f"ReductionKernel: {len(spec)} arguments expected, {len(args)} "
                            "given")
        arrays, scalars = [], {}
        for (vector, dt, name), value in zip(spec, args):
            if vector:
                a, adt = array(value, "ReductionKernel")
                if dt is not None and adt != dt:
                    raise TypeError(f"ReductionKernel: argument {name} is {adt}, declared {dt}")
                arrays.append(a)
            else:
                cl_type = _CL_TYPES[dt.str[1:]]
                scalars[name] = f"(({cl_type}){literal(dt.type(value))})"
        if not arrays or len(arrays) > 4:
            raise TypeError("ReductionKernel: one to four arrays")
        size = arrays[0].size
        for a in arrays:
            if a.size != size:
                raise ValueError(f"ReductionKernel: the arrays differ in size ({a.size} and "
                                 f"{size})")
        flat = [contiguous(a).reshape(-1) if a.ndim != 1 else a for a in arrays]
        definition = _rdx.Definition("", _field(self.dtype_out),
                                     self._scalars(self.map_expr, scalars),
                                     self._scalars(self.reduce_expr, scalars),
                                     self._scalars(self.neutral, scalars), self.name)
        if _USES_I.search(definition.map):
            flat = [contiguous(a) for a in flat]
        ctx = self._context_for(flat, queue)
        value = _rdx.reduce_custom(ctx, _inputs(flat), definition, None, determinism)
        return self.dtype_out.type(value)
