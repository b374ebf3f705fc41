"""The one table of rdx's NumPy functions: a row per public function. rdx/_reductions.py makes
each function from its row at import (its signature, docstring and the call of its family's
implementation), rdx/__init__.py its place in __all__, python/tools/gen_stubs.py its stub in
rdx/__init__.pyi; python/tests/test_table.py compares each row's signature with NumPy's own
and the stubs with the committed file. docs/python.md lists the functions.

This module is pure data: it imports neither NumPy nor the extension."""
from __future__ import annotations

import inspect
from dataclasses import dataclass, field

RUN = "run_to_run"
# The keyword-only arguments every function takes after NumPy's (docs/python.md).
EXTRAS = "device=None, determinism=" + repr(RUN)
# What NumPy's `<no value>` default (numpy._NoValue: "not passed on") of a parameter means;
# rdx's default is that value.
NOVALUE = {"keepdims": False, "initial": None, "mean": None, "correction": None}
# Reasons NumPy's parameters are not taken (a row's `omits` names one per parameter).
NO_WHERE = "no masked reductions in librdx"


@dataclass(frozen=True)
class Row:
    """One public function. `params`: NumPy's parameters as rdx takes them, in Python's own
    syntax ("a, axis=None, *, keepdims=False"; device= and determinism= follow, keyword-only).
    `family`: the function in _reductions.py that runs it (its parameters: the row, then the
    row's parameters by name, then device and determinism; one the row lacks takes the
    family's default). `result`: the result dtype rule (a key of _dtypes.RESULT).
    `ops`/`stat`: librdx's operators (rdx::Op names) and composite (rdx::Stat) it runs.
    `nan`: "plain" (NaN propagates, or is a value) or "ignore" (the nan* forms)."""
    name: str
    numpy: str  # NumPy's function ("sum", "linalg.norm"), "" where NumPy has none
    params: str
    family: str
    result: str
    nan: str
    doc: str  # what it computes and how it differs from NumPy (the docstring's first part)
    ops: tuple[str, ...] = ()
    stat: str = ""
    # NumPy's parameters rdx does not take: name -> why (the docstring lists them).
    omits: dict[str, str] = field(default_factory=dict)
    # NumPy's parameters that NumPy 2.0 added, taken or omitted (NumPy 1 lacks them; rdx takes
    # those it takes on NumPy 1 too, as NumPy 2 does).
    numpy2_only: tuple[str, ...] = ()
    # NumPy's parameters whose kind rdx does not follow: name -> why (the docstring says so).
    differs: dict[str, str] = field(default_factory=dict)
    # NumPy's signature where inspect.signature cannot read it (a C function in NumPy 1).
    numpy_text: str = ""
    # Stubs: an annotation per parameter where it is not the usual (STUB_TYPES), the return.
    types: dict[str, str] = field(default_factory=dict)
    returns: str = "_Result"
    # Stubs: @overload forms, each (annotation overrides, return), before the plain one.
    overloads: tuple[tuple[dict[str, str], str], ...] = ()
    # Whether results over some axes of a PyOpenCL array stay on the device, as PyOpenCL arrays
    # on its queue (the docstring says so); False: NumPy arrays (any, all: bool results).
    device_results: bool = False

    def signature(self) -> inspect.Signature:
        """rdx's signature: NumPy's parameters, then device= and determinism=."""
        return parse(self.params, EXTRAS)

    def numpy_signature(self) -> inspect.Signature:
        """The row's NumPy parameters alone."""
        return parse(self.params)


def parse(params: str, extras: str = "") -> inspect.Signature:
    """A parameter list in Python's syntax as an inspect.Signature; extras after it, keyword-
    only."""
    sig = inspect.signature(eval(f"lambda {params}: None", {}))  # noqa: S307 - the table's
    if not extras:
        return sig
    star = any(p.kind is p.KEYWORD_ONLY for p in sig.parameters.values())
    return parse(f"{params}, {'' if star else '*, '}{extras}")


_SUM = "a, axis=None, dtype=None, out=None, keepdims=False, initial=None"
_EXTREME = "a, axis=None, out=None, keepdims=False"
_EXTREME_INITIAL = _EXTREME + ", initial=None"
_ARG = "a, axis=None, out=None, *, keepdims=False"
_MEAN = "a, axis=None, dtype=None, out=None, keepdims=False"
_VAR = ("a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, mean=None, "
        "correction=None")
_WHERE = {"where": NO_WHERE}
_ONE_AXIS = {"axis": "SupportsIndex | None"}


def _sum(name, ops, stat, nan, doc):
    return Row(name, name, _SUM, "sum_like", "sum", nan, doc, ops, stat, _WHERE,
               device_results=True)


def _extreme(name, nan, doc):
    return Row(name, name, _EXTREME_INITIAL, "extreme", "element", nan, doc, (name,), "", _WHERE,
               device_results=True)


def _arg(name, nan, doc):
    return Row(name, name, _ARG, "arg", "intp", nan, doc, (name,), types=_ONE_AXIS,
               device_results=True)


def _moment(name, params, nan, doc, omits):
    numpy2 = ("mean", "correction") if "correction" in params else ()
    return Row(name, name, params, "moment", "mean", nan, doc, ("sum",), name, omits, numpy2,
               device_results=True)


