"""The table of rdx's NumPy functions (rdx/_table.py) against NumPy and against what is made
from it: every row's signature is NumPy's own (inspect.signature of NumPy's function: names,
order, kinds, defaults), each difference listed in the row; the functions, __all__ and the
stubs (rdx/__init__.pyi) are the table's; the dtype map is the extension's."""
import functools
import importlib.util
import inspect
from pathlib import Path

import numpy as np
import pytest

import rdx
from rdx import _dtypes, _inputs, _rdx, _reductions, _table

NUMPY2 = int(np.__version__.split(".")[0]) >= 2
ROWS = {row.name: row for row in _table.FUNCTIONS}
GEN_STUBS = Path(__file__).resolve().parents[1] / "tools" / "gen_stubs.py"


def numpy_function(row):
    return functools.reduce(getattr, row.numpy.split("."), np)


def numpy_signature(row) -> inspect.Signature:
    """NumPy's signature of the row's function; where inspect cannot read it (NumPy 1's C
    functions), the row must give it (numpy_text), which is then what is compared."""
    try:
        sig = inspect.signature(numpy_function(row))
    except (TypeError, ValueError):
        assert row.numpy_text, f"{row.name}: NumPy's signature cannot be read and the row " \
            "gives none (numpy_text)"
        return _table.parse(row.numpy_text)
    if row.numpy_text:  # a row's text stays NumPy's where NumPy's can be read
        assert sig == _table.parse(row.numpy_text), f"{row.name}: numpy_text is not {sig}"
    return sig


@pytest.mark.parametrize("name", list(ROWS))
def test_signature_is_numpys(name):
    row = ROWS[name]
    if not row.numpy:  # rdx's own function: listed so, and NumPy has none of that name
        assert not hasattr(np, row.name), f"{name}: NumPy has np.{name}: name it in the row"
        return
    theirs = numpy_signature(row).parameters
    ours = row.numpy_signature().parameters
    if not NUMPY2:  # NumPy 1 lacks what NumPy 2 added, which rdx takes all the same
        ours = {p: q for p, q in ours.items() if p not in row.numpy2_only}
    else:
        assert set(row.numpy2_only) <= set(theirs)
    # NumPy's parameters rdx does not take: exactly the row's omits (those NumPy 2 added
    # only where the installed NumPy is 2)
    omitted = {p for p in theirs if p not in ours}
    listed = set(row.omits) - (set() if NUMPY2 else set(row.numpy2_only))
    assert omitted == listed, f"{name}: NumPy's {sorted(omitted)} not taken, the row lists " \
        f"{sorted(listed)}"
    assert set(row.numpy2_only) <= set(row.omits) | set(row.numpy_signature().parameters)
    assert set(ours) <= set(theirs), f"{name}: {sorted(set(ours) - set(theirs))} not NumPy's"
    kept = [p for p in theirs.values() if p.name in ours]
    assert [p.name for p in kept] == list(ours), f"{name}: not NumPy's order"
    for p in kept:
        q = ours[p.name]
        if p.name in row.differs:
            assert q.kind != p.kind, f"{name}: {p.name} is NumPy's now: drop it from differs"
        else:
            assert q.kind == p.kind, f"{name}: {p.name} is {q.kind}, NumPy's {p.kind}"
        want = _table.NOVALUE[p.name] if p.default is np._NoValue else p.default
        assert q.default == want and type(q.default) is type(want), \
            f"{name}: {p.name}={q.default!r}, NumPy's {p.default!r}"


@pytest.mark.parametrize("name", list(ROWS))
def test_function_is_the_rows(name):
    row = ROWS[name]
    f = getattr(rdx, name)
    assert f is _reductions.FUNCTIONS[name]
    assert inspect.signature(f) == row.signature()
    extras = list(row.signature().parameters)[-2:]
    assert extras == ["device", "determinism"]
    doc = " ".join(f.__doc__.split())
    assert row.doc in doc
    for p in (*row.omits, *row.differs):
        assert f"{p}=" in doc, f"{name}'s docstring does not say how {p} differs"
    assert row.nan in ("plain", "ignore")
    assert row.result in _dtypes.RESULT
    assert callable(getattr(_reductions, "_" + row.family))
    assert row.ops or row.stat, f"{name}: no operator or composite"


def test_all_is_the_tables():
    names = [n for n in rdx.__all__ if n in ROWS]
    assert names == list(_table.NAMES)
    assert len(set(rdx.__all__)) == len(rdx.__all__)
    for n in rdx.__all__:
        assert hasattr(rdx, n), n


def test_stubs_are_the_tables():
    """rdx/__init__.pyi's functions are what python/tools/gen_stubs.py makes of the table."""
    spec = importlib.util.spec_from_file_location("gen_stubs", GEN_STUBS)
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    text = gen.STUBS.read_text()
    assert gen.rewrite(text, gen.load_table()) == text, "run python/tools/gen_stubs.py"
    for name in ROWS:
        assert f"\ndef {name}(" in text


def test_dtype_map_is_the_extensions():
    """Python's dtypes are the extension's list (one row per librdx type): every NumPy dtype rdx
    reduces maps to its librdx name, and the message lists them as before."""
    rows = _rdx.types()
    assert [name for name, _, _ in rows] == ["i8", "u8", "i16", "u16", "i32", "u32", "i64",
                                             "u64", "f32", "f64", "f16", "bf16"]
    for name, npy, size in rows:
        if npy:
            assert np.dtype(npy).itemsize == size
            assert _inputs.type_name(np.dtype(npy)) == name
    assert _inputs.type_name(np.dtype(bool)) == "u8"
    assert _inputs._SUPPORTED == ("bool, int8 .. int64, uint8 .. uint64, float16, float32 and "
                                  "float64")
    assert _inputs.reduced(np.dtype(bool)) and _inputs.reduced(np.dtype(">f4"))
    for bad in (np.complex64, np.longdouble, object, "U2", "datetime64[D]"):
        assert not _inputs.reduced(np.dtype(bad)), bad
