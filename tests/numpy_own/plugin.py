"""A pytest plugin that runs NumPy's own reduction tests with NumPy's functions pointed at rdx's.

While pytest imports one of NumPy's test modules, `sys.modules["numpy"]` is a proxy module: the
test module's `import numpy as np` binds it, every attribute comes from NumPy but the reductions
of `REPLACED`, which are rdx's. NumPy itself, and rdx, keep the real module: only the tests' own
calls reach rdx (a method such as `a.sum()` stays NumPy's).

Each test's outcome is then sorted (tests/numpy_own/run.py prints and checks the counts):
- passed;
- refused: it failed on rdx's refusal of a dtype (docs/python.md's table of dtypes);
- a documented difference: it failed and its id is in differences.txt (with the reason);
- failed: any other failure, which fails the entry.
"""
import re
import sys
import types

import numpy
import pytest

import rdx

# NumPy's name -> rdx's function.
REPLACED = {name: getattr(rdx, name) for name in (
    "sum", "prod", "min", "max", "argmin", "argmax", "mean", "var", "std", "any", "all",
    "count_nonzero", "nansum", "nanprod", "nanmin", "nanmax", "nanargmin", "nanargmax",
    "nanmean", "nanvar", "nanstd", "ptp")}
REPLACED["amin"] = rdx.min
REPLACED["amax"] = rdx.max


class _Proxy(types.ModuleType):
    def __getattr__(self, name):
        if name in REPLACED:
            return REPLACED[name]
        return getattr(numpy, name)


proxy = _Proxy("numpy")
proxy.__path__ = numpy.__path__
proxy.__file__ = numpy.__file__
for _name, _fn in REPLACED.items():
    setattr(proxy, _name, _fn)

# rdx's refusals of a dtype: arrays of it (python/rdx/_inputs.py, TypeError) and a dtype= argument
# of it (python/rdx/_dtypes.py, NotImplementedError). The dtype named is group 1.
REFUSALS = (re.compile(r"arrays of (\S+) are not reduced \(only"),
            re.compile(r"dtype (\S+): the accumulator is an integer or float type of at most"))


def refused_dtype(excinfo):
    """The dtype rdx refused, where the test's failure is (or was raised while handling) such a
    refusal, else None: pytest.warns reports an exception inside it as "DID NOT WARN"."""
    if excinfo is None:
        return None
    e, seen = excinfo.value, set()
    while e is not None and id(e) not in seen:
        seen.add(id(e))
        if isinstance(e, (TypeError, NotImplementedError)):
            for pattern in REFUSALS:
                m = pattern.search(str(e))
                if m:
                    return m.group(1)
        e = e.__cause__ or e.__context__
    return None


def pytest_collectstart(collector):
    if isinstance(collector, pytest.Module):
        sys.modules["numpy"] = proxy


def pytest_collectreport(report):
    sys.modules["numpy"] = numpy


# nodeid -> "passed" | "skipped" | "failed" | "refused <dtype>" (a test's phases: any failure
# decides).
outcomes = {}


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    report = (yield).get_result()
    if report.skipped:
        outcomes.setdefault(item.nodeid, "skipped")
    elif report.failed:
        dtype = refused_dtype(call.excinfo)
        outcomes[item.nodeid] = f"refused {dtype}" if dtype else "failed"
    elif report.when == "call":
        outcomes.setdefault(item.nodeid, "passed")
