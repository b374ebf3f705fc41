"""rdx.reduce (built-in operators by name or ufunc, users' map/combine/identity), PyOpenCL's
ReductionKernel on host arrays, and DLPack producers, against NumPy."""
import numpy as np
import pytest

import rdx
from helpers import check, data

A = data(np.float32, (30, 40), seed=11)
I = data(np.int32, (30, 40), seed=12)


@pytest.mark.parametrize("op, ref", [
    ("sum", np.sum), (np.add, np.sum), ("max", np.max), ("minimum", np.min),
    ("argmax", np.argmax), ("nanmin", np.nanmin)])
def test_builtin_names(op, ref):
    check(rdx.reduce(A, op), ref(A))
    check(rdx.reduce(A, op, axis=1), ref(A, axis=1))
    if op != "argmax":
        check(rdx.reduce(I, op, axis=(0, 1), keepdims=True), ref(I, axis=(0, 1), keepdims=True))


def test_builtin_dtype_and_bitwise():
    check(rdx.reduce(I.astype(np.int8), "sum"), np.sum(I.astype(np.int8)))  # int64, as np.sum
    check(rdx.reduce(I, "sum", dtype=np.float64, axis=0), np.sum(I, dtype=np.float64, axis=0))
    check(rdx.reduce(I, "max", dtype=np.int64), np.maximum.reduce(I, axis=None, dtype=np.int64))
    for op, uf in (("and", np.bitwise_and), ("or", np.bitwise_or), ("xor", np.bitwise_xor)):
        check(rdx.reduce(I, op), uf.reduce(I, axis=None))
        check(rdx.reduce(I, uf, axis=0), uf.reduce(I, axis=0))
    b = I > 0
    check(rdx.reduce(b, "and", axis=1), np.bitwise_and.reduce(b, axis=1))
    check(rdx.reduce(b, "xor"), np.bitwise_xor.reduce(b, axis=None))
    with pytest.raises(TypeError):
        rdx.reduce(A, "and")


def test_user_reduction():
    a64 = A.astype(np.float64)
    check(rdx.reduce(A, map="x * x", combine="a + b", identity=0), np.sum(A * A))
    check(rdx.reduce(A, map="x * x", combine="a + b", identity="0", axis=0),
          np.sum(A * A, axis=0))
    check(rdx.reduce(A, map="x * x", combine="a + b", identity=0, axis=1, keepdims=True),
          np.sum(A * A, axis=1, keepdims=True))
    # computed in dtype; the map's i is the element's index in C order, also for views
    check(rdx.reduce(A, map="x", combine="a + b", identity=0.0, dtype=np.float64),
          np.sum(a64))
    check(rdx.reduce(A[::-1, ::2], map="(double)i * x", combine="a + b", identity=0,
                     dtype=np.float64),
          np.sum(np.arange(A[:, ::2].size) * A[::-1, ::2].ravel().astype(np.float64)))
    check(rdx.reduce(I, combine="max(a, b)", identity="INT_MIN"), np.max(I))
    check(rdx.reduce(A, combine="fmax(a, b)", identity=-np.inf, axis=0), np.max(A, axis=0))
    # an operator over a map (transform-reduce); sum and prod widen as np.sum does
    check(rdx.reduce(A, "max", map="fabs(x)", axis=1), np.max(np.abs(A), axis=1))
    check(rdx.reduce(I.astype(np.int16), "sum", map="x * x"),
          np.sum(I.astype(np.int64) ** 2))
    check(rdx.reduce(A.astype(np.float16), "sum", map="x"), np.sum(A.astype(np.float16)))
    check(rdx.reduce(np.zeros(0, np.float32), combine="fmax(a, b)", identity=-np.inf),
          np.float32(-np.inf))  # an empty input: the identity


def test_user_reduction_errors():
    with pytest.raises(ValueError):  # neither op nor combine/identity
        rdx.reduce(A)
    with pytest.raises(ValueError):
        rdx.reduce(A, map="x", combine="a + b")  # no identity
    with pytest.raises(ValueError):
        rdx.reduce(A, "sum", map="x", combine="a + b", identity=0)  # both
    with pytest.raises(ValueError):
        rdx.reduce(A, "argmax", map="x")
    with pytest.raises(ValueError):
        rdx.reduce(A, "median")
    with pytest.raises(TypeError):
        rdx.reduce(A, 3)
    with pytest.raises(NotImplementedError):
        rdx.reduce(A, map="x * i", combine="a + b", identity=0, axis=0)
    with pytest.raises(rdx.ArgumentError, match="foo"):  # refused before compiling
        rdx.reduce(A, map="foo(x)", combine="a + b", identity=0)
    with pytest.raises(rdx.ArgumentError):
        rdx.reduce(A, map="x[0]", combine="a + b", identity=0)
    with pytest.raises(rdx.BuildError) as e:  # passes the checks, does not compile
        rdx.reduce(A, map="fmax(x)", combine="a + b", identity=0)
    assert "fmax(x)" in str(e.value) and "map" in str(e.value)
    with pytest.raises(rdx.ArgumentError, match="neutral"):  # an identity that is not one
        rdx.reduce(A, map="x", combine="a + b", identity=5)
    check(rdx.reduce(A, map="x", combine="a + b", identity=0), np.sum(A))  # still usable


