"""PyOpenCL arrays and buffers reduced in place on their own context and queue: slices at odd
offsets, views, users' reductions, segments, ReductionKernel; PyOpenCL's handles (from its own
bundled ICD loader) used through the system loader librdx links; no copy to the host."""
import os
import re
import warnings

import numpy as np
import pytest

import rdx
from helpers import check, data
from rdx import _table

_NUMPY2 = np.lib.NumpyVersion(np.__version__) >= "2.0.0"

try:
    import pyopencl as cl
    import pyopencl.array as cla
except ImportError as e:  # the only reason these tests skip
    pytest.skip(f"pyopencl cannot be imported ({e}); tools/test_python.sh installs it",
                allow_module_level=True)

N = 6007


def _device():
    """The kind of device the suite runs on: RDX_DEVICE's "gpu", else a CPU (PoCL)."""
    kind = cl.device_type.GPU if os.environ.get("RDX_DEVICE", "").lower() == "gpu" \
        else cl.device_type.CPU
    for platform in cl.get_platforms():
        for device in platform.get_devices():
            if device.type & kind:
                return device
    pytest.fail(f"PyOpenCL's ICD loader sees no {cl.device_type.to_string(kind)} device: set "
                "OCL_ICD_VENDORS to the folder of its .icd file")


@pytest.fixture(scope="module")
def queue():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PyOpenCL's compiler-output warnings
        ctx = cl.Context([_device()])
        return cl.CommandQueue(ctx)


@pytest.fixture(scope="module")
def host():
    a = data(np.float32, N, seed=21)
    a[[17, 3001]] = 9.5  # ties for argmax: the first counts
    a[[40, 4999]] = -9.5
    return a


@pytest.fixture(scope="module")
def dev(queue, host):
    return cla.to_device(queue, host)


def refuse_host_copies(monkeypatch):
    """From here on, any read of a PyOpenCL array back to the host fails the test."""
    def refuse(*args, **kwargs):
        raise AssertionError("rdx copied a PyOpenCL array to the host")
    monkeypatch.setattr(cla.Array, "get", refuse)
    monkeypatch.setattr(cl, "enqueue_copy", refuse)


@pytest.fixture()
def no_host_copy(monkeypatch):
    refuse_host_copies(monkeypatch)


def test_handles_of_two_loaders(queue):
    """PyOpenCL's handles work through librdx's loader: both loaders dispatch through the
    objects' ICD table, so a cl_context made through one is used through the other."""
    with open("/proc/self/maps") as f:
        loaders = set(re.findall(r"/\S*libOpenCL\S*", f.read()))
    ctx = rdx.Context.from_pyopencl(queue)
    assert ctx.cl_handles() == (queue.context.int_ptr, queue.device.int_ptr, queue.int_ptr)
    assert ctx.device.name == queue.device.name
    assert ctx.queue is queue
    buf = cla.to_device(queue, np.arange(1000, dtype=np.int32))
    assert rdx.sum(buf, device=ctx) == 499500
    # what PyOpenCL queued before (a fill, not waited for) runs before librdx's reduction
    buf.fill(np.int32(3))
    assert rdx.sum(buf, device=ctx) == 3000
    # PyOpenCL's wheels bundle their own loader (pyopencl/.libs) beside the system's that
    # librdx links: then this test ran through two loaders
    bundled = os.path.isdir(os.path.join(os.path.dirname(cl.__file__), ".libs"))
    assert len(loaders) >= (2 if bundled else 1), loaders


def test_slices_at_odd_offsets(dev, host, no_host_copy):
    for start, stop in ((1001, 5003), (1, N), (3, 8), (2999, 3000)):
        s, h = dev[start:stop], host[start:stop]
        assert s.offset == 4 * start
        check(rdx.sum(s), np.sum(h), what=f"[{start}:{stop}]")
        check(rdx.max(s), np.max(h))
        check(rdx.argmax(s), np.argmax(h))  # counted from the slice's start
        check(rdx.argmin(s), np.argmin(h))
    s, h = dev[1001:5003], host[1001:5003]
    check(rdx.mean(s), np.mean(h), rtol=2e-6)
    check(rdx.count_nonzero(s), np.count_nonzero(h))
    check(rdx.sum(s, determinism="exact"), np.float32(np.sum(h.astype(np.float64))))
    lo, hi = rdx.minmax(s)
    check(lo, np.min(h))
    check(hi, np.max(h))


