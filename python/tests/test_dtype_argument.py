"""dtype= as NumPy takes it: each element cast to dtype, then reduced in it. librdx accumulates an
integer in a float at least as wide, and a float in a wider float; every other dtype (float16,
float32 of 64-bit elements, narrower types) reduces a copy cast to it. Result dtypes and values
against NumPy's."""
import numpy as np
import pytest

import rdx
from helpers import check, data, numpy_result, prod_data, rdx_result, tolerance

ELEMENTS = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
            np.uint64, np.float16, np.float32, np.float64]
FLOAT_DTYPES = [np.float16, np.float32, np.float64]
INT_DTYPES = [np.int8, np.uint16, np.int32, np.uint64]
NUMPY = {"sum": np.sum, "prod": np.prod, "nansum": np.nansum, "nanprod": np.nanprod,
         "mean": np.mean, "nanmean": np.nanmean, "var": np.var, "std": np.std,
         "nanvar": np.nanvar, "nanstd": np.nanstd}
SUMS = ("sum", "prod", "nansum", "nanprod")


def compare(name, a, dtype, **kwargs):
    want = numpy_result(NUMPY[name], a, dtype=dtype, **kwargs)
    got = rdx_result(getattr(rdx, name), a, dtype=dtype, **kwargs)
    rtol = 0.0 if name in SUMS else tolerance(dtype)
    check(got, want, rtol, f"{name}({np.dtype(a.dtype)}, dtype={np.dtype(dtype)}, {kwargs})")


@pytest.mark.parametrize("element", ELEMENTS, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("dtype", FLOAT_DTYPES, ids=lambda d: np.dtype(d).name)
def test_float_dtypes(element, dtype):
    a = data(element, 40, seed=3)
    compare("sum", a, dtype)
    compare("sum", a.reshape(5, 8), dtype, axis=1)
    compare("prod", prod_data(element, 12, seed=4), dtype)
    compare("mean", a, dtype)


@pytest.mark.parametrize("name", list(NUMPY))
@pytest.mark.parametrize("element", [np.uint8, np.int64, np.uint64, np.float32, np.float64],
                         ids=lambda d: np.dtype(d).name)
def test_every_function(name, element):
    a = (prod_data if "prod" in name else data)(element, 24, seed=5)
    for dtype in FLOAT_DTYPES + (INT_DTYPES if name in SUMS else []):
        compare(name, a, dtype)


def test_cast_first():
    """The issue's cases: each element is cast to dtype before it is reduced."""
    check(rdx.sum(np.full(1000, 1.0004, np.float32), dtype=np.float16), np.float16(1000.0))
    check(rdx.prod(np.full(10, 1.0004, np.float32), dtype=np.float16), np.float16(1.0))
    with np.errstate(all="ignore"):
        want = np.sum(np.array([70000, -70000], np.int32), dtype=np.float16)
    assert np.isnan(want)
    with np.errstate(all="ignore"):
        check(rdx.sum(np.array([70000, -70000], np.int32), dtype=np.float16), want)
    check(rdx.sum(np.arange(5), dtype=np.float32), np.float32(10.0))
    check(rdx.nansum(np.arange(5, dtype=np.uint64), dtype=np.float32), np.float32(10.0))
    check(rdx.prod(np.arange(1, 6), dtype=np.float16), np.float16(120.0))
    check(rdx.mean(np.arange(5), dtype=np.float32), np.float32(2.0))
    check(rdx.reduce_segments(np.arange(6), [0, 2, 6], "sum", dtype=np.float32),
          np.array([1.0, 14.0], np.float32))
    check(rdx.reduceat(np.arange(6), [0, 2], "sum", dtype=np.float16),
          np.add.reduceat(np.arange(6), [0, 2], dtype=np.float16))
