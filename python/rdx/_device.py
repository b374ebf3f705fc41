"""PyOpenCL arrays and buffers, reduced in place on the device: what the functions read of them.

A pyopencl.array.Array is its buffer (base_data), the first element's offset (its byte offset
over the item size), its shape and its strides in elements; librdx reads those elements where
they are (rdx::BufferAt, rdx::View over the cl::Buffer), on the array's own queue. Nothing is
copied to the host. Reductions over some of the axes leave their results on the device too:
new PyOpenCL arrays on the input's queue (DeviceArray.results). PyOpenCL is imported only by
the caller: an object can only be PyOpenCL's when pyopencl is already in sys.modules.
"""
from __future__ import annotations

import collections
import math
import sys
import threading
import types

import numpy as np

from . import _rdx


def pyopencl_array(a) -> bool:
    """Whether a is a pyopencl.array.Array (or a subclass)."""
    cla = sys.modules.get("pyopencl.array")
    return cla is not None and isinstance(a, cla.Array)


def pyopencl_buffer(a) -> bool:
    cl = sys.modules.get("pyopencl")
    return cl is not None and isinstance(a, cl.MemoryObjectHolder)


class DeviceArray:
    """A PyOpenCL array as the functions read it, with the few parts of ndarray's interface
    they use (shape, ndim, size, dtype, strides, flags.c_contiguous, view, astype, reshape).
    dtype may reinterpret the elements (bool as uint8, an integer as its unsigned twin)."""

    def __init__(self, arr, dtype=None, name="reduce"):
        self.arr = arr
        self.dtype = np.dtype(arr.dtype if dtype is None else dtype)
        self.shape = tuple(map(int, arr.shape))
        self.ndim = len(self.shape)
        self.size = math.prod(self.shape)  # Python ints: np.prod costs microseconds a call
        self.strides = tuple(map(int, arr.strides))
        self.queue = arr.queue
        self.context = arr.context
        item = self.dtype.itemsize
        if arr.offset % item:
            raise ValueError(f"rdx.{name}: the PyOpenCL array starts at byte offset {arr.offset}, "
                             f"not a multiple of its item size {item}")
        if any(s % item for s in self.strides):
            raise NotImplementedError(f"rdx.{name}: a PyOpenCL array whose strides "
                                      f"{self.strides} are not whole elements of {item} bytes")
        self.offset = arr.offset // item  # elements from the buffer's start
        self.flags = types.SimpleNamespace(c_contiguous=bool(arr.flags.c_contiguous))
        self._name = name

    def view(self, dtype):
        """The same elements read as dtype, of the same size."""
        dtype = np.dtype(dtype)
        assert dtype.itemsize == self.dtype.itemsize
        return DeviceArray(self.arr, dtype, self._name)

    def astype(self, dtype):
        """A copy cast to dtype, on the device (PyOpenCL's astype, on the array's queue)."""
        self.contiguous()
        arr = self.arr if self.dtype == self.arr.dtype else self.arr.view(self.dtype)
        return DeviceArray(arr.astype(dtype), None, self._name)

    def bool_bytes(self):
        """This bool array (read as uint8) as bytes of 0 and 1, as NumPy counts every non-zero
        byte as True: the bytes the array spans, mapped on the device by PyOpenCL's elementwise
        `!= 0` into a new buffer, read with the array's own shape and strides. The array's own
        buffer is not modified."""
        if self.queue is None:
            raise ValueError(f"rdx.{self._name}: the PyOpenCL bool array has no queue to map "
                             "its bytes to 0 and 1 on (make it with one: arr.with_queue(q))")
        import pyopencl.array as cla

        ends = [(n - 1) * s for n, s in zip(self.shape, self.strides)]
        lo = self.arr.offset + sum(e for e in ends if e < 0)
        hi = self.arr.offset + sum(e for e in ends if e > 0)
        span = cla.Array(self.queue, (hi - lo + 1,), np.uint8, data=self.arr.base_data,
                         offset=lo)
        mapped = span != 0  # 0 and 1 bytes (PyOpenCL's comparisons give int8)
        arr = cla.Array(self.queue, self.shape, np.uint8, data=mapped.base_data,
                        offset=self.arr.offset - lo, strides=self.strides)
        return DeviceArray(arr, np.uint8, self._name)

    def contiguous(self):
        if not self.flags.c_contiguous:
            raise NotImplementedError(f"rdx.{self._name}: this reduction of a non-contiguous "
                                      "PyOpenCL array would need a contiguous copy")
        return self

    def reshape(self, *shape):
        self.contiguous()
        return DeviceArray(self.arr.reshape(*shape), self.dtype, self._name)

    def results(self, shape, dtype) -> "DeviceArray":
        """A new C-contiguous PyOpenCL array of shape and dtype on this array's queue, for the
        results of a reduction of it: from the input's own allocator where it has one (as
        PyOpenCL's operations allocate), else from the queue's memory pool (results_pool)."""
        import pyopencl.array as cla

        allocator = self.arr.allocator
        if allocator is None:
            allocator = results_pool(self.queue)
        return DeviceArray(cla.empty(self.queue, tuple(shape), np.dtype(dtype),
                                     allocator=allocator), None, self._name)

    def handle(self, type_name: str):
        """The extension's rdx._rdx.DeviceArray (the buffer retained)."""
        item = self.dtype.itemsize
        strides = [s // item for s in self.strides] if item > 1 else list(self.strides)
        return _rdx.DeviceArray(self.arr.base_data.int_ptr, type_name, self.offset,
                                list(self.shape), strides)


_POOLS = 32  # memory pools kept for PyOpenCL queues, the most recently used
_pools: collections.OrderedDict = collections.OrderedDict()
_pools_lock = threading.Lock()


def results_pool(queue):
    """The memory pool results on `queue` come from (pyopencl.tools.MemoryPool over an
    ImmediateAllocator of the queue), made on first use and kept for the 32 most recently used
    queues: a result's memory goes back to it when the array is freed, and the next result of
    that size takes it without a new allocation, as CuPy's and PyTorch's caching allocators do
    (on the H200 a fresh buffer's first use was up to half a call; docs/python.md). A pool
    dropped from the 32 gives its held memory back to OpenCL (MemoryPool.free_held)."""
    key = queue.int_ptr  # the pool's allocator retains the queue: the address stays its own
    with _pools_lock:
        pool = _pools.get(key)
        if pool is not None:
            _pools.move_to_end(key)
            return pool
    import pyopencl.tools as clt

    pool = clt.MemoryPool(clt.ImmediateAllocator(queue))
    with _pools_lock:
        pool = _pools.setdefault(key, pool)
        _pools.move_to_end(key)
        dropped = []
        while len(_pools) > _POOLS:
            dropped.append(_pools.popitem(last=False)[1])
    for old in dropped:
        old.free_held()  # blocks in use go back to OpenCL when their arrays are freed
    return pool


def from_buffer(buffer, dtype, count=-1, offset=0, *, queue):
    """A bare pyopencl.Buffer as a pyopencl.array.Array of `count` elements of dtype from byte
    `offset` on (numpy.frombuffer's arguments; count -1: to the buffer's end), on `queue`: no
    copy. Every rdx function takes the result."""
    cl = sys.modules.get("pyopencl")
    if not pyopencl_buffer(buffer):
        raise TypeError(f"rdx.from_buffer: a pyopencl.Buffer, not {type(buffer).__name__}")
    if not isinstance(queue, cl.CommandQueue):
        raise TypeError("rdx.from_buffer: queue must be a pyopencl.CommandQueue of the buffer's "
                        f"context, not {type(queue).__name__}")
    import pyopencl.array as cla

    dtype = np.dtype(dtype)
    offset, count = int(offset), int(count)
    size = buffer.size
    if offset < 0 or offset > size:
        raise ValueError(f"rdx.from_buffer: offset {offset} is outside the buffer's {size} bytes")
    if offset % dtype.itemsize:
        raise ValueError(f"rdx.from_buffer: offset {offset} is not a multiple of the item size "
                         f"{dtype.itemsize}")
    if count < 0:
        if count != -1:
            raise ValueError(f"rdx.from_buffer: count {count} (-1 or more)")
        count = (size - offset) // dtype.itemsize
    if offset + count * dtype.itemsize > size:
        raise ValueError(f"rdx.from_buffer: {count} elements of {dtype} from byte {offset} need "
                         f"{offset + count * dtype.itemsize} bytes, the buffer has {size}")
    return cla.Array(queue, (count,), dtype, data=buffer, offset=offset)