def test_views_and_axes(dev, host, no_host_copy):
    m, hm = dev[7:7 + 60 * 100].reshape(60, 100), host[7:7 + 60 * 100].reshape(60, 100)
    check(rdx.sum(m, axis=0), np.sum(hm, axis=0))
    check(rdx.argmax(m, axis=1), np.argmax(hm, axis=1))
    check(rdx.max(m.T, axis=1), np.max(hm.T, axis=1))  # a transpose: strides in elements
    check(rdx.sum(dev[5::3]), np.sum(host[5::3]))
    check(rdx.argmin(dev[5::3]), np.argmin(host[5::3]))
    check(rdx.std(m, axis=(0, 1)), np.std(hm), rtol=2e-6)
    # two arrays of one view at their own offsets (either first)
    check(rdx.dot(dev[1:2001:2], dev[2:2002:2]), np.dot(host[1:2001:2], host[2:2002:2]))
    check(rdx.dot(dev[4:2004:2], dev[1:2001:2]), np.dot(host[4:2004:2], host[1:2001:2]))
    check(rdx.dot(dev[3:1003], dev[10:1010]), np.dot(host[3:1003], host[10:1010]))


def test_users_reductions_segments_and_kernels(queue, dev, host, no_host_copy):
    s, h = dev[1001:5003], host[1001:5003]
    check(rdx.reduce(s, map="x * x", combine="a + b", identity=0), np.sum(h * h))
    # the map's i counts from the slice's start
    check(rdx.reduce(s, map="(long)i", combine="a + b", identity=0, dtype=np.int64),
          np.sum(np.arange(h.size)))
    check(rdx.reduce(s, "max", map="fabs(x)"), np.max(np.abs(h)))
    check(rdx.reduce_segments(s, [0, 5, 5, 1000, 4002], "sum"),
          np.array([np.sum(h[:5]), 0, np.sum(h[5:1000]), np.sum(h[1000:])], np.float32))
    check(rdx.reduce_segments(s, [0, 5, 1000, 4002], "argmax"),
          np.array([np.argmax(h[:5]), np.argmax(h[5:1000]), np.argmax(h[1000:])]))
    check(rdx.reduceat(s, [0, 7, 3000]), np.add.reduceat(h, [0, 7, 3000]))
    t = rdx.ReductionKernel(np.float32, neutral="0", reduce_expr="a+b",
                            map_expr="x[i]*y[i]", arguments="__global const float *x, "
                            "__global const float *y")
    check(t(dev[1:1001], dev[3:1003]), np.dot(host[1:1001], host[3:1003]))
    # PyOpenCL's order: the context first; queue= picks the queue
    k = rdx.ReductionKernel(queue.context, np.int64, "0", "a + b", "(long)i + (long)x[i]",
                            "int *x")
    ints = cla.arange(queue, 0, 100, 1, dtype=np.int32)
    assert k(ints[10:20]) == sum(range(10)) + sum(range(10, 20))
    assert k(ints[10:20], queue=queue) == k(ints[10:20])


def test_buffers_and_queues(queue, dev, host):
    buf = dev.base_data
    check(rdx.sum(rdx.from_buffer(buf, np.float32, 100, 4 * 9, queue=queue)),
          np.sum(host[9:109]))
    check(rdx.max(rdx.from_buffer(buf, np.float32, queue=queue)), np.max(host))
    with pytest.raises(TypeError, match="from_buffer"):
        rdx.sum(buf)  # no dtype: refused
    with pytest.raises(ValueError):
        rdx.from_buffer(buf, np.float32, 10, 2, queue=queue)
    with pytest.raises(ValueError):
        rdx.from_buffer(buf, np.float32, N + 1, queue=queue)
    odd = cla.Array(queue, (10,), np.float32, data=buf, offset=2)
    with pytest.raises(ValueError, match="offset"):
        rdx.sum(odd)
    with pytest.raises(ValueError, match="another OpenCL context"):
        rdx.sum(dev, device="cpu")  # librdx's own context: not the buffer's
    with pytest.raises(TypeError):
        rdx.dot(dev[:10], host[:10])  # host and device arrays in one call
    queueless = cla.Array(queue.context, (10,), np.float32, data=buf)
    with pytest.raises(ValueError, match="queue"):
        rdx.sum(queueless)
    check(rdx.sum(queueless, device=queue), np.sum(host[:10]))
    check(rdx.sum(cla.empty(queue, (0,), np.float32)), np.float32(0))
    with pytest.raises(ValueError):
        rdx.max(cla.empty(queue, (0, 3), np.float32), axis=0)
    b = cla.to_device(queue, host > 0)
    check(rdx.sum(b), np.sum(host > 0))
    check(rdx.all(b[:1]), np.all(host[:1] > 0))
    np.testing.assert_array_equal(dev.get(), host)  # never modified


