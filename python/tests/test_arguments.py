"""Odd values of axis, keepdims and ddof (bools, floats, strings, NumPy integers, 0-d arrays,
None, lists) on 0-d, 1-D and 2-D arrays: the result NumPy gives, or an exception of the kind it
raises. NumPy's own functions differ here (sum takes axis 0 of a 0-d array, mean does not;
argmax and norm take any keepdims' truth, sum only integers), and rdx follows each."""
import numpy as np
import pytest

import rdx
from helpers import INEXACT, NUMPY, check, numpy_result, rdx_result, tolerance

AxisError = getattr(np, "exceptions", np).AxisError
ARRAYS = {"0-d float": np.array(5.0), "0-d int": np.array(3, np.int16),
          "1-D": np.arange(1.0, 4.0), "2-D": np.arange(1, 7, dtype=np.int32).reshape(2, 3)}
AXES = [0, -1, 1, 2, True, np.True_, 1.0, "0", np.int64(0), np.array(1), None, (), (0,),
        (True,), (0, -1), [0]]
KEEPDIMS = [True, False, "yes", "", 1, 0, 2, None, np.int64(1), 1.0, [1]]
DDOFS = [True, False, 1, 1.5, np.int64(1), np.float32(1.0), np.array(1), "1", None]
KINDS = (AxisError, NotImplementedError, TypeError, ValueError, IndexError)


def compare(name, a, what, **kwargs):
    want = numpy_result(NUMPY[name], a, **kwargs)
    if name != "norm" and isinstance(kwargs.get("axis"), (bool, np.bool_)):
        want = TypeError("an integer is required")  # NumPy 2's (NumPy 1: some AxisErrors)
    got = rdx_result(getattr(rdx, name), a, **kwargs)
    if isinstance(want, Exception):  # the kind of NumPy's exception (UFuncTypeError: TypeError)
        kind = next((k for k in KINDS if isinstance(want, k)), type(want))
        assert isinstance(got, kind), f"{what}: NumPy raised {want!r}, rdx gave {got!r}"
        return
    check(got, want, tolerance(np.float64) if name in INEXACT else 0.0, what)


def _id(v):
    return f"{type(v).__name__}({v!r})"


@pytest.mark.parametrize("name", list(NUMPY))
def test_axis(name):
    for label, a in ARRAYS.items():
        for axis in AXES:
            compare(name, a, f"{name}({label}, axis={_id(axis)})", axis=axis)
        for axis in (0, -1):
            compare(name, a, f"{name}({label}, axis={axis}, keepdims)", axis=axis,
                    keepdims=True)


@pytest.mark.parametrize("name", list(NUMPY))
def test_keepdims(name):
    for label, a in ARRAYS.items():
        for keepdims in KEEPDIMS:
            compare(name, a, f"{name}({label}, keepdims={_id(keepdims)})", keepdims=keepdims)
        if name == "count_nonzero":
            compare(name, a, f"{name}({label}, axis=0, keepdims='yes')", axis=0,
                    keepdims="yes")


@pytest.mark.parametrize("name", ["var", "std", "nanvar", "nanstd"])
def test_ddof(name):
    for label, a in ARRAYS.items():
        for ddof in DDOFS:
            compare(name, a, f"{name}({label}, ddof={_id(ddof)})", ddof=ddof)


def test_zero_d():
    """The issue's cases, with NumPy 2's answers written out."""
    z = np.array(5.0)
    assert rdx.sum(z, axis=0) == 5.0 and rdx.sum(z, axis=-1) == 5.0
    assert type(rdx.sum(z, keepdims=True)) is np.float64
    assert type(rdx.argmax(z, axis=0, keepdims=True)) is np.intp
    with pytest.raises(AxisError):
        rdx.mean(z, axis=0)
    with pytest.raises(TypeError):
        rdx.sum(np.ones((2, 3)), axis=True)
    with pytest.raises(TypeError):
        rdx.sum(np.ones((2, 3)), keepdims="yes")
    assert rdx.argmax(np.ones((2, 3)), keepdims="yes").shape == (1, 1)
    assert rdx.var(np.arange(4.0), ddof=True) == np.var(np.arange(4.0), ddof=1)
