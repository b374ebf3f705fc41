"""Arrays and axes as NumPy takes them, made ready for the extension, and results made NumPy's."""
from __future__ import annotations

import math
import operator

import numpy as np

from . import _rdx
from ._device import DeviceArray, pyopencl_array, pyopencl_buffer

AxisError = getattr(np, "exceptions", np).AxisError  # NumPy 2 has it in numpy.exceptions only

DETERMINISMS = ("run_to_run", "any_device", "exact")
INTP = np.dtype(np.intp)
F64 = np.dtype(np.float64)
BOOL = np.dtype(np.bool_)
_U8 = np.dtype(np.uint8)


def _type_map():
    """librdx's element types as the extension lists them (python/src/arrays.cpp, types(): one
    row per rdx::Type, the one map of dtypes): {NumPy's dtype code without its byte order
    ("f4"): librdx's name ("f32")}. Types NumPy has no dtype for (bf16) are not in it."""
    return {npy[1:]: name for name, npy, _ in _rdx.types() if npy}


def _supported(names) -> str:
    """The dtypes rdx reduces, for messages: "bool, int8 .. int64, uint8 .. uint64, float16,
    float32 and float64"."""
    dts = [np.dtype(code) for code in names]
    parts = ["bool"]
    for kind in "iuf":
        of = sorted((d for d in dts if d.kind == kind), key=lambda d: d.itemsize)
        if kind in "iu" and len(of) > 2:
            parts.append(f"{of[0].name} .. {of[-1].name}")
        else:
            parts.extend(d.name for d in of)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


_NAMES = _type_map()
# librdx's operators whose results are indexes (python/src/arrays.cpp, ops(): rdx::is_index_op).
INDEX_OPS = frozenset(name for name, index in _rdx.ops() if index)
_SUPPORTED = _supported(_NAMES)
# Native dtypes other than bool, by item size: array() reads them in place.
_READY = {np.dtype(k).newbyteorder("="): np.dtype(k).itemsize for k in _NAMES}


def reduced(dt: np.dtype) -> bool:
    """Whether rdx reduces arrays of dt (any byte order): bool and librdx's types."""
    return dt.kind == "b" or dt.str[1:] in _NAMES


def array(a, name: str):
    """(the array the kernels read, its dtype as NumPy's results have it: native byte order).
    Bool reads as uint8 bytes of 0 and 1 (bool_bytes); a byte-swapped array, or one whose
    strides are not whole elements, is copied; nothing else is. A PyOpenCL array is a
    DeviceArray, read in place on the device (an empty one: an empty NumPy array of its shape
    and dtype)."""
    if type(a) is not np.ndarray:
        if pyopencl_array(a):
            return device_array(a, name)
        a = host_array(a, name)
    dt = a.dtype
    item = _READY.get(dt)  # the native dtypes read as they are (a dict: no per-call tests)
    if item is None:
        if not reduced(dt):
            raise TypeError(f"rdx.{name}: arrays of {dt} are not reduced (only {_SUPPORTED})")
        if not dt.isnative:
            dt = dt.newbyteorder("=")
            a = a.astype(dt)
        if dt.kind == "b":
            a = bool_bytes(a)
        return a, dt
    if item > 1:
        for s in a.strides:
            if s % item:
                return a.copy(), dt
    return a, dt


def bool_bytes(a: np.ndarray) -> np.ndarray:
    """A bool array as bytes of 0 and 1: NumPy counts every non-zero byte as True, and a bool
    array made by view(bool) or frombuffer may hold any byte. A view of the caller's bytes
    where they are all 0 or 1, else a copy of them mapped to 0 and 1 (the caller's array is
    never modified)."""
    u = a.view(_U8)
    if u.size and u.max() > 1:
        u = np.not_equal(u, 0).view(_U8)
    return u


def device_array(a, name: str):
    """array() of a pyopencl.array.Array."""
    dt = np.dtype(a.dtype)
    if not reduced(dt):
        raise TypeError(f"rdx.{name}: arrays of {dt} are not reduced (only {_SUPPORTED})")
    if a.size == 0:  # no buffer to read (PyOpenCL gives none): NumPy's empty array
        return array(np.empty(a.shape, dt), name)
    if dt.kind == "b":
        return DeviceArray(a, _U8, name).bool_bytes(), dt
    return DeviceArray(a, dt, name), dt


