"""Data and comparisons shared by the tests: results must match NumPy's in type, dtype, shape
and value (exactly, or within a tolerance for means and variances)."""
import warnings

import numpy as np

try:  # rdx's results over some axes of PyOpenCL arrays are PyOpenCL arrays on the device
    import pyopencl.array as _cla
except ImportError:
    _cla = None


def device_result(got) -> np.ndarray:
    """A PyOpenCL array of rdx's results, read back by the test through a map (the no-copy
    tests refuse Array.get and enqueue_copy to rdx)."""
    return np.array(got.map_to_host(is_blocking=True))

DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
          np.uint64, np.float16, np.float32, np.float64]
FLOATS = [np.float16, np.float32, np.float64]
IDS = [np.dtype(d).name for d in DTYPES]
# rdx's functions by name, beside NumPy's own; INEXACT: those whose results may differ from
# NumPy's by rounding (compared within a tolerance).
NUMPY = {
    "sum": np.sum, "prod": np.prod, "nansum": np.nansum, "nanprod": np.nanprod,
    "min": np.min, "max": np.max, "nanmin": np.nanmin, "nanmax": np.nanmax,
    "argmin": np.argmin, "argmax": np.argmax, "nanargmin": np.nanargmin,
    "nanargmax": np.nanargmax, "mean": np.mean, "var": np.var, "std": np.std,
    "nanmean": np.nanmean, "nanvar": np.nanvar, "nanstd": np.nanstd, "any": np.any,
    "all": np.all, "count_nonzero": np.count_nonzero, "norm": np.linalg.norm, "ptp": np.ptp,
}
INEXACT = {"mean", "var", "std", "nanmean", "nanvar", "nanstd", "norm"}


def data(dtype, shape, seed=0):
    """Values whose sums are exact in every type and order (NumPy's float16 axis sums round at
    each step): small integers, and halves for floats; many ties for argmin and argmax."""
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.integers(0, 2, shape).astype(bool)
    if dt.kind == "u":
        return rng.integers(0, 9, shape).astype(dt)
    if dt.kind == "i":
        return rng.integers(-8, 9, shape).astype(dt)
    return (rng.integers(-8, 9, shape) / 2).astype(dt)


def prod_data(dtype, shape, seed=0):
    """Values whose products are exact and stay small in every order: mostly +-1, a few 2 and
    0.5 (integers: 2 and 3), a zero in each row of 12 or more."""
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.integers(0, 2, shape).astype(bool)
    picks = [1, -1, 2, 0.5] if dt.kind == "f" else [1, -1, 2, 3]
    if dt.kind == "u":
        picks = [1, 2, 3, 1]
    v = rng.choice(np.array(picks, np.float64), shape, p=[0.45, 0.35, 0.1, 0.1])
    return v.astype(dt)


def numpy_result(f, *args, **kwargs):
    """NumPy's result, or the exception it raises (its type), with warnings silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            try:
                return f(*args, **kwargs)
            except Exception as e:  # noqa: BLE001 - the type is compared
                return e


def rdx_result(f, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return f(*args, **kwargs)
        except Exception as e:  # noqa: BLE001
            return e


def check(got, want, rtol=0.0, what=""):
    """got (rdx's) is want (NumPy's): the same exception class (an rdx error that is a
    subclass counts), or the same type, dtype and shape and the same values (NaN as NaN; -0.0
    == 0.0), exactly or within rtol."""
    if isinstance(want, Exception):
        assert isinstance(got, type(want)), f"{what}: NumPy raised {want!r}, rdx gave {got!r}"
        return
    assert not isinstance(got, Exception), f"{what}: rdx raised {got!r}, NumPy gave {want!r}"
    if _cla is not None and isinstance(got, _cla.Array):  # read back here, by the test
        assert isinstance(want, np.ndarray), f"{what}: a device array where NumPy gave {want!r}"
        got = device_result(got)
    assert type(got) is type(want), f"{what}: {type(got)} is not NumPy's {type(want)}"
    g, w = np.asarray(got), np.asarray(want)
    assert g.dtype == w.dtype, f"{what}: dtype {g.dtype}, NumPy's {w.dtype}"
    assert g.shape == w.shape, f"{what}: shape {g.shape}, NumPy's {w.shape}"
    if rtol == 0.0 or w.dtype.kind != "f":
        np.testing.assert_array_equal(g, w, err_msg=what)
    else:
        g64, w64 = g.astype(np.float64), w.astype(np.float64)
        np.testing.assert_allclose(g64, w64, rtol=rtol, atol=rtol, equal_nan=True, err_msg=what)


def tolerance(dtype, result_dtype=None):
    """rtol for means, variances and norms: rdx computes them in float64 where NumPy keeps
    float32 or float16."""
    dt = np.dtype(result_dtype if result_dtype is not None else dtype)
    if dt == np.float16:
        return 4e-3
    if dt == np.float32:
        return 2e-6
    return 1e-12
