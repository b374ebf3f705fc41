"""Empty, length-1 and 0-d inputs, NaN and infinities, ties and signed zeros, against NumPy."""
import warnings

import numpy as np
import pytest

import rdx
from helpers import FLOATS, NUMPY, check, numpy_result, rdx_result, tolerance

# Float products (and sums beyond exact values) round in the order of their combines, which is
# the device's: within the tolerance of NumPy's sequential order.
INEXACT = {"prod", "nanprod", "mean", "var", "std", "nanmean", "nanvar", "nanstd", "norm"}
ONE_AXIS = {"argmin", "argmax", "nanargmin", "nanargmax"}


def compare(name, a, **kwargs):
    want = numpy_result(NUMPY[name], a, **kwargs)
    got = rdx_result(getattr(rdx, name), a, **kwargs)
    rtol = tolerance(a.dtype, np.asarray(want).dtype) if name in INEXACT and not isinstance(
        want, Exception) else 0.0
    check(got, want, rtol, f"{name}({a.dtype} {a.shape}, {kwargs})")


@pytest.mark.parametrize("dtype", [np.bool_, np.int32, np.uint8, np.float32, np.float64],
                         ids=str)
@pytest.mark.parametrize("name", list(NUMPY))
def test_empty(name, dtype):
    """NumPy's identity, NaN, or its ValueError (no identity: min, max, argmin, ...)."""
    compare(name, np.zeros(0, dtype))
    for shape, axis in (((0, 3), 0), ((0, 3), 1), ((2, 0), 1), ((2, 0, 3), (0, 2))):
        if name in ONE_AXIS and isinstance(axis, tuple):
            continue
        compare(name, np.zeros(shape, dtype), axis=axis)
        compare(name, np.zeros(shape, dtype), axis=axis, keepdims=True)


@pytest.mark.parametrize("name", list(NUMPY))
def test_length_one_and_zero_d(name):
    for a in (np.array([2.5]), np.array([[-3]], np.int16), np.array(7, np.uint32),
              np.float32(-1.5)):
        compare(name, a)
    compare(name, np.array([[-3.0]], np.float32), axis=0)
    compare(name, np.array([[-3.0]], np.float32), axis=1, keepdims=True)


def nan_rows(dtype):
    """Rows with NaN first, inside, last and everywhere, zeros of both signs, infinities,
    NaN beside an infinity, a tie for the maximum."""
    rng = np.random.default_rng(11)
    a = (rng.integers(-40, 40, (11, 13)) / 4).astype(dtype)
    nan, inf = np.nan, np.inf
    a[1, 0] = nan
    a[2, 6] = nan
    a[3, -1] = nan
    a[4, :] = nan
    a[5, :] = 0.0
    a[5, ::3] = -0.0
    a[6, 2], a[6, 9] = inf, -inf
    a[7, 3], a[7, 8] = inf, nan
    a[8, :] = inf
    a[9, :] = -inf
    a[10, 4] = a[10, 7] = 100
    return a


@pytest.mark.parametrize("dtype", FLOATS, ids=str)
@pytest.mark.parametrize("name", list(NUMPY))
def test_nan_and_inf(name, dtype):
    a = nan_rows(dtype)
    rows = [r for r in range(len(a)) if not (name.startswith("nanarg") and r == 4)]
    compare(name, a[rows], axis=1)  # one result per row
    for r in (0, 1, 6, 7):          # whole rows: the whole-array kernels
        compare(name, a[r])
    if name.startswith("nanarg"):   # an all-NaN slice: ValueError, as NumPy's
        with pytest.raises(ValueError):
            getattr(rdx, name)(a[4])
        with pytest.raises(ValueError):
            getattr(rdx, name)(a, axis=1)


def test_nan_warnings():
    with pytest.warns(RuntimeWarning, match="All-NaN"):
        assert np.isnan(rdx.nanmax(np.array([np.nan, np.nan])))
    with pytest.warns(RuntimeWarning, match="Mean of empty slice"):
        assert np.isnan(rdx.mean(np.zeros(0)))
    with pytest.warns(RuntimeWarning, match="Mean of empty slice"):
        assert np.isnan(rdx.nanmean(np.array([np.nan])))
    with pytest.warns(RuntimeWarning, match="Degrees of freedom"):
        assert np.isinf(rdx.var(np.array([1.0, 2.0]), ddof=2))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rdx.nanmax(np.array([np.nan, 1.0]))
        rdx.var(np.array([1.0, 2.0]), ddof=1)


def test_minmax_ignores_nan():
    a = np.array([np.nan, 3.0, -1.0, np.nan, 7.0])
    assert rdx.minmax(a) == (-1.0, 7.0)
    lo, hi = rdx.minmax(np.array([[np.nan, np.nan], [1.0, 2.0]]), axis=1)
    assert np.isnan(lo[0]) and np.isnan(hi[0]) and lo[1] == 1.0 and hi[1] == 2.0
    with pytest.raises(ValueError):
        rdx.minmax(np.zeros(0))


def test_integer_wrap_and_limits():
    big = np.array([2**62, 2**62, 2**62], np.int64)
    check(rdx.sum(big), np.sum(big))  # wraps as NumPy's
    u = np.full(5, 2**64 - 1, np.uint64)
    check(rdx.sum(u), np.sum(u))
    check(rdx.max(u), np.max(u))
    i8 = np.array([-128, 127, -128], np.int8)
    check(rdx.sum(i8), np.sum(i8))
    check(rdx.min(i8), np.min(i8))
    check(rdx.argmin(i8), np.argmin(i8))
    check(rdx.prod(np.full(70, 3, np.int32)), np.prod(np.full(70, 3, np.int32)))


def test_float16_sum_rounds_once():
    a = np.full(4097, 1.0, np.float16)  # a float16 running sum stalls at 2048; NumPy's does not
    check(rdx.sum(a), np.sum(a))
    check(rdx.mean(a), np.mean(a))