FUNCTIONS: tuple[Row, ...] = (
    _sum("sum", ("sum",), "", "plain",
         "the sum; integers wrap in the result dtype. determinism=\"exact\" gives float sums "
         "correctly rounded, \"any_device\" the same bits on every device from fixed bins "
         "(within a stated bound of the exact sum; per axis: the exact sum)"),
    _sum("prod", ("prod",), "", "plain", "the product; integers wrap in the result dtype"),
    _extreme("min", "plain", "the minimum (np.amin); NaN propagates"),
    _extreme("max", "plain", "the maximum (np.amax); NaN propagates"),
    _arg("argmin", "plain",
         "the first minimum's index (the first NaN's, where there is one); axis None counts in "
         "the flattened (C order) array"),
    _arg("argmax", "plain", "the first maximum's index (the first NaN's, where there is one)"),
    _moment("mean", _MEAN, "plain",
            "the mean: integers and bool give float64; computed in float64 where the device has "
            "it", _WHERE),
    _moment("var", _VAR, "plain",
            "the variance, var * n / (n - ddof) of the population variance (inf or NaN where "
            "n <= ddof)", _WHERE),
    _moment("std", _VAR, "plain", "the standard deviation: the square root of var", _WHERE),
    Row("any", "any", _EXTREME, "logical", "bool", "plain",
        "whether any element is true: NaN is true, -0.0 false", stat="any", omits=_WHERE),
    Row("all", "all", _EXTREME, "logical", "bool", "plain",
        "whether every element is true: true for an empty slice", stat="all", omits=_WHERE),
    Row("count_nonzero", "count_nonzero", "a, axis=None, *, keepdims=False", "count_nonzero",
        "intp", "plain",
        "the number of elements that are not zero: for axis=None a Python int (NumPy 1) or an "
        "intp scalar (NumPy 2), else an intp array", stat="count", device_results=True,
        overloads=(({"axis": "None", "keepdims": "Literal[False]"}, "int"),
                   ({}, "npt.NDArray[np.intp]"))),
    _sum("nansum", ("sum",), "nansum", "ignore", "the sum with NaN counted as 0"),
    _sum("nanprod", ("prod",), "nanprod", "ignore", "the product with NaN counted as 1"),
    _extreme("nanmin", "ignore",
             "the minimum with NaN ignored; an all-NaN slice gives NaN and a RuntimeWarning"),
    _extreme("nanmax", "ignore",
             "the maximum with NaN ignored; an all-NaN slice gives NaN and a RuntimeWarning"),
    _arg("nanargmin", "ignore",
         "the first minimum's index with NaN ignored; an all-NaN slice is a ValueError"),
    _arg("nanargmax", "ignore",
         "the first maximum's index with NaN ignored; an all-NaN slice is a ValueError"),
    _moment("nanmean", _MEAN, "ignore", "the mean of the elements that are not NaN", _WHERE),
    _moment("nanvar", _VAR, "ignore",
            "the variance of the elements that are not NaN: NaN where they number ddof or "
            "fewer", _WHERE),
    _moment("nanstd", _VAR, "ignore",
            "the standard deviation of the elements that are not NaN", _WHERE),
    Row("dot", "dot", "a, b, out=None", "dot", "result_type", "plain",
        "the inner product of two 1-D arrays, in np.result_type(a, b): int32 stays int32 and "
        "wraps, as NumPy's. Matrix products are not reductions: NotImplementedError",
        stat="dot", numpy_text="a, b, out=None"),
    Row("vdot", "vdot", "a, b, /", "vdot", "result_type", "plain",
        "the sum of a * b over both arrays flattened in C order (real arrays)", stat="dot",
        numpy_text="a, b, /"),
    Row("minmax", "", "a, axis=None, keepdims=False", "minmax", "element", "ignore",
        "(nanmin, nanmax) in one pass: NaN ignored (an all-NaN slice gives NaN for both); "
        "rdx's own, NumPy has no such function", stat="minmax", device_results=True,
        returns="tuple[_Result, _Result]"),
    Row("norm", "linalg.norm", "x, ord=None, axis=None, keepdims=False", "norm", "float",
        "plain",
        "the 2-norm: of the flattened array (axis None: the Frobenius norm of a "
        "matrix), along one axis, or over two (Frobenius); float64 for integers. Other ords: "
        "NotImplementedError", stat="norm2", types={"ord": 'Literal[2, "fro"] | None'},
        device_results=True),
    Row("ptp", "ptp", _EXTREME, "ptp", "element", "plain",
        "the range, max - min, in the element dtype (integers wrap, as NumPy's); NaN "
        "propagates; bool is NumPy's TypeError", ops=("max", "min"), device_results=True),
)
NAMES = tuple(row.name for row in FUNCTIONS)
BY_NAME = {row.name: row for row in FUNCTIONS}

# Stubs: each parameter's annotation, unless a row gives its own.
STUB_TYPES = {"a": "_Array", "b": "_Array", "x": "_Array", "axis": "Axis", "dtype": "_DType",
              "out": "np.ndarray | None", "keepdims": "bool", "ddof": "float",
              "initial": "Any", "mean": "npt.ArrayLike | None", "correction": "float | None",
              "device": "DeviceArg", "determinism": "Determinism"}
