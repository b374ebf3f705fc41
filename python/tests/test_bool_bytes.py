"""Bool arrays whose bytes are not all 0 and 1 (made by frombuffer or view(bool)): NumPy counts
every non-zero byte as True, and so does every rdx function; the caller's bytes stay as they
are."""
import numpy as np
import pytest

import rdx
from helpers import INEXACT, NUMPY, check, numpy_result, rdx_result, tolerance

BYTES = bytes([0, 2, 1, 255, 0, 7, 1, 128, 3, 0, 0, 1])
INTS = np.arange(12, dtype=np.int32)



def bools():
    """A read-only bool array over BYTES (frombuffer), and a writable one (view(bool))."""
    return [np.frombuffer(BYTES, dtype=bool), np.frombuffer(BYTES, np.uint8).copy().view(bool)]


def compare(name, a, **kwargs):
    want = numpy_result(NUMPY[name], a, **kwargs)
    got = rdx_result(getattr(rdx, name), a, **kwargs)
    rtol = tolerance(np.float64) if name in INEXACT else 0.0
    check(got, want, rtol, f"{name}(bool bytes, {kwargs})")


@pytest.mark.parametrize("name", list(NUMPY))
def test_functions(name):
    for b in bools():
        before = b.view(np.uint8).copy()
        compare(name, b)
        compare(name, b[1::3])  # a strided view
        m = b.reshape(3, 4)
        compare(name, m, axis=0)
        compare(name, m.T, axis=1)
        if name not in ("argmin", "argmax", "nanargmin", "nanargmax"):
            compare(name, m, axis=(0, 1))
        np.testing.assert_array_equal(b.view(np.uint8), before)  # never modified


def test_dtypes_products_and_segments():
    b = bools()[0]
    check(rdx.sum(b, dtype=np.float32), np.sum(b, dtype=np.float32))
    check(rdx.sum(b, dtype=np.int8), np.sum(b, dtype=np.int8))
    check(rdx.mean(b, dtype=np.float32), np.mean(b, dtype=np.float32), tolerance(np.float32))
    check(rdx.dot(b, INTS), np.dot(b, INTS))
    check(rdx.dot(INTS, b), np.dot(INTS, b))
    check(rdx.dot(b, b), np.dot(b, b))
    check(rdx.vdot(b, INTS), np.vdot(b, INTS))
    for op, ufunc in (("sum", np.add), ("max", np.maximum), ("xor", np.bitwise_xor),
                      ("or", np.bitwise_or), ("and", np.bitwise_and)):
        check(rdx.reduceat(b, [0, 5, 2, 9], op), ufunc.reduceat(b, [0, 5, 2, 9]), what=op)
        check(rdx.reduce(b, op), ufunc.reduce(b), what=op)
    check(rdx.reduce_segments(b, [0, 3, 3, 12], "sum"),
          np.array([np.sum(b[:3]), 0, np.sum(b[3:])]))
    check(rdx.reduce_segments(b, [0, 5, 12], "argmax"),
          np.array([np.argmax(b[:5]), np.argmax(b[5:])]))
    check(rdx.reduce(b, map="x * 3", combine="a + b", identity=0, dtype=np.int64),
          np.int64(3 * np.count_nonzero(b)))
    lo, hi = rdx.minmax(b)
    check(lo, np.min(b))
    check(hi, np.max(b))
