"""Every function against NumPy for every dtype: whole arrays, one axis, several axes, negative
axes, keepdims; the result's type (NumPy scalar or ndarray), dtype, shape and value."""
import numpy as np
import pytest

import rdx
from helpers import DTYPES, IDS, check, data, numpy_result, prod_data, rdx_result, tolerance

SHAPE = (3, 4, 5)
# The single-axis form for some dtypes only (each dtype and form builds its own kernels: about
# half a second each on PoCL); test_more_axis_forms and test_properties add more.
AXIS_FORM_DTYPES = ("bool", "uint16", "int64", "float16", "float32")

# name: (NumPy's function, exact?, data). Inexact ones are compared within helpers.tolerance.
REDUCTIONS = {
    "sum": (np.sum, True, data),
    "prod": (np.prod, True, prod_data),
    "nansum": (np.nansum, True, data),
    "nanprod": (np.nanprod, True, prod_data),
    "min": (np.min, True, data),
    "max": (np.max, True, data),
    "nanmin": (np.nanmin, True, data),
    "nanmax": (np.nanmax, True, data),
    "mean": (np.mean, False, data),
    "var": (np.var, False, data),
    "std": (np.std, False, data),
    "nanmean": (np.nanmean, False, data),
    "nanvar": (np.nanvar, False, data),
    "nanstd": (np.nanstd, False, data),
    "any": (np.any, True, data),
    "all": (np.all, True, data),
    "count_nonzero": (np.count_nonzero, True, data),
    "norm": (np.linalg.norm, False, data),
    "ptp": (np.ptp, True, data),
}
INDEXES = {"argmin": np.argmin, "argmax": np.argmax, "nanargmin": np.nanargmin,
           "nanargmax": np.nanargmax}


def compare(name, a, **kwargs):
    ref, exact, _ = REDUCTIONS[name]
    want = numpy_result(ref, a, **kwargs)
    got = rdx_result(getattr(rdx, name), a, **kwargs)
    res = np.asarray(want).dtype if not isinstance(want, Exception) else a.dtype
    check(got, want, 0.0 if exact else tolerance(a.dtype, res), f"{name}({a.dtype}, {kwargs})")


@pytest.mark.parametrize("dtype", DTYPES, ids=IDS)
@pytest.mark.parametrize("name", list(REDUCTIONS))
def test_whole_and_axes(name, dtype):
    a = REDUCTIONS[name][2](dtype, SHAPE)
    compare(name, a)                                 # the whole array: a NumPy scalar
    if name == "norm":
        compare(name, a, axis=(0, 2), keepdims=True)  # Frobenius over two axes
        compare(name, a, axis=-1)
        return
    compare(name, a, axis=(0, -1), keepdims=True)    # several axes, one negative
    if a.dtype.name in AXIS_FORM_DTYPES:             # one middle axis: librdx's axis form
        compare(name, a, axis=1)


@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64], ids=str)
@pytest.mark.parametrize("name", ["sum", "max", "nanmin", "mean", "var", "any", "count_nonzero"])
def test_more_axis_forms(name, dtype):
    a = data(dtype, SHAPE, seed=3)
    compare(name, a, axis=0)
    compare(name, a, axis=-1)
    compare(name, a, axis=(0, 1))
    compare(name, a, axis=(0, 1, 2))
    compare(name, a, axis=())
    compare(name, a, keepdims=True)


@pytest.mark.parametrize("dtype", DTYPES, ids=IDS)
@pytest.mark.parametrize("name", list(INDEXES))
def test_indexes(name, dtype):
    a = data(dtype, SHAPE, seed=5)  # small integers: ties, the first one wins
    for kwargs in ({}, {"axis": 0}, {"axis": -1, "keepdims": True}):
        want = numpy_result(INDEXES[name], a, **kwargs)
        check(rdx_result(getattr(rdx, name), a, **kwargs), want, 0.0, f"{name} {kwargs}")


@pytest.mark.parametrize("dtype", DTYPES, ids=IDS)
def test_minmax(dtype):
    a = data(dtype, SHAPE, seed=2)
    lo, hi = rdx.minmax(a)
    check(lo, np.min(a))
    check(hi, np.max(a))
    lo, hi = rdx.minmax(a, axis=(0, 2), keepdims=True)
    check(lo, np.min(a, axis=(0, 2), keepdims=True))
    check(hi, np.max(a, axis=(0, 2), keepdims=True))


@pytest.mark.parametrize("dtype", DTYPES, ids=IDS)
def test_dot_vdot(dtype):
    a, b = data(dtype, 37, seed=1), data(dtype, 37, seed=2)
    check(rdx.dot(a, b), np.dot(a, b))
    check(rdx.vdot(a, b), np.vdot(a, b))
    m, n = data(dtype, (5, 6), seed=3), data(dtype, (5, 6), seed=4)
    check(rdx.vdot(m, n), np.vdot(m, n))


@pytest.mark.parametrize("pair", [(np.int8, np.float32), (np.int32, np.int64),
                                  (np.uint8, np.int8), (np.float16, np.float64)], ids=str)
def test_dot_mixed_types(pair):
    a, b = data(pair[0], 23, seed=1), data(pair[1], 23, seed=2)
    check(rdx.dot(a, b), np.dot(a, b))


@pytest.mark.parametrize("name", ["sum", "prod", "nansum"])
@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int32, np.uint64, np.float32,
                                   np.float64, np.float16], ids=str)
def test_sum_dtype_argument(name, dtype):
    a = prod_data(np.int8, SHAPE, seed=4) if name == "prod" else data(np.int8, SHAPE, seed=4)
    compare(name, a, dtype=dtype)
    compare(name, a, axis=1, dtype=dtype)


@pytest.mark.parametrize("name", ["mean", "var", "std"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=str)
def test_mean_dtype_argument(name, dtype):
    for src in (np.int16, np.float32, np.float64):
        a = data(src, SHAPE, seed=6)
        compare(name, a, dtype=dtype)
        compare(name, a, axis=(1, 2), dtype=dtype)


@pytest.mark.parametrize("name", ["var", "std", "nanvar", "nanstd"])
def test_ddof(name):
    a = data(np.float64, SHAPE, seed=7)
    a[0, 0, :] = np.nan
    for ddof in (0, 1, 2, 0.5, 5, 60, -1):
        compare(name, a, ddof=ddof)
        compare(name, a, axis=2, ddof=ddof)
        compare(name, a[:, :2, :1], axis=(1, 2), ddof=ddof)  # n = 2: n - ddof <= 0 for ddof 2


def test_out():
    a = data(np.float64, SHAPE)
    out = np.empty((3, 5))
    r = rdx.sum(a, axis=1, out=out)
    assert r is out
    np.testing.assert_array_equal(out, np.sum(a, axis=1))
    out0 = np.empty(())
    assert rdx.max(a, out=out0) is out0 and out0 == np.max(a)
    with pytest.raises(ValueError):
        rdx.sum(a, axis=1, out=np.empty((4,)))
