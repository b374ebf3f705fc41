# Type stubs of the package rdx (docs/python.md).
from dataclasses import dataclass
from typing import Any, Literal, SupportsIndex, TypeAlias, overload

import numpy as np
import numpy.typing as npt

__version__: str

Determinism: TypeAlias = Literal["run_to_run", "any_device", "exact"]
Axis: TypeAlias = SupportsIndex | tuple[SupportsIndex, ...] | None
# A selector, a Context, or a pyopencl.CommandQueue (its Context.from_pyopencl).
DeviceArg: TypeAlias = str | Context | Any | None
# NumPy arrays and whatever numpy.asarray takes, DLPack host producers, pyopencl.array.Array.
_Array: TypeAlias = npt.ArrayLike | Any
_Op: TypeAlias = str | np.ufunc
# An OpenCL C expression, or a number (the identity).
_Expr: TypeAlias = str | int | float
_DType: TypeAlias = npt.DTypeLike
# A NumPy scalar where every axis is reduced (keepdims False), else a numpy.ndarray.
_Result: TypeAlias = Any

class Error(Exception): ...
class ArgumentError(Error, ValueError): ...
class UnsupportedError(Error, NotImplementedError): ...
class DeviceError(Error, RuntimeError): ...
class ClError(Error, RuntimeError): ...
class DeviceMemoryError(ClError, MemoryError): ...
class BuildError(ClError): ...

@dataclass(frozen=True)
class Device:
    index: int
    selector: str
    name: str
    platform: str
    vendor: str
    version: str
    driver: str
    kind: str
    compute_units: int
    max_work_group: int
    global_mem: int
    local_mem: int
    max_alloc: int
    fp64: bool

class Context:
    def __init__(self, selector: str = "") -> None: ...
    @classmethod
    def from_pyopencl(cls, queue: Any) -> Context: ...
    @property
    def selector(self) -> str: ...
    @property
    def device(self) -> Device: ...
    @property
    def queue(self) -> Any: ...
    def device_facts(self) -> dict[str, Any]: ...
    def cl_handles(self) -> tuple[int, int, int]: ...

def devices() -> list[Device]: ...
def context(device: DeviceArg = None) -> Context: ...

# BEGIN the functions of rdx/_table.py (python/tools/gen_stubs.py writes them)
def sum(a: _Array, axis: Axis = None, dtype: _DType = None, out: np.ndarray | None = None,
        keepdims: bool = False, initial: Any = None, *, device: DeviceArg = None,
        determinism: Determinism = "run_to_run") -> _Result: ...
def prod(a: _Array, axis: Axis = None, dtype: _DType = None, out: np.ndarray | None = None,
         keepdims: bool = False, initial: Any = None, *, device: DeviceArg = None,
         determinism: Determinism = "run_to_run") -> _Result: ...
def min(a: _Array, axis: Axis = None, out: np.ndarray | None = None, keepdims: bool = False,
        initial: Any = None, *, device: DeviceArg = None,
        determinism: Determinism = "run_to_run") -> _Result: ...
def max(a: _Array, axis: Axis = None, out: np.ndarray | None = None, keepdims: bool = False,
        initial: Any = None, *, device: DeviceArg = None,
        determinism: Determinism = "run_to_run") -> _Result: ...
def argmin(a: _Array, axis: SupportsIndex | None = None, out: np.ndarray | None = None, *,
           keepdims: bool = False, device: DeviceArg = None,
           determinism: Determinism = "run_to_run") -> _Result: ...
def argmax(a: _Array, axis: SupportsIndex | None = None, out: np.ndarray | None = None, *,
           keepdims: bool = False, device: DeviceArg = None,
           determinism: Determinism = "run_to_run") -> _Result: ...
def mean(a: _Array, axis: Axis = None, dtype: _DType = None, out: np.ndarray | None = None,
         keepdims: bool = False, *, device: DeviceArg = None,
         determinism: Determinism = "run_to_run") -> _Result: ...
def var(a: _Array, axis: Axis = None, dtype: _DType = None, out: np.ndarray | None = None,
        ddof: float = 0, keepdims: bool = False, *, mean: npt.ArrayLike | None = None,
        correction: float | None = None, device: DeviceArg = None,
        determinism: Determinism = "run_to_run") -> _Result: ...
def std(a: _Array, axis: Axis = None, dtype: _DType = None, out: np.ndarray | None = None,
        ddof: float = 0, keepdims: bool = False, *, mean: npt.ArrayLike | None = None,
        correction: float | None = None, device: DeviceArg = None,
        determinism: Determinism = "run_to_run") -> _Result: ...
def any(a: _Array, axis: Axis = None, out: np.ndarray | None = None, keepdims: bool = False, *,
        device: DeviceArg = None, determinism: Determinism = "run_to_run") -> _Result: ...
def all(a: _Array, axis: Axis = None, out: np.ndarray | None = None, keepdims: bool = False, *,
        device: DeviceArg = None, determinism: Determinism = "run_to_run") -> _Result: ...
@overload
def count_nonzero(a: _Array, axis: None = None, *, keepdims: Literal[False] = False,
                  device: DeviceArg = None, determinism: Determinism = "run_to_run") -> int: ...
@overload
def count_nonzero(a: _Array, axis: Axis = None, *, keepdims: bool = False, device: DeviceArg = None,
                  determinism: Determinism = "run_to_run") -> npt.NDArray[np.intp]: ...
