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
