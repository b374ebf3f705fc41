"""Bad input for every argument: the exception NumPy raises, or the library's mapped one
(rdx.ArgumentError is a ValueError, rdx.UnsupportedError a NotImplementedError, ...); never a
crash, and the context stays usable."""
import numpy as np
import pytest

import rdx

AxisError = getattr(np, "exceptions", np).AxisError
A = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
ALL = ["sum", "prod", "min", "max", "argmin", "argmax", "mean", "var", "std", "any", "all",
       "count_nonzero", "nansum", "nanprod", "nanmin", "nanmax", "nanargmin", "nanargmax",
       "nanmean", "nanvar", "nanstd", "minmax", "norm", "ptp"]


def test_hierarchy():
    assert issubclass(rdx.ArgumentError, ValueError) and issubclass(rdx.ArgumentError, rdx.Error)
    assert issubclass(rdx.UnsupportedError, NotImplementedError)
    assert issubclass(rdx.DeviceMemoryError, MemoryError)
    assert issubclass(rdx.DeviceMemoryError, rdx.ClError)
    assert issubclass(rdx.BuildError, rdx.ClError) and issubclass(rdx.ClError, RuntimeError)
    assert issubclass(rdx.DeviceError, rdx.Error)


@pytest.mark.parametrize("name", ALL)
def test_array_argument(name):
    f = getattr(rdx, name)
    for bad in (np.ones(3, np.complex64), np.array(["a", "b"]), np.array([1, None], object),
                np.ones(2, np.longdouble), np.array(["2020-01-01"], "datetime64[D]")):
        with pytest.raises(TypeError):
            f(bad)
    with pytest.raises((TypeError, ValueError)):
        f([[1, 2], [3]])  # ragged


@pytest.mark.parametrize("name", ALL)
def test_axis_argument(name):
    f = getattr(rdx, name)
    with pytest.raises(AxisError):
        f(A, axis=3)
    with pytest.raises(AxisError):
        f(A, axis=-4)
    if name != "norm":  # np.linalg.norm reads axis with int(): 1.0 and "0" are axes
        with pytest.raises(TypeError):
            f(A, axis=1.0)
        with pytest.raises(TypeError):
            f(A, axis="0")
    with pytest.raises(TypeError):
        f(A, axis=[1.5])
    if name in ("argmin", "argmax", "nanargmin", "nanargmax"):
        with pytest.raises(TypeError):  # NumPy's: one axis only
            f(A, axis=(0, 1))
    elif name != "norm":
        with pytest.raises(ValueError):
            f(A, axis=(0, 0))
        with pytest.raises(ValueError):
            f(A, axis=(1, -2))
        with pytest.raises(TypeError):
            f(A, axis=[0, 1])  # NumPy takes a tuple, not a list
    with pytest.raises(AxisError):  # a 0-d array's only axes are 0 and -1 (test_arguments.py)
        f(np.float64(1.0), axis=1)


@pytest.mark.parametrize("name", ALL)
def test_device_and_determinism_arguments(name):
    f = getattr(rdx, name)
    with pytest.raises(ValueError):
        f(A, determinism="fast")
    with pytest.raises(ValueError):
        f(A, determinism=None)
    with pytest.raises(TypeError):
        f(A, device=0)
    with pytest.raises(rdx.DeviceError):
        f(A, device="no-such-device-anywhere")
    with pytest.raises(TypeError):
        f(A, no_such_argument=1)


@pytest.mark.parametrize("name", ["sum", "prod", "nansum", "nanprod", "mean", "var", "std",
                                  "nanmean", "nanvar", "nanstd"])
def test_dtype_argument(name):
    f = getattr(rdx, name)
    with pytest.raises(TypeError):
        f(A, dtype="no-such-type")
    with pytest.raises(NotImplementedError):
        f(A, dtype=np.complex128)
    if name in ("nanmean", "nanvar", "nanstd"):  # of floats, an integer or bool dtype is
        for dtype in (np.int64, bool):           # NumPy's error
            with pytest.raises(TypeError, match="If a is inexact, then dtype must be inexact"):
                f(A, dtype=dtype)
    else:
        with pytest.raises(NotImplementedError):
            f(A, dtype=bool)


@pytest.mark.parametrize("name", ["var", "std", "nanvar", "nanstd"])
def test_ddof_argument(name):
    with pytest.raises(TypeError):
        getattr(rdx, name)(A, ddof="1")
    with pytest.raises(TypeError):
        getattr(rdx, name)(A, ddof=None)


def test_out_argument():
    with pytest.raises(TypeError):
        rdx.sum(A, out=[0.0])
    with pytest.raises(ValueError):
        rdx.sum(A, axis=0, out=np.empty((4, 3)))


def test_dot_vdot_norm_arguments():
    with pytest.raises(ValueError):
        rdx.dot(np.ones(3), np.ones(4))
    with pytest.raises(NotImplementedError):
        rdx.dot(np.ones((2, 2)), np.ones((2, 2)))
    with pytest.raises(ValueError):
        rdx.vdot(np.ones(3), np.ones(4))
    with pytest.raises(TypeError):
        rdx.dot(np.ones(3, np.complex64), np.ones(3))
    with pytest.raises(NotImplementedError):
        rdx.norm(A, ord=1)
    with pytest.raises(NotImplementedError):
        rdx.norm(A[0], ord=2)  # the spectral norm of a matrix
    with pytest.raises(ValueError):
        rdx.norm(A, axis=(0, 1, 2))
    with pytest.raises(TypeError):
        rdx.norm(A, axis="x")


def test_context_stays_usable_after_errors():
    a = np.arange(10.0)
    for bad in (lambda: rdx.nanargmax(np.full(4, np.nan)),
                lambda: rdx.prod(a, determinism="exact"),
                lambda: rdx.argmax(np.zeros(0))):
        with pytest.raises((ValueError, NotImplementedError)):
            bad()
        assert rdx.sum(a) == 45.0


def test_library_errors_reach_python_with_their_message():
    with pytest.raises(rdx.ArgumentError, match="All-NaN"):
        rdx.nanargmin(np.array([[1.0, np.nan], [np.nan, np.nan]]), axis=1)
    with pytest.raises(rdx.UnsupportedError, match="prod"):
        rdx.prod(np.ones(3), determinism="any_device")
