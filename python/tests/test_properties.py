"""Property tests (hypothesis): sum, min, max and argmax of random shapes, axes, dtypes and
views against NumPy. Few examples: each new dtype and form builds kernels (PoCL: about half a
second each, then the program cache at RDX_CACHE_DIR has them)."""
import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rdx
from helpers import DTYPES, check

SETTINGS = settings(max_examples=40, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow])


@st.composite
def arrays_and_axes(draw, one_axis=False):
    dtype = np.dtype(draw(st.sampled_from(DTYPES)))
    ndim = draw(st.integers(1, 4))
    shape = tuple(draw(st.lists(st.integers(0, 6), min_size=ndim, max_size=ndim)))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    if dtype.kind == "b":
        a = rng.integers(0, 2, shape).astype(bool)
    elif dtype.kind == "f":  # exact sums in every order (NumPy's float16 axis sums round at
        # each step): halves, small integers for float16
        a = (rng.integers(-4, 5, shape) if dtype == np.float16 else
             rng.integers(-16, 17, shape) / 2).astype(dtype)
        if a.size and draw(st.booleans()):
            a.flat[rng.integers(0, a.size)] = draw(st.sampled_from([np.nan, np.inf, -np.inf]))
    else:
        info = np.iinfo(dtype)
        a = rng.integers(max(info.min, -100), min(info.max, 100), shape, endpoint=True,
                         dtype=np.int64).astype(dtype)
    # a view: some axes reversed or stepped, or transposed
    view = draw(st.sampled_from(["plain", "reversed", "stepped", "transposed"]))
    if view == "reversed":
        a = a[::-1]
    elif view == "stepped":
        a = a[..., ::2]
    elif view == "transposed":
        a = a.T
    if one_axis:
        axis = draw(st.one_of(st.none(), st.integers(-a.ndim, a.ndim - 1)))
    else:
        axis = draw(st.one_of(
            st.none(), st.integers(-a.ndim, a.ndim - 1),
            st.lists(st.integers(0, a.ndim - 1), unique=True, max_size=a.ndim).map(tuple)))
    return a, axis, draw(st.booleans())


def same_as_numpy(name, ref, a, axis, keepdims):
    try:
        with np.errstate(all="ignore"):
            want = ref(a, axis=axis, keepdims=keepdims)
    except ValueError:  # empty: min, max and argmax have no identity
        try:
            getattr(rdx, name)(a, axis=axis, keepdims=keepdims)
        except ValueError:
            return
        raise AssertionError(f"{name}: NumPy raised ValueError, rdx did not")
    check(getattr(rdx, name)(a, axis=axis, keepdims=keepdims), want, 0.0,
          f"{name}({a.dtype} {a.shape} {a.strides}, axis={axis}, keepdims={keepdims})")


@SETTINGS
@given(arrays_and_axes())
def test_sum(case):
    same_as_numpy("sum", np.sum, *case)


@SETTINGS
@given(arrays_and_axes())
def test_min(case):
    same_as_numpy("min", np.min, *case)


@SETTINGS
@given(arrays_and_axes())
def test_max(case):
    same_as_numpy("max", np.max, *case)


@SETTINGS
@given(arrays_and_axes(one_axis=True))
def test_argmax(case):
    same_as_numpy("argmax", np.argmax, *case)
