"""rdx.reduce_segments and rdx.reduceat against NumPy (np.add.reduceat and friends)."""
import numpy as np
import pytest

import rdx
from helpers import check, data

OFFSETS = [0, 3, 3, 17, 40, 64, 99]


def _per_segment(f, a, offsets, dtype=None):
    out = [f(a[s:e]) for s, e in zip(offsets[:-1], offsets[1:])]
    return np.array(out, dtype)


@pytest.mark.parametrize("dtype", [np.int8, np.float32], ids=str)
def test_reduce_segments_against_numpy(dtype):
    a = data(dtype, 100, seed=3)
    want = _per_segment(np.sum, a, OFFSETS, np.sum(a[:1]).dtype)
    check(rdx.reduce_segments(a, OFFSETS, "sum"), want)
    nonempty = [0, 3, 17, 40, 64, 99, 100]
    check(rdx.reduce_segments(a, nonempty, "max"), _per_segment(np.max, a, nonempty, a.dtype))
    check(rdx.reduce_segments(a, np.array(nonempty, np.uint32), "argmin"),
          _per_segment(np.argmin, a, nonempty, np.intp))  # from each segment's start
    check(rdx.reduce_segments(a[::-1], nonempty, np.maximum),
          _per_segment(np.max, a[::-1], nonempty, a.dtype))  # a view: copied to one run
    check(rdx.reduce_segments(a, [0], "sum"), np.zeros(0, want.dtype))


def test_reduce_segments_users_and_dtypes():
    a = data(np.float32, 100, seed=4)
    check(rdx.reduce_segments(a, OFFSETS, map="x * x", combine="a + b", identity=0),
          _per_segment(lambda s: np.sum(s * s), a, OFFSETS, np.float32))
    check(rdx.reduce_segments(a, OFFSETS, "sum", dtype=np.float64),
          _per_segment(lambda s: np.sum(s, dtype=np.float64), a, OFFSETS, np.float64))
    b = a > 0
    check(rdx.reduce_segments(b, OFFSETS, "sum"), _per_segment(np.sum, b, OFFSETS, np.int64))
    check(rdx.reduce_segments(b, [0, 50, 100], "max"), np.array([b[:50].max(), b[50:].max()]))


def test_reduce_segments_errors():
    a = np.arange(10, dtype=np.int32)
    with pytest.raises(ValueError):  # no identity for an empty segment
        rdx.reduce_segments(a, [0, 4, 4, 10], "min")
    for bad in ([1, 4], [0, 5, 4], [0, 11], [], [[0, 1]]):
        with pytest.raises(ValueError):
            rdx.reduce_segments(a, bad, "sum")
    with pytest.raises(TypeError):
        rdx.reduce_segments(a, [0.0, 2.0], "sum")
    with pytest.raises(ValueError):
        rdx.reduce_segments(a.reshape(2, 5), [0, 5], "sum")
    with pytest.raises(TypeError):
        rdx.reduce_segments(a.astype(np.float32), [0, 5], "xor")


@pytest.mark.parametrize("indices", [[0, 3, 7], [2, 3, 9], [0, 8, 2, 6], [5, 5, 2], [9],
                                     [4, 1, 1, 7, 0], []])
def test_reduceat_against_numpy(indices):
    a = data(np.int16, 10, seed=5)
    f = data(np.float64, 10, seed=6)
    for op, uf in (("sum", np.add), ("max", np.maximum), (np.minimum, np.minimum)):
        idx = np.array(indices, np.intp)
        check(rdx.reduceat(a, idx, op), uf.reduceat(a, idx))
        check(rdx.reduceat(f, idx, op), uf.reduceat(f, idx))
    check(rdx.reduceat(a, indices, "prod", dtype=np.int32),
          np.multiply.reduceat(a, np.array(indices, np.intp), dtype=np.int32))


def test_reduceat_errors():
    a = np.arange(10, dtype=np.float32)
    for bad in ([-1], [10], [0, 12]):
        with pytest.raises(IndexError):
            rdx.reduceat(a, bad)
    with pytest.raises(TypeError):
        rdx.reduceat(a, [1.5])
    with pytest.raises(ValueError):
        rdx.reduceat(a, [0], "argmax")
    with pytest.raises(NotImplementedError):  # pieces combined on the host are not exact
        rdx.reduceat(a, [0, 8, 2], determinism="exact")
    check(rdx.reduceat(a, [0, 2, 8], determinism="exact"), np.add.reduceat(a, [0, 2, 8]))
