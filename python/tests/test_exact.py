"""determinism="exact": float sums correctly rounded (math.fsum and fractions.Fraction as the
reference); "any_device": the fixed-bin sum, the same bits in any order of the elements and
within its bound of the exact sum; refusals where an exact form does not exist."""
import math
from fractions import Fraction

import numpy as np
import pytest

import rdx


def hard_f64(n, seed):
    """Magnitudes from 1e-20 to 1e20 with cancellation: a float64 running sum is far off."""
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(n) * 10.0 ** rng.integers(-20, 21, n)
    a[::7] = -a[1::7][: len(a[::7])] if n > 7 else a[::7]
    return a


def rounded(exact: Fraction, dtype):
    """exact rounded to nearest, ties to even, in dtype."""
    t = np.dtype(dtype).type
    f = t(float(exact))
    best = None
    for c in (np.nextafter(f, t(-np.inf)), f, np.nextafter(f, t(np.inf))):
        d = abs(Fraction(float(c)) - exact)
        if best is None or d < best[0] or (d == best[0] and int(c.view(
                np.uint16 if t is np.float16 else np.uint32 if t is np.float32 else np.uint64)) % 2
                == 0):
            best = (d, c)
    return best[1]


def binned_bound(a, eps, lowest_bit):
    """The fixed-bin sum's error bound (docs/reproducible.md): depth * eps * sum|x| + n * 2^lowest."""
    depth = 8 + (len(a) >> (2 if eps == np.finfo(np.float32).eps else 27)) + 1
    return depth * eps * math.fsum(abs(float(x)) for x in a) + len(a) * 2.0 ** lowest_bit


@pytest.mark.parametrize("n", [1, 100, 4097])
def test_f64_sum_is_fsum(n):
    a = hard_f64(n, n)
    got = rdx.sum(a, determinism="exact")
    assert type(got) is np.float64
    assert got == math.fsum(a)
    rep = rdx.sum(a, determinism="any_device")
    assert type(rep) is np.float64
    assert abs(rep - math.fsum(a)) <= binned_bound(a, np.finfo(np.float64).eps, -1015)
    shuffled = np.random.default_rng(n).permutation(a)
    assert rdx.sum(shuffled, determinism="any_device").view(np.uint64) == rep.view(np.uint64)


def test_f32_and_f16_sums_are_rounded_once():
    rng = np.random.default_rng(3)
    a32 = (rng.standard_normal(3001) * 10.0 ** rng.integers(-6, 7, 3001)).astype(np.float32)
    want = rounded(sum(Fraction(float(x)) for x in a32), np.float32)
    assert rdx.sum(a32, determinism="exact").view(np.uint32) == want.view(np.uint32)
    a16 = (rng.standard_normal(999) * 10.0 ** rng.integers(-2, 3, 999)).astype(np.float16)
    want16 = rounded(sum(Fraction(float(x)) for x in a16), np.float16)
    got16 = rdx.sum(a16, determinism="exact")
    assert type(got16) is np.float16 and got16 == want16


def test_exact_per_axis_and_views():
    a = hard_f64(6 * 50, 9).reshape(6, 50)
    rows = rdx.sum(a, axis=1, determinism="exact")
    assert [float(r) for r in rows] == [math.fsum(r) for r in a]
    cols = rdx.sum(a[:, ::-3], axis=0, determinism="any_device")
    assert [float(c) for c in cols] == [math.fsum(c) for c in a[:, ::-3].T]
    assert rdx.sum(a.T, determinism="exact") == math.fsum(a.ravel())


def test_any_device_in_any_order_and_close_to_the_others():
    a = np.random.default_rng(4).standard_normal(10000).astype(np.float32)
    e = rdx.sum(a, determinism="exact")
    rep = rdx.sum(a, determinism="any_device")
    for b in (a[::-1], np.random.default_rng(5).permutation(a)):
        assert rdx.sum(b, determinism="any_device").view(np.uint32) == rep.view(np.uint32)
    assert abs(float(rep) - float(e)) <= binned_bound(a, np.finfo(np.float32).eps, -118)
    assert abs(rdx.sum(a) - e) <= 1e-4 * np.sum(np.abs(a))
    assert rdx.nansum(np.where(a > 1, np.nan, a), determinism="exact") == rounded(
        sum(Fraction(float(x)) for x in a if x <= 1), np.float32)


def test_exact_means_and_variances():
    a = hard_f64(500, 2) * 1e-10 + 1e6
    m = rdx.mean(a, determinism="exact")
    assert m == pytest.approx(math.fsum(a) / len(a), rel=1e-15)
    v = rdx.var(a, determinism="exact")
    exact = [Fraction(float(x)) for x in a]
    mu = sum(exact) / len(exact)
    want = float(sum((x - mu) ** 2 for x in exact) / len(exact))
    assert v == pytest.approx(want, rel=1e-12)
    m2 = a.reshape(20, 25)[:, ::-1]  # a view of the whole array: reduced from a copy
    assert rdx.var(m2, determinism="exact") == v
    assert rdx.nanstd(m2.T, determinism="any_device") == rdx.std(a, determinism="exact")
    with pytest.raises(rdx.UnsupportedError):  # no exact variance per axis
        rdx.var(m2, axis=1, determinism="exact")


def test_integers_at_every_level():
    a = np.arange(-500, 700, dtype=np.int32)
    for level in ("run_to_run", "any_device", "exact"):
        assert rdx.sum(a, determinism=level) == np.sum(a)
        assert rdx.max(a, determinism=level) == 699
        assert rdx.argmin(a, determinism=level) == 0


def test_refused_where_no_exact_form():
    with pytest.raises(NotImplementedError):
        rdx.prod(np.ones(10, np.float32), determinism="exact")
    with pytest.raises(rdx.UnsupportedError):
        rdx.sum(np.ones(10, np.int32), dtype=np.float64, determinism="exact")
