"""Non-contiguous views reduced in place (slices with steps, reversed axes, transposes,
broadcasts, Fortran order), read-only and byte-swapped arrays, other buffer-protocol objects;
the caller's data is never modified."""
import array as pyarray

import numpy as np
import pytest

import rdx
from helpers import check, data, tolerance


def views(a):
    """Views of a 3-D array: steps, reversed axes, a transpose, a broadcast axis."""
    return {
        "step": a[:, ::2, 1:],
        "reversed": a[::-1, :, ::-2],
        "transposed": a.transpose(2, 0, 1),
        "fortran": np.asfortranarray(a),
        "broadcast": np.broadcast_to(a[:, :1, :], (a.shape[0], 3, a.shape[2])),
        "middle": a[1:, 1:-1, 2:4],
    }


CASES = [
    ("sum", np.sum, {}), ("sum", np.sum, {"axis": 1}), ("sum", np.sum, {"axis": (0, 2)}),
    ("max", np.max, {}), ("max", np.max, {"axis": -1}), ("nanmin", np.nanmin, {"axis": 0}),
    ("argmax", np.argmax, {}), ("argmin", np.argmin, {"axis": 1}),
    ("mean", np.mean, {"axis": (1, 2)}), ("var", np.var, {}), ("std", np.std, {"axis": 0}),
    ("any", np.any, {"axis": 2}), ("count_nonzero", np.count_nonzero, {}),
    ("norm", np.linalg.norm, {}), ("nansum", np.nansum, {"axis": (0, 1)}),
]


@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64], ids=str)
def test_views_in_place(dtype):
    a = data(dtype, (4, 6, 5), seed=8)
    for label, v in views(a).items():
        before = v.copy()
        for name, ref, kwargs in CASES:
            want = ref(v, **kwargs)
            got = getattr(rdx, name)(v, **kwargs)
            rtol = tolerance(dtype, np.asarray(want).dtype) if name in (
                "mean", "var", "std", "norm") else 0.0
            check(got, want, rtol, f"{name} of {label} {kwargs}")
        np.testing.assert_array_equal(v, before)
    lo, hi = rdx.minmax(a[::-1, ::2], axis=1)
    check(lo, np.min(a[::-1, ::2], axis=1))
    check(hi, np.max(a[::-1, ::2], axis=1))


def test_dot_of_views():
    a, b = data(np.float64, 40, seed=1), data(np.float64, 40, seed=2)
    check(rdx.dot(a[::2], b[::2]), np.dot(a[::2], b[::2]))        # same strides: in place
    check(rdx.dot(a[::2], b[:20]), np.dot(a[::2], b[:20]))        # different strides
    check(rdx.dot(a[::-2], b[1::2]), np.dot(a[::-2], b[1::2]))
    m = a.reshape(5, 8)
    check(rdx.vdot(m.T, m.T), np.vdot(m.T, m.T))
    check(rdx.vdot(m.T, m[:, ::-1].T.copy()), np.vdot(m.T, m[:, ::-1].T.copy()))


def test_read_only_and_memory_mapped(tmp_path):
    a = data(np.float32, (50, 7), seed=3)
    a.flags.writeable = False
    check(rdx.sum(a), np.sum(a))
    check(rdx.max(a[::3], axis=0), np.max(a[::3], axis=0))
    path = tmp_path / "a.npy"
    np.save(path, data(np.int16, (64, 33), seed=4))
    m = np.load(path, mmap_mode="r")
    ref = np.asarray(m)  # NumPy's reductions of a memmap return memmaps; rdx's are ndarrays
    check(rdx.sum(m), np.sum(ref))
    check(rdx.argmax(m, axis=1), np.argmax(ref, axis=1))


@pytest.mark.parametrize("dtype", [np.int8, np.float16, np.float64, np.bool_], ids=str)
def test_read_only_views(dtype):
    """Read-only arrays reach the extension through a memoryview (rdx/_reductions.py, _input):
    reversed, strided and 0-d ones, each family of calls."""
    a = data(dtype, (6, 9), seed=6)
    r = a.view()
    r.flags.writeable = False
    for v in (r, r[::-1, ::2], r.T, r[2, 3]):
        check(rdx.sum(v), np.sum(v))
        check(rdx.max(v, axis=-1), np.max(v, axis=-1))
        check(rdx.argmin(v), np.argmin(v))
        check(rdx.count_nonzero(v), np.count_nonzero(v))
        rtol = 0.0 if dtype == np.bool_ else tolerance(dtype, np.mean(v).dtype)
        check(rdx.mean(v, axis=0 if v.ndim else None), np.mean(v, axis=0 if v.ndim else None),
              rtol)
    check(rdx.dot(r[0], r[1]), np.dot(r[0], r[1]))
    check(rdx.reduce(r, "max"), np.max(r))
    check(rdx.reduceat(r.reshape(-1), [0, 5, 20]), np.add.reduceat(r.reshape(-1), [0, 5, 20]))


def test_byte_order_and_odd_strides():
    a = data(np.float64, 31, seed=5)
    be = a.astype(">f8")
    check(rdx.sum(be), np.sum(be))
    check(rdx.argmin(be), np.argmin(be))
    rec = np.zeros(9, dtype=[("x", "<i4"), ("y", "<f8")])  # fields: strides of 12 bytes
    rec["x"] = np.arange(9)
    rec["y"] = np.arange(9) / 2
    check(rdx.sum(rec["x"]), np.sum(rec["x"]))
    check(rdx.max(rec["y"]), np.max(rec["y"]))
    odd = np.frombuffer(b"\0" + np.arange(5, dtype=np.float32).tobytes(), np.float32, 5, 1)
    check(rdx.sum(odd), np.sum(odd))  # not aligned to its element size


def test_buffer_protocol_and_lists():
    ints = pyarray.array("i", [3, -1, 4, 1, -5, 9])
    check(rdx.sum(ints), np.sum(ints))
    check(rdx.argmax(memoryview(ints)), np.argmax(memoryview(ints)))
    raw = memoryview(bytes([1, 200, 3]))  # a read-only buffer of unsigned bytes
    check(rdx.max(raw), np.max(raw))
    check(rdx.sum(bytearray(b"ab")), np.sum(bytearray(b"ab")))
    check(rdx.sum([1.5, 2.5, 3.0]), np.sum([1.5, 2.5, 3.0]))
    check(rdx.mean([[1, 2], [3, 4]], axis=0), np.mean([[1, 2], [3, 4]], axis=0))
    check(rdx.any([False, True]), np.any([False, True]))


def test_caller_data_unchanged():
    a = data(np.float64, (8, 9), seed=6)
    a[2, 3] = np.nan
    before = a.copy()
    for name in ("sum", "prod", "nansum", "nanprod", "min", "nanmax", "argmax", "nanargmin",
                 "mean", "nanvar", "std", "any", "all", "count_nonzero", "norm", "minmax"):
        getattr(rdx, name)(a)
        getattr(rdx, name)(a, axis=0)
    np.testing.assert_array_equal(a, before)