def nansum(a: _Array, axis: Axis = None, dtype: _DType = None, out: np.ndarray | None = None,
           keepdims: bool = False, initial: Any = None, *, device: DeviceArg = None,
           determinism: Determinism = "run_to_run") -> _Result: ...
def nanprod(a: _Array, axis: Axis = None, dtype: _DType = None, out: np.ndarray | None = None,
            keepdims: bool = False, initial: Any = None, *, device: DeviceArg = None,
            determinism: Determinism = "run_to_run") -> _Result: ...
def nanmin(a: _Array, axis: Axis = None, out: np.ndarray | None = None, keepdims: bool = False,
           initial: Any = None, *, device: DeviceArg = None,
           determinism: Determinism = "run_to_run") -> _Result: ...
def nanmax(a: _Array, axis: Axis = None, out: np.ndarray | None = None, keepdims: bool = False,
           initial: Any = None, *, device: DeviceArg = None,
           determinism: Determinism = "run_to_run") -> _Result: ...
def nanargmin(a: _Array, axis: SupportsIndex | None = None, out: np.ndarray | None = None, *,
              keepdims: bool = False, device: DeviceArg = None,
              determinism: Determinism = "run_to_run") -> _Result: ...
def nanargmax(a: _Array, axis: SupportsIndex | None = None, out: np.ndarray | None = None, *,
              keepdims: bool = False, device: DeviceArg = None,
              determinism: Determinism = "run_to_run") -> _Result: ...
def nanmean(a: _Array, axis: Axis = None, dtype: _DType = None, out: np.ndarray | None = None,
            keepdims: bool = False, *, device: DeviceArg = None,
            determinism: Determinism = "run_to_run") -> _Result: ...
def nanvar(a: _Array, axis: Axis = None, dtype: _DType = None, out: np.ndarray | None = None,
           ddof: float = 0, keepdims: bool = False, *, mean: npt.ArrayLike | None = None,
           correction: float | None = None, device: DeviceArg = None,
           determinism: Determinism = "run_to_run") -> _Result: ...
def nanstd(a: _Array, axis: Axis = None, dtype: _DType = None, out: np.ndarray | None = None,
           ddof: float = 0, keepdims: bool = False, *, mean: npt.ArrayLike | None = None,
           correction: float | None = None, device: DeviceArg = None,
           determinism: Determinism = "run_to_run") -> _Result: ...
def dot(a: _Array, b: _Array, out: np.ndarray | None = None, *, device: DeviceArg = None,
        determinism: Determinism = "run_to_run") -> _Result: ...
def vdot(a: _Array, b: _Array, /, *, device: DeviceArg = None,
         determinism: Determinism = "run_to_run") -> _Result: ...
def minmax(a: _Array, axis: Axis = None, keepdims: bool = False, *, device: DeviceArg = None,
           determinism: Determinism = "run_to_run") -> tuple[_Result, _Result]: ...
def norm(x: _Array, ord: Literal[2, "fro"] | None = None, axis: Axis = None, keepdims: bool = False,
         *, device: DeviceArg = None, determinism: Determinism = "run_to_run") -> _Result: ...
def ptp(a: _Array, axis: Axis = None, out: np.ndarray | None = None, keepdims: bool = False, *,
        device: DeviceArg = None, determinism: Determinism = "run_to_run") -> _Result: ...
# END the functions of rdx/_table.py

def reduce(a: _Array, op: _Op | None = None, *, map: _Expr | None = None,
           combine: _Expr | None = None, identity: _Expr | None = None, dtype: _DType = None,
           axis: Axis = None, keepdims: bool = False, device: DeviceArg = None,
           determinism: Determinism = "run_to_run") -> _Result: ...
def reduce_segments(a: _Array, offsets: npt.ArrayLike, op: _Op | None = None, *,
                    map: _Expr | None = None, combine: _Expr | None = None,
                    identity: _Expr | None = None, dtype: _DType = None,
                    device: DeviceArg = None,
                    determinism: Determinism = "run_to_run") -> np.ndarray: ...
def reduceat(a: _Array, indices: npt.ArrayLike, op: _Op = "sum", *, dtype: _DType = None,
             device: DeviceArg = None, determinism: Determinism = "run_to_run") -> np.ndarray: ...
def from_buffer(buffer: Any, dtype: _DType, count: int = -1, offset: int = 0, *,
                queue: Any) -> Any: ...
def asnumpy(x: Any) -> np.ndarray: ...

class ReductionKernel:
    dtype_out: np.dtype
    name: str
    neutral: str
    reduce_expr: str
    map_expr: str
    arguments: list[tuple[bool, np.dtype, str]] | None
    @overload
    def __init__(self, dtype_out: _DType, neutral: _Expr, reduce_expr: str,
                 map_expr: str | None = None, arguments: str | list[Any] | None = None,
                 name: str = "reduce_kernel", options: None = None, preamble: str = "", *,
                 device: DeviceArg = None) -> None: ...
    @overload
    def __init__(self, ctx: Any, dtype_out: _DType, neutral: _Expr, reduce_expr: str,
                 map_expr: str | None = None, arguments: str | list[Any] | None = None,
                 name: str = "reduce_kernel", options: None = None,
                 preamble: str = "") -> None: ...
    def __call__(self, *args: Any, queue: Any = None, wait_for: Any = None,
                 return_event: Literal[False] = False, allocator: Any = None, out: None = None,
                 range: None = None, slice: None = None,
                 determinism: Determinism = "run_to_run") -> np.generic: ...