def host_array(a, name: str) -> np.ndarray:
    """Anything else as a NumPy array: a DLPack producer of host memory through
    numpy.from_dlpack, the rest through numpy.asarray (the buffer protocol, __array__, lists).
    A bare pyopencl.Buffer, whose dtype is not known, and DLPack device arrays are refused."""
    if pyopencl_buffer(a):
        raise TypeError(f"rdx.{name}: a pyopencl.Buffer has no dtype or length: pass "
                        "rdx.from_buffer(buffer, dtype, count, offset, queue=queue) or a "
                        "pyopencl.array.Array")
    if hasattr(a, "__dlpack__") and hasattr(a, "__dlpack_device__"):
        kind = int(a.__dlpack_device__()[0])
        if kind == 1:  # kDLCPU
            try:
                return np.from_dlpack(a)
            except (BufferError, RuntimeError, TypeError, ValueError):
                pass  # a dtype NumPy's DLPack import lacks (bool in NumPy 1): asarray below
        elif not hasattr(a, "__array__") and not hasattr(a, "__array_interface__"):
            raise _rdx.UnsupportedError(
                f"rdx.{name}: a DLPack array on device type {kind}: rdx reads host memory "
                "through DLPack (device DLPack is not supported; PyOpenCL arrays are)")
    return np.asarray(a)


def contiguous(a):
    """a as one C-order run: NumPy's copy where it is not one; a non-contiguous DeviceArray
    is NotImplementedError (no copy on the device)."""
    if isinstance(a, DeviceArray):
        return a.contiguous()
    return np.ascontiguousarray(a)


def type_name(dt: np.dtype) -> str:
    """librdx's name of a dtype ("f32"); bool is "u8"."""
    return "u8" if dt.kind == "b" else _NAMES[dt.str[1:]]


def check_determinism(determinism, name: str) -> None:
    if determinism not in DETERMINISMS:
        raise ValueError(
            f"rdx.{name}: determinism {determinism!r} is not one of {', '.join(DETERMINISMS)}")


def index(item) -> int:
    """An axis as NumPy reads it: an integer (operator.index: int, numpy integers, 0-d integer
    arrays), never a bool (NumPy's TypeError)."""
    if isinstance(item, (bool, np.bool_)):
        raise TypeError("an integer is required")
    return operator.index(item)


def axes(axis, ndim: int, scalar_axis: bool = False):
    """axis (None, an int, a tuple of ints; negative ones count from the end) as increasing
    axes, or None where every axis is reduced. scalar_axis: NumPy's ufunc reductions (sum, min,
    argmax, any, ...) take one axis 0 or -1 of a 0-d array (not in a tuple) as every axis;
    mean, var, std and norm do not."""
    if axis is None:
        return None
    if ndim == 0 and scalar_axis and not isinstance(axis, tuple):
        k = index(axis)
        if k not in (0, -1):
            raise AxisError(k, ndim)
        return None
    items = axis if isinstance(axis, tuple) else (axis,)
    out = []
    for item in items:
        k = index(item)
        if not -ndim <= k < ndim:
            raise AxisError(k, ndim)
        if k < 0:
            k += ndim
        if k in out:
            raise ValueError("duplicate value in 'axis'")
        out.append(k)
    if len(out) == ndim:
        return None
    out.sort()
    return tuple(out)


def one_axis(axis, ndim: int):
    """argmin's and argmax's axis: None or one int (a tuple is a TypeError, as in NumPy)."""
    if axis is None:
        return None
    return axes(index(axis), ndim, scalar_axis=True)


def keepdims_flag(keepdims) -> bool:
    """keepdims as NumPy's ufunc reductions (and mean, var, std) take it: anything
    operator.index takes (a bool, an int); a str or None is a TypeError. (argmin, argmax and
    norm take any value's truth instead: bool(keepdims).)"""
    return bool(operator.index(keepdims))


