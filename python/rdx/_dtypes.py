"""NumPy's result dtypes, and the accumulator librdx runs each reduction in."""
from __future__ import annotations

import numpy as np

from ._inputs import BOOL, F64, INTP, reduced, type_name

_INT = np.dtype(np.int_)  # NumPy's sum of a smaller signed integer (and of bool)
_UINT = np.dtype(np.uint)  # ... of a smaller unsigned integer
_F16 = np.dtype(np.float16)
_F32 = np.dtype(np.float32)


def requested(dtype, name: str) -> np.dtype:
    res = np.dtype(dtype)
    if res.kind == "b" or not reduced(res):
        raise NotImplementedError(
            f"rdx.{name}: dtype {res}: the accumulator is an integer or float type of at most "
            "64 bits")
    return res


def sum_dtype(dt: np.dtype, dtype, name: str) -> np.dtype:
    """np.sum's and np.prod's result dtype: dtype, else the element type with bool and small
    integers widened to the platform's integer (int64 / uint64 on Linux)."""
    if dtype is not None:
        return requested(dtype, name)
    if dt.kind == "b" or (dt.kind == "i" and dt.itemsize < _INT.itemsize):
        return _INT
    if dt.kind == "u" and dt.itemsize < _UINT.itemsize:
        return _UINT
    return dt


def sum_accumulator(a: np.ndarray, res: np.dtype):
    """(the array to reduce, librdx's accumulator name or "") for a sum or product whose result
    is res. librdx widens an integer into a wider integer or a float at least as wide (f32 for
    integers of up to 32 bits, f64 for any), and a float into a wider float; an integer of the
    same width is reinterpreted (the same sum modulo 2^bits); anything else (float16, a
    narrower type) reduces a copy cast to res, as NumPy casts each element to dtype."""
    e = a.dtype
    if res == e:
        return a, ""
    if e.kind in "iu" and res.kind in "iu":
        if res.itemsize > e.itemsize:
            return a, type_name(res)
        if res.itemsize == e.itemsize:
            return a.view(res), ""
    elif res.kind == "f" and res != _F16 and res.itemsize >= e.itemsize and (
            e.kind in "iu" or res.itemsize > e.itemsize):
        return a, type_name(res)
    return a.astype(res), ""


def mean_dtype(dt: np.dtype, dtype, name: str) -> np.dtype:
    """np.mean's, np.var's and np.std's result dtype: dtype (an integer one computes NumPy's
    steps in it), else float64 for integers and bool, the element type for floats."""
    if dtype is not None:
        return requested(dtype, name)
    return dt if dt.kind == "f" else F64


def mean_accumulator(a: np.ndarray, res: np.dtype, dtype):
    """(the array, the accumulator name or ""): librdx's default (float64 where the device has
    it) unless dtype asks for float32 or float64; elements wider than dtype (float64 or 64-bit
    integers for float32), and any elements but float16 for float16, reduce a copy cast to
    dtype, as NumPy casts each element."""
    if dtype is None:
        return a, ""
    if res == _F16:  # no 16-bit accumulator: float16 elements compute in float32
        return (a if a.dtype == _F16 else a.astype(res)), ""
    if a.dtype.itemsize > res.itemsize:
        return a.astype(res), ""
    return a, type_name(res)


def float_dtype(dt: np.dtype) -> np.dtype:
    """np.linalg.norm's result: float64 for integers and bool, the element type for floats."""
    return dt if dt.kind == "f" else F64


# The result dtype rules of rdx/_table.py's rows: rule(element dtype, dtype=, function name).
# dot's and vdot's "result_type", np.result_type(a, b) of both arrays, is _inner's own
# (rdx/_reductions.py).
RESULT = {
    "sum": sum_dtype,
    "mean": mean_dtype,
    "element": lambda dt, dtype, name: dt,
    "intp": lambda dt, dtype, name: INTP,
    "bool": lambda dt, dtype, name: BOOL,
    "float": lambda dt, dtype, name: float_dtype(dt),
    "result_type": None,
}