def _escaped(s):
    """librdx's printable(): printable ASCII as it is, \\, \\n, \\t, \\r, other bytes \\xNN."""
    named = {"\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r"}
    return "".join(named.get(c, c if 0x20 <= ord(c) < 0x7f else f"\\x{ord(c):02x}") for c in s)


@pytest.mark.parametrize("bad", ["x +\x00 tail_after_nul", "x +\n tail_after_newline",
                                 "x \x1b[31m tail_after_escape"], ids=["nul", "newline", "esc"])
def test_control_characters_in_messages(bad):
    """A message quoting an expression holds all of it, its control characters escaped: a NUL
    does not cut it, a newline does not split it, an escape does not reach the terminal."""
    with pytest.raises(rdx.Error) as e:
        rdx.reduce(A, map=bad, combine="a + b", identity=0)
    message = str(e.value)
    assert _escaped(bad) in message, message
    assert not any(c in message for c in "\x00\x1b\r"), repr(message)
    if isinstance(e.value, rdx.ArgumentError):  # one line (a BuildError adds the compiler's)
        assert "\n" not in message, repr(message)


def test_reduction_kernel_host():
    x, y = data(np.float32, 1000, seed=1), data(np.float64, 1000, seed=2)
    dot = rdx.ReductionKernel(np.float64, neutral="0", reduce_expr="a+b",
                              map_expr="x[i]*y[i]", arguments="const float *x, double *y")
    assert type(dot(x, y)) is np.float64
    assert dot(x, y) == np.dot(x.astype(np.float64), y)
    # PyOpenCL's spelling: __global qualifiers, a scalar argument, keywords
    axpy = rdx.ReductionKernel(dtype_out=np.float64, neutral=0, reduce_expr="a + b",
                               map_expr="s * x[i] + y [ i ]",
                               arguments="__global const float *x, __global const double *y, "
                                         "double s", name="axpy")
    assert axpy(x, y, 2.5) == np.sum(2.5 * x.astype(np.float64) + y)
    assert axpy(x, y, -0.5) == np.sum(-0.5 * x.astype(np.float64) + y)
    # no arguments: the core's names x0 .. x3; the index i
    idx = rdx.ReductionKernel(np.int64, "0", "a + b", "(long)i * x0")
    ints = np.arange(100, dtype=np.int64)
    assert idx(ints) == np.sum(ints * ints)
    mx = rdx.ReductionKernel(np.float32, "-INFINITY", "fmax(a, b)", "fabs(v[i])", "float *v")
    assert mx(x) == np.max(np.abs(x))


def test_reduction_kernel_errors():
    with pytest.raises(NotImplementedError):  # element i only
        rdx.ReductionKernel(np.float32, "0", "a+b", "x[i+1]", "float *x")
    with pytest.raises(NotImplementedError):
        rdx.ReductionKernel(np.float32, "0", "a+b", "x[i]", "float *x", preamble="#define A 1")
    with pytest.raises(NotImplementedError):
        rdx.ReductionKernel(np.float32, "0", "a+b", "x[i]", "float2 *x")
    with pytest.raises(ValueError):
        rdx.ReductionKernel(np.float32, "0", "a+b", "s", "float s")  # no array
    with pytest.raises(TypeError):
        rdx.ReductionKernel(np.float32, "0")
    k = rdx.ReductionKernel(np.float32, "0", "a+b", "x[i]", "float *x")
    with pytest.raises(TypeError):  # the declared type is the array's
        k(np.zeros(4, np.float64))
    with pytest.raises(TypeError):
        k(np.zeros(4, np.float32), np.zeros(4, np.float32))
    with pytest.raises(NotImplementedError):
        k(np.zeros(4, np.float32), return_event=True)
    bad = rdx.ReductionKernel(np.float32, "0", "a+b", "fmax(x[i])", "float *x")
    with pytest.raises(rdx.BuildError, match="fmax"):
        bad(np.zeros(4, np.float32))


class _DLPackOnly:
    """A producer with DLPack only (no buffer protocol, no __array__)."""

    def __init__(self, a, device=(1, 0)):
        self._a, self._device = a, device

    def __dlpack__(self, stream=None):
        return self._a.__dlpack__()

    def __dlpack_device__(self):
        return self._device


def test_dlpack_host_producers():
    check(rdx.sum(_DLPackOnly(A)), np.sum(A))
    check(rdx.argmax(_DLPackOnly(I), axis=0), np.argmax(I, axis=0))
    check(rdx.reduce(_DLPackOnly(A[:, ::3]), "max"), np.max(A[:, ::3]))
    with pytest.raises(NotImplementedError):  # a device's memory (kDLCUDA)
        rdx.sum(_DLPackOnly(A, (2, 0)))
