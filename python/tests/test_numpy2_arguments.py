"""NumPy 2's arguments rdx takes on NumPy 1.24 too (issue 68): correction= and mean= of the
variances, initial= of the sums, products and extremes, an integer dtype= of the means, out= of
another dtype, the warnings' texts, vdot's positional-only arrays. Each compared with NumPy
(NumPy 2's answer written out where the installed NumPy 1 lacks the argument)."""
import warnings

import numpy as np
import pytest

import rdx

NUMPY2 = int(np.__version__.split(".")[0]) >= 2


def test_vdot_is_positional_only():
    a = np.arange(3.0)
    assert rdx.vdot(a, a) == np.vdot(a, a)
    with pytest.raises(TypeError):
        np.vdot(a=a, b=a)
    with pytest.raises(TypeError):
        rdx.vdot(a=a, b=a)


@pytest.mark.parametrize("name", ["argmin", "argmax", "nanargmax"])
@pytest.mark.parametrize("kind", [np.float64, np.float32, np.uint64, np.int32, np.uint8, bool])
@pytest.mark.parametrize("axis", [0, None])
def test_arg_out_of_another_dtype(name, kind, axis):
    """NumPy writes the indexes through an intp copy of out: an out that casts to intp safely
    gets them cast, any other is its TypeError."""
    a = np.array([[1.0, 5.0, 2.0], [4.0, 0.0, 3.0]])
    shape = (3,) if axis == 0 else ()
    if not np.can_cast(kind, np.intp):  # NumPy 2's rule (NumPy 1.24 takes a 0-d uint64 out)
        what = "scalar" if axis is None else "array data"
        text = f"Cannot cast {what} from {np.dtype(kind)!r} to {np.dtype(np.intp)!r}"
        for f in (getattr(rdx, name),) + ((getattr(np, name),) if NUMPY2 else ()):
            with pytest.raises(TypeError) as e:
                f(a, axis=axis, out=np.zeros(shape, kind))
            assert str(e.value) == text + " according to the rule 'safe'"
        return
    want = getattr(np, name)(a, axis=axis, out=np.zeros(shape, kind))
    out = np.zeros(shape, kind)
    got = getattr(rdx, name)(a, axis=axis, out=out)
    assert got is out and got.dtype == want.dtype and np.array_equal(got, want)


@pytest.mark.parametrize("name", ["nanmean", "nanvar", "nanstd", "std"])
@pytest.mark.parametrize("dt", [np.float32, np.int16])
@pytest.mark.parametrize("kind", [np.int64, np.bool_, np.float32])
def test_nan_moment_out_of_another_dtype(name, dt, kind):
    """np.nanmean and friends of floats refuse an out that is not inexact (of integers they are
    np.mean, which casts)."""
    a = np.array([[1, 2, 7], [4, 9, 3]], dt)
    try:
        want = getattr(np, name)(a, axis=0, out=np.zeros(3, kind))
    except TypeError as e:  # nan* of floats: out must be inexact; std: np.sqrt's casting
        with pytest.raises(type(e)) as got:
            getattr(rdx, name)(a, axis=0, out=np.zeros(3, kind))
        assert str(got.value) == str(e)
        return
    out = np.zeros(3, kind)
    got = getattr(rdx, name)(a, axis=0, out=out)
    assert got is out and np.allclose(got, want, rtol=1e-6)


def _warned(f, *args, **kwargs):
    """The texts of the RuntimeWarnings f gives, but NumPy's "invalid value encountered"."""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        f(*args, **kwargs)
    return [str(x.message) for x in w
            if x.category is RuntimeWarning and "encountered" not in str(x.message)]


_MEAN = "Mean of empty slice"
_DOF = "Degrees of freedom <= 0 for slice"