def test_bool_bytes_on_the_device(queue, monkeypatch):
    """A bool array whose bytes are not all 0 and 1: every non-zero byte is True, as NumPy
    counts it, mapped on the device (no copy to the host); the array's own bytes stay."""
    raw = np.array([0, 2, 1, 255, 0, 7, 1, 128, 3, 0, 0, 1] * 5, np.uint8)
    host = raw.view(bool)
    d = cla.to_device(queue, raw).view(bool)
    ints = cla.to_device(queue, np.arange(60, dtype=np.int32))
    refuse_host_copies(monkeypatch)
    for name in ("sum", "argmax", "argmin", "mean", "count_nonzero", "max"):
        check(getattr(rdx, name)(d), getattr(np, name)(host), rtol=1e-12, what=name)
        check(getattr(rdx, name)(d[3::5]), getattr(np, name)(host[3::5]), rtol=1e-12,
              what=f"{name} of a strided view")
    check(rdx.sum(d.reshape(5, 12), axis=0), np.sum(host.reshape(5, 12), axis=0))
    check(rdx.dot(d, ints), np.dot(host, np.arange(60, dtype=np.int32)))
    monkeypatch.undo()
    np.testing.assert_array_equal(d.view(np.uint8).get(), raw)  # its bytes as they were


def _over_axes(device_results):
    """The table's functions of one array over axes whose rows say device_results."""
    return [row.name for row in _table.FUNCTIONS
            if row.device_results == device_results and row.numpy and "." not in row.numpy
            and row.params.startswith("a, axis=")]


def test_results_over_axes_stay_on_the_device(queue, dev, host, no_host_copy):
    """The functions whose table rows say so (device_results: all but any and all) over some
    axes of a PyOpenCL array give PyOpenCL arrays on its queue, of NumPy's dtype and shape;
    nothing is read back to the host."""
    m, hm = dev[3:3 + 40 * 150].reshape(40, 150), host[3:3 + 40 * 150].reshape(40, 150)
    on_device = _over_axes(True)
    assert {"sum", "argmax", "mean", "var", "nanstd", "count_nonzero"} <= set(on_device), on_device
    assert set(_over_axes(False)) == {"any", "all"}, _over_axes(False)
    for name in on_device:
        for axis in (0, 1):
            r = getattr(rdx, name)(m, axis=axis)
            assert isinstance(r, cla.Array) and r.queue is queue, (name, axis, type(r))
            check(r, getattr(np, name)(hm, axis=axis), rtol=2e-6, what=f"{name} axis {axis}")
    for ddof in (1, 2.5):  # var's ddof scaling and std's root on the device too
        for name in ("var", "std"):
            r = getattr(rdx, name)(m, axis=0, ddof=ddof)
            assert isinstance(r, cla.Array), (name, ddof, type(r))
            check(r, getattr(np, name)(hm, axis=0, ddof=ddof), rtol=2e-6, what=f"{name} {ddof}")
    lo, hi = rdx.minmax(m, axis=1)
    assert isinstance(lo, cla.Array) and isinstance(hi, cla.Array)
    check(lo, np.min(hm, axis=1))
    check(hi, np.max(hm, axis=1))
    r = rdx.norm(m, axis=1)
    assert isinstance(r, cla.Array)
    check(r, np.linalg.norm(hm, axis=1), rtol=2e-6)
    mi = cla.arange(queue, 0, 60, 1, dtype=np.int16).reshape(6, 10)  # made on the device
    hmi = np.arange(60, dtype=np.int16).reshape(6, 10)
    for name in ("nansum", "nanprod", "count_nonzero"):
        r = getattr(rdx, name)(mi, axis=1)
        assert isinstance(r, cla.Array) and r.queue is queue, (name, type(r))
        check(r, getattr(np, name)(hmi, axis=1), what=f"{name} of int16")
    r = rdx.sum(m, axis=0, keepdims=True)
    assert isinstance(r, cla.Array)
    check(r, np.sum(hm, axis=0, keepdims=True))
    r = rdx.var(m, axis=0, keepdims=True)
    assert isinstance(r, cla.Array)
    check(r, np.var(hm, axis=0, keepdims=True), rtol=2e-6)
    ints = cla.arange(queue, 0, 24, 1, dtype=np.int32).reshape(2, 3, 4)  # made on the device
    hi = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    check(rdx.sum(ints, axis=(0, 2)), np.sum(hi, axis=(0, 2)))  # int64, as NumPy's
    check(rdx.argmax(ints[:, ::-1], axis=1), np.argmax(hi[:, ::-1], axis=1))
    check(rdx.std(ints[:, ::-1], axis=(0, 2)), np.std(hi[:, ::-1], axis=(0, 2)), rtol=1e-12)


