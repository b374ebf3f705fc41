"""The tests run on RDX_DEVICE (tools/test_python.sh: PoCL's CPU device, "cpu").

With RDX_TEST_TIER=quick (the quick tier's `python` entry, tests/CMakeLists.txt), a test
parametrized by `dtype` runs for float32, int32 and float16 only (a float, an integer and a
16-bit storage type): each dtype builds kernels of its own, which is most of the suite's time.
The deselected cases are reported as such, and `python.all` runs them all."""
import os

import numpy as np

os.environ.setdefault("RDX_DEVICE", "cpu")

QUICK_DTYPES = {"float32", "int32", "float16"}


def _dtype_name(value):
    try:
        return np.dtype(value).name
    except TypeError:
        return None


def pytest_collection_modifyitems(config, items):
    if os.environ.get("RDX_TEST_TIER") != "quick":
        return
    kept, dropped = [], []
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        name = _dtype_name(params["dtype"]) if "dtype" in params else None
        (dropped if name is not None and name not in QUICK_DTYPES else kept).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept
