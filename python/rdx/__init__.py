"""rdx: NumPy's reductions on any OpenCL device, with librdx.

    import numpy as np, rdx
    a = np.random.default_rng(0).standard_normal(1 << 20, dtype=np.float32)
    rdx.sum(a)                          # as np.sum(a), on the default device
    rdx.sum(a, determinism="exact")     # the correctly rounded sum, the same bits everywhere
    rdx.max(a.reshape(1024, -1), axis=1, device="cpu")
    rdx.reduce(a, map="x * x", combine="a + b", identity="0")   # a reduction of your own
    rdx.sum(pyopencl_array[1000:5000])  # in place on the array's own context and queue
    rdx.asnumpy(rdx.max(pyopencl_array.reshape(64, -1), axis=0))   # results left on the device

docs/python.md in the repository documents the package.
"""
from ._custom import ReductionKernel, reduce, reduce_segments, reduceat
from ._device import from_buffer
from ._devices import Context, Device, context, devices
from ._inputs import asnumpy
from ._rdx import (ArgumentError, BuildError, ClError, DeviceError, DeviceMemoryError, Error,
                   UnsupportedError)
from ._rdx import __version__
from ._reductions import FUNCTIONS as _FUNCTIONS
from ._table import NAMES as _NAMES

# NumPy's functions, one per row of rdx/_table.py (made there at import by _reductions.make).
globals().update(_FUNCTIONS)

__all__ = [
    "__version__",
    "Context", "Device", "context", "devices",
    "Error", "ArgumentError", "UnsupportedError", "DeviceError", "ClError", "DeviceMemoryError",
    "BuildError",
    *_NAMES,
    "reduce", "ReductionKernel", "reduce_segments", "reduceat", "from_buffer", "asnumpy",
]