def sizes(shape, ax):
    """(elements reduced into each result, results)."""
    if ax is None:
        return math.prod(shape), 1
    reduced = kept = 1
    for k, n in enumerate(shape):
        if ax is None or k in ax:
            reduced *= n
        else:
            kept *= n
    return reduced, kept


def finish(value, dtype: np.dtype, shape, ax, keepdims: bool, out):
    """A result as NumPy gives it: value (a Python number or a NumPy array of the kept axes)
    in dtype; a NumPy scalar where no axis is kept, unless keepdims keeps them all as 1 (a 0-d
    input's result is a scalar even then, as NumPy's). A PyOpenCL array of results stays on
    the device (finish_on_device)."""
    if type(value) is not np.ndarray:
        if pyopencl_array(value):
            return finish_on_device(value, dtype, shape, ax, keepdims, out)
        if not keepdims and out is None:
            return dtype.type(value)  # a whole reduction's scalar, at its cost
    keep = keepdims and len(shape) > 0
    if isinstance(value, np.ndarray):
        r = value.astype(dtype, copy=False)
        if r.ndim == 0 and not keep:
            r = r[()]
    else:
        r = dtype.type(value)
    if keep:
        r = np.asarray(r).reshape(
            tuple(1 if ax is None or k in ax else n for k, n in enumerate(shape)))
    if out is not None:
        return into(out, r)
    return r


def finish_on_device(value, dtype: np.dtype, shape, ax, keepdims: bool, out):
    """finish() of results left on the device (a PyOpenCL array of the kept axes): cast to dtype
    there (indexes, u64, read as intp: the same bits), keepdims' axes of 1 as a reshape. Only
    out= (a NumPy array, as NumPy's) and bool results are read back to the host."""
    if dtype.kind == "b":
        value = value.get().astype(dtype)
    elif value.dtype != dtype:
        same_bits = value.dtype.kind in "iu" and dtype.kind in "iu" and (
            value.dtype.itemsize == dtype.itemsize)
        value = value.view(dtype) if same_bits else value.astype(dtype)
    if keepdims and len(shape) > 0:
        value = value.reshape(tuple(1 if k in ax else n for k, n in enumerate(shape)))
    return value if out is None else into(out, value)


def to_host(value):
    """A result as a host value: a PyOpenCL array of results read back, anything else as is."""
    return value.get() if pyopencl_array(value) else value


def into(out, r):
    """out=: the result written into the caller's array, which is returned: a NumPy array, or a
    PyOpenCL array, written on its queue (results on the device copied there, cast on the device
    where the dtypes differ; results on the host moved there)."""
    if pyopencl_array(out):
        return _into_device(out, r)
    if not isinstance(out, np.ndarray):
        raise TypeError("out must be a numpy.ndarray or a pyopencl.array.Array, not "
                        f"{type(out).__name__}")
    if out.shape != np.shape(r):
        raise ValueError(f"out has shape {out.shape}, the result {np.shape(r)}")
    np.copyto(out, to_host(r), casting="unsafe")
    return out


def _into_device(out, r):
    shape = tuple(map(int, out.shape))
    if shape != tuple(np.shape(r)):
        raise ValueError(f"out has shape {shape}, the result {np.shape(r)}")
    if pyopencl_array(r):
        v = r if r.dtype == out.dtype else r.astype(out.dtype)
        if out.size and tuple(v.strides) != tuple(out.strides):
            raise NotImplementedError(f"out=: a PyOpenCL array of strides {out.strides} (the "
                                      f"results' are {v.strides}): pass a C-contiguous one")
        out[...] = v  # on the device
        return out
    if out.size and not out.flags.c_contiguous:
        raise NotImplementedError(f"out=: a PyOpenCL array of strides {out.strides}: pass a "
                                  "C-contiguous one")
    out.set(np.asarray(r).astype(out.dtype, order="C"))
    return out


def asnumpy(x):
    """x as a NumPy array: a PyOpenCL array (rdx's results left on the device) read back to the
    host, anything else through numpy.asarray."""
    return x.get() if pyopencl_array(x) else np.asarray(x)