@pytest.mark.parametrize("name, shape, dt, axis, ddof, want", [
    ("mean", (0,), "f8", None, 0, [_MEAN]),
    ("mean", (0, 0), "f8", 1, 0, [_MEAN]),       # no slices, yet np.mean warns
    ("mean", (0, 3), "f8", 1, 0, []),
    ("nanmean", (0, 0), "f8", 1, 0, []),        # the nan* forms of floats test each slice
    ("nanmean", (0, 0), "i8", 1, 0, [_MEAN]),    # of integers they are np.mean
    ("nanmean", (0, 3), "f4", 0, 0, [_MEAN]),
    ("var", (0, 0), "f8", 1, 0, [_DOF]),
    ("var", (0, 3), "f8", (), 1, [_DOF]),        # slices of one element, ddof 1: no results
    ("var", (2,), "f8", None, 2, [_DOF]),
    ("std", (1,), "f4", None, 0, []),
    ("nanvar", (0,), "f8", None, 0, [_DOF + "."]),  # NumPy 2's nanvar ends with a period
    ("nanvar", (0, 0), "f8", 1, 0, []),
    ("nanstd", (1,), "f4", None, 1, [_DOF + "."]),
    ("nanvar", (3,), "i4", None, 3, [_DOF]),
])
def test_warnings_are_numpy2s(name, shape, dt, axis, ddof, want):
    a = np.zeros(shape, dt)
    kw = {"ddof": ddof} if ddof else {}
    assert _warned(getattr(rdx, name), a, axis=axis, **kw) == want
    if NUMPY2:
        assert _warned(getattr(np, name), a, axis=axis, **kw) == want


def _around(x, axis, m, ddof, nan):
    """NumPy 2's var(mean=m): the sum of (x - m)^2 over the axis (NaN left out for nanvar) over
    n - ddof, written out in NumPy 1's terms."""
    d = (np.asarray(x, np.float64) - m) ** 2
    n = np.sum(~np.isnan(x), axis=axis) if nan else np.sum(np.ones_like(d), axis=axis)
    s = (np.nansum if nan else np.sum)(d, axis=axis)
    with np.errstate(divide="ignore", invalid="ignore"):
        return s / np.maximum(n - ddof, 0)


_X = np.array([[1.5, -2.0, 4.0, 0.25], [3.0, np.nan, 1.0, 2.0], [0.5, 8.0, -1.0, 6.5]])


@pytest.mark.parametrize("name", ["var", "std", "nanvar", "nanstd"])
@pytest.mark.parametrize("axis, mean", [
    (1, np.array([[1.0], [2.0], [3.0]])),     # one mean per slice: from librdx's moments
    (0, np.array([[0.5, 1.0, 1.5, 2.0]])),
    (None, 0.75),
    (1, _X[::-1] * 0.5),                      # a mean per element: the host form
])
@pytest.mark.parametrize("ddof", [0, 1])
def test_mean_argument(name, axis, mean, ddof):
    x = np.nan_to_num(_X) if name.startswith("var") or name.startswith("std") else _X
    want = _around(x, axis, mean, ddof, name.startswith("nan"))
    if "std" in name:
        want = np.sqrt(want)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        got = getattr(rdx, name)(x, axis=axis, mean=mean, ddof=ddof)
        if NUMPY2:
            assert np.allclose(getattr(np, name)(x, axis=axis, mean=mean, ddof=ddof), want,
                               equal_nan=True)
    assert np.shape(got) == np.shape(want) and np.allclose(got, want, equal_nan=True)


def test_mean_argument_edges():
    """Empty slices, ddof < 0, the result dtype (np.var's x - mean in their common dtype: a
    NumPy float64 mean widens float32, a Python float does not; np.nanvar's stays)."""
    e = np.zeros((0, 3))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert np.isnan(rdx.var(e, axis=0, mean=0.5)).all()
        assert (rdx.var(e, axis=0, mean=0.5, ddof=-1) == 0).all()
        assert rdx.nanvar(np.array([np.nan, np.nan]), mean=0.5, ddof=-1) == 0  # NumPy 2's
    a = np.array([1.0, 2.0, 4.0], np.float32)
    assert rdx.var(a, mean=np.float64(2)).dtype == np.float64
    assert rdx.var(a, mean=2.0).dtype == np.float32
    assert rdx.nanvar(a, mean=np.float64(2)).dtype == np.float32
    assert rdx.var(a.astype(np.int8), mean=np.float32(2)).dtype == np.float64
    if NUMPY2:
        for m in (np.float64(2), 2.0):
            assert rdx.var(a, mean=m).dtype == np.var(a, mean=m).dtype
            assert rdx.nanvar(a, mean=m).dtype == np.nanvar(a, mean=m).dtype


