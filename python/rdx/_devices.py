"""Devices and contexts: rdx.devices(), rdx.Context, and the context each function runs on."""
from __future__ import annotations

import atexit
import collections
import sys
import threading
import time
from dataclasses import dataclass

from . import _rdx


@dataclass(frozen=True)
class Device:
    """An OpenCL device as librdx lists it (the order of `clrdx devices`)."""

    index: int  # a selector: Context(str(index))
    selector: str  # "P:D", platform and device index: a selector too
    name: str
    platform: str
    vendor: str
    version: str
    driver: str
    kind: str  # "cpu", "gpu", "accelerator" or "other"
    compute_units: int
    max_work_group: int
    global_mem: int  # bytes
    local_mem: int
    max_alloc: int  # the largest buffer, in bytes
    fp64: bool  # float64 arrays reduce on it


class Context(_rdx.Context):
    """One OpenCL device, its queue and its cache of built programs; threads may share it.

    Context(selector="") picks the device as `clrdx --device` does: "" means the RDX_DEVICE
    environment variable, else the first GPU, else the first device; "cpu", "gpu", an index,
    "P:D", or part of a device's or platform's name.
    """

    @property
    def device(self) -> Device:
        return Device(**self.device_facts())

    @property
    def queue(self):
        """The PyOpenCL CommandQueue this context runs on (from_pyopencl), else None."""
        return getattr(self, "_pyopencl_queue", None)

    @classmethod
    def from_pyopencl(cls, queue) -> Context:
        """A context over PyOpenCL's own objects: the queue's context, device and queue (a
        pyopencl.CommandQueue, in order; a pyopencl.Context gets a new queue on its first
        device). Buffers of that context are reduced in place, on that queue, after what was
        queued before. The handles are retained (PyOpenCL keeps its own references)."""
        cl = sys.modules.get("pyopencl")
        if cl is None or not isinstance(queue, (cl.CommandQueue, cl.Context)):
            raise TypeError("Context.from_pyopencl: a pyopencl.CommandQueue (or Context), not "
                            f"{type(queue).__name__}")
        if isinstance(queue, cl.Context):
            queue = cl.CommandQueue(queue)
        if queue.properties & cl.command_queue_properties.OUT_OF_ORDER_EXEC_MODE_ENABLE:
            raise ValueError("Context.from_pyopencl: the queue executes out of order; librdx "
                             "needs an in-order queue")
        self = cls.__new__(cls)
        _rdx.Context.__init__(self, pyopencl_queue=queue)
        self._pyopencl_queue = queue
        return self

    def __repr__(self) -> str:
        d = self.device
        return f"rdx.Context({self.selector!r}: {d.name} on {d.platform})"


def devices() -> list[Device]:
    """Every OpenCL device of every platform."""
    return [Device(**facts) for facts in _rdx.devices()]


_contexts: dict[str | None, Context] = {}
_lock = threading.Lock()


@atexit.register
def _daemons_at_exit() -> None:
    """Daemon threads still running at exit are stopped by Python where they next take the GIL,
    and one that takes it back at the end of an rdx call would unwind through the extension's
    C++ frames (std::terminate). So, where such threads are alive, the calls now in librdx are
    waited for, and every thread that enters or leaves one from now on is parked instead
    (unlocked.hpp). Their contexts and arrays are then never freed, which nanobind would report
    on stderr as leaked instances at the interpreter's end: the threads' doing, not a leak, so
    the report is turned off then, and only then (an exit without such threads keeps it)."""
    main = threading.main_thread()
    if not any(t.daemon and t.is_alive() for t in threading.enumerate() if t is not main):
        return
    _rdx._begin_exit()
    while _rdx._calls_in_librdx():
        time.sleep(0.001)
    _rdx._set_leak_warnings(False)


def context(device: str | Context | None = None) -> Context:
    """The context a function given `device=` runs on: one Context per selector string, made on
    first use and kept; a Context is used as it is; None is the default device ("")."""
    if device is None or type(device) is str:
        ctx = _contexts.get(device)  # None's is ""'s
        if ctx is None:
            selector = "" if device is None else device
            with _lock:
                ctx = _contexts.get(selector)
                if ctx is None:
                    ctx = _contexts[selector] = Context(selector)
                _contexts[device] = ctx
        return ctx
    if isinstance(device, _rdx.Context):
        return device
    cl = sys.modules.get("pyopencl")
    if cl is not None and isinstance(device, cl.CommandQueue):
        return queue_context(device)
    raise TypeError("device: a selector string, an rdx.Context or a pyopencl.CommandQueue, not "
                    f"{type(device).__name__}")


_QUEUES = 32  # contexts kept for PyOpenCL queues, the most recently used
_queue_contexts: collections.OrderedDict[int, Context] = collections.OrderedDict()


def queue_context(queue) -> Context:
    """The context of a PyOpenCL queue: Context.from_pyopencl(queue), made on first use and
    kept for the 32 most recently used queues."""
    key = queue.int_ptr  # the queue is retained by its context: the address stays its own
    with _lock:
        ctx = _queue_contexts.get(key)
        if ctx is not None:
            _queue_contexts.move_to_end(key)
            return ctx
    ctx = Context.from_pyopencl(queue)
    with _lock:
        ctx = _queue_contexts.setdefault(key, ctx)
        _queue_contexts.move_to_end(key)
        while len(_queue_contexts) > _QUEUES:
            _queue_contexts.popitem(last=False)
    return ctx