def test_results_come_from_a_pool(queue, host):
    """Results on the device come from the queue's memory pool (freed arrays' memory is taken
    again, as CuPy's and PyTorch's caching allocators do), or from the input's own allocator
    where it has one; either way the values are NumPy's."""
    import pyopencl.tools as clt

    hm = host[:600].reshape(6, 100)
    m = cla.to_device(queue, hm)
    first = rdx.sum(m, axis=0)
    assert isinstance(first.allocator, clt.MemoryPool)
    assert rdx.max(m, axis=1).allocator is first.allocator
    assert rdx.var(m, axis=0).allocator is first.allocator  # the composites' too
    block = first.base_data.int_ptr
    del first  # its memory goes back to the pool, and the next result of its size takes it
    again = rdx.sum(m, axis=0)
    assert again.base_data.int_ptr == block
    check(again, np.sum(hm, axis=0))
    i16 = cla.to_device(queue, (hm * 100).astype(np.int16))
    lo, hi = rdx.minmax(i16, axis=0)  # 16-bit integers: finished on the host, moved there
    assert isinstance(lo, cla.Array) and isinstance(hi, cla.Array)
    check(lo, np.min((hm * 100).astype(np.int16), axis=0))
    check(hi, np.max((hm * 100).astype(np.int16), axis=0))
    own = clt.MemoryPool(clt.ImmediateAllocator(queue))
    mine = cla.to_device(queue, hm, allocator=own)
    r = rdx.argmax(mine, axis=1)
    assert r.allocator is own
    check(r, np.argmax(hm, axis=1))


def test_results_over_axes_read_back(queue, host):
    """What is not left on the device: out= (a NumPy array, filled), initial=, mean=, bool and
    float16 results, any and all; an all-NaN slice of nanargmax raises as NumPy's, and the
    nan* moments of slices with NaN come back to the device after NumPy's steps on the host."""
    hm = host[:600].reshape(6, 100)
    m = cla.to_device(queue, hm)
    out = np.empty(100, np.float32)
    assert rdx.sum(m, axis=0, out=out) is out
    check(out, np.sum(hm, axis=0))
    check(rdx.max(m, axis=1, initial=4.0), np.max(hm, axis=1, initial=4.0))
    check(rdx.max(cla.to_device(queue, hm > 0), axis=0), np.max(hm > 0, axis=0))
    h16 = hm.astype(np.float16)
    check(rdx.max(cla.to_device(queue, h16), axis=0), np.max(h16, axis=0))
    mu = np.mean(hm, axis=0, keepdims=True)
    r = rdx.var(m, axis=0, mean=mu)
    assert isinstance(r, np.ndarray), type(r)
    check(r, np.var(hm, axis=0, mean=mu) if _NUMPY2 else np.var(hm, axis=0), rtol=2e-6)
    for name in _over_axes(False):  # the rows that say NumPy arrays
        r = getattr(rdx, name)(m, axis=0)
        assert isinstance(r, np.ndarray), (name, type(r))
    nan = hm.copy()
    nan[:, 7] = np.nan
    nan[:3, 9] = np.nan
    with pytest.raises(ValueError, match="All-NaN"):
        rdx.nanargmax(cla.to_device(queue, nan), axis=0)
    for name in ("nanmean", "nanvar", "nanstd"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            r = getattr(rdx, name)(cla.to_device(queue, nan), axis=0)
            want = getattr(np, name)(nan, axis=0)
        assert isinstance(r, cla.Array), (name, type(r))
        check(r, want, rtol=2e-6, what=name)


def test_out_on_the_device_and_asnumpy(queue, host):
    """out= takes a PyOpenCL array (results written on its queue, cast there); a whole reduction
    into a 0-d one; rdx.asnumpy brings any result home."""
    hm = host[:600].reshape(6, 100)
    m = cla.to_device(queue, hm)
    out = cla.empty(queue, (100,), np.float32)
    assert rdx.max(m, axis=0, out=out) is out
    check(rdx.asnumpy(out), np.max(hm, axis=0))
    wide = cla.empty(queue, (6,), np.float64)
    assert rdx.sum(m, axis=1, out=wide) is wide
    check(rdx.asnumpy(wide), np.sum(hm, axis=1).astype(np.float64))
    idx = cla.empty(queue, (6,), np.int64)
    rdx.argmax(m, axis=1, out=idx)
    check(rdx.asnumpy(idx), np.argmax(hm, axis=1))
    scalar = cla.empty(queue, (), np.float32)
    assert rdx.sum(m, out=scalar) is scalar
    check(rdx.asnumpy(scalar), np.asarray(np.sum(hm)))
    host_out = cla.empty(queue, (100,), np.float32)
    rdx.min(hm, axis=0, out=host_out)  # a host array's results moved to the device
    check(rdx.asnumpy(host_out), np.min(hm, axis=0))
    with pytest.raises(ValueError, match="shape"):
        rdx.max(m, axis=0, out=cla.empty(queue, (99,), np.float32))
    with pytest.raises(NotImplementedError, match="strides"):
        rdx.max(m, axis=0, out=cla.empty(queue, (200,), np.float32)[::2])
    check(rdx.asnumpy(np.float32(2)), np.asarray(np.float32(2)))