@pytest.mark.parametrize("name", ["var", "std", "nanvar", "nanstd"])
def test_correction_argument(name):
    """correction= is NumPy 2's name of ddof; both given (ddof not 0) is its ValueError."""
    x = _X
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = getattr(np, name)(x, axis=0, ddof=1)
        assert np.allclose(getattr(rdx, name)(x, axis=0, correction=1), want, equal_nan=True)
        assert np.allclose(getattr(rdx, name)(x, axis=0, ddof=0, correction=1), want,
                           equal_nan=True)
    text = "ddof and correction can't be provided simultaneously."
    with pytest.raises(ValueError, match=text):
        getattr(rdx, name)(x, ddof=1, correction=1)
    if NUMPY2:
        with pytest.raises(ValueError, match=text):
            getattr(np, name)(x, ddof=1, correction=1)


_F = np.array([[1.5, np.nan, -4.0], [np.nan, np.nan, np.nan], [2.0, 7.0, 0.5]])
_I = np.array([[3, -2, 9], [120, 100, -7]], np.int8)


@pytest.mark.parametrize("name", ["sum", "prod", "min", "max", "nansum", "nanprod", "nanmin",
                                  "nanmax"])
@pytest.mark.parametrize("x, axis, initial", [
    (_F, None, 5.0), (_F, 1, -3), (_F, 0, 2.5),       # NaN slices: propagated, or ignored
    (_I, None, 100), (_I, 1, -128), (_I, 0, 2.9),     # int8: sums in int64, extremes in int8
    (np.zeros((0, 3)), 0, 3), (np.zeros((0, 3)), 1, 3), (np.zeros(0, np.uint16), None, 7),
    (np.array([True, False]), None, 0),
])
def test_initial(name, x, axis, initial):
    """initial= is one more element of each slice: of an empty one (the extremes too) the
    result; cast to the result dtype, as NumPy's."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = getattr(np, name)(x, axis=axis, initial=initial)
        got = getattr(rdx, name)(x, axis=axis, initial=initial)
        kept = getattr(rdx, name)(x, axis=axis, initial=initial, keepdims=True)
        out = np.zeros(np.shape(want), np.float64)
        assert getattr(rdx, name)(x, axis=axis, initial=initial, out=out) is out
    assert type(got) is type(want) and got.dtype == want.dtype, (got, want)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(out, want)
    assert np.shape(kept) == np.shape(getattr(np, name)(x, axis=axis, initial=initial,
                                                        keepdims=True))


def test_initial_errors_and_warnings():
    """NumPy 2's conversions of initial= (a Python integer out of range is an OverflowError,
    NaN into an integer a ValueError, a sequence a ValueError); an all-NaN slice with initial=
    gives it without a warning."""
    i8 = np.array([1, 2], np.int8)
    with pytest.raises(OverflowError, match="Python integer 300 out of bounds for int8"):
        rdx.max(i8, initial=300)
    with pytest.raises(OverflowError, match="Python integer -1 out of bounds for uint64"):
        rdx.sum(i8.astype(np.uint8), initial=-1)
    with pytest.raises(ValueError, match="cannot convert float NaN to integer"):
        rdx.min(i8, initial=np.nan)
    with pytest.raises(ValueError):
        rdx.sum(i8, initial=[1, 2])
    with pytest.raises(ValueError, match="zero-size array"):
        rdx.max(np.zeros(0))
    assert _warned(rdx.nanmax, np.array([np.nan, np.nan]), initial=5) == []
    assert rdx.nanmax(np.array([np.nan, np.nan]), initial=5) == 5


@pytest.mark.parametrize("name", ["mean", "var", "std", "nanmean", "nanvar"])
@pytest.mark.parametrize("x", [
    np.array([[1, 2, 4], [7, -3, 10]], np.int32),
    np.array([[1.5, 2.7, -4.2], [7.9, -3.1, 10.0]]),
    np.array([100, 100, 100], np.int8),          # the sum wraps in int8, as NumPy's
    np.zeros((2, 3), bool),
])
@pytest.mark.parametrize("dtype", [np.int64, np.int8])
@pytest.mark.parametrize("axis", [None, 0])
def test_integer_dtype_of_means(name, x, dtype, axis):
    """An integer dtype= of np.mean, np.var, np.std: NumPy's steps in it (sums in dtype, each
    divided and truncated into it); std along an axis is np.sqrt's casting TypeError; the nan*
    forms of floats refuse it."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        try:
            want = getattr(np, name)(x, axis=axis, dtype=dtype)
        except TypeError as e:
            with pytest.raises(TypeError) as got:
                getattr(rdx, name)(x, axis=axis, dtype=dtype)
            assert str(got.value) == str(e)
            return
        got = getattr(rdx, name)(x, axis=axis, dtype=dtype)
    assert type(got) is type(want) and got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)
