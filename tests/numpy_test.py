"""clrdx against NumPy: NaN's two families, any/all/count_nonzero, the nan* composites, and
reductions over several axes at once, and the 16-bit floats f16 and bf16.

Usage: numpy_test.py CLRDX [--types f32,f64,i32,f16,bf16] [--device SEL (default cpu)]

Each case is a row of a 2-D array: clrdx reduces the array along axis 1 (`--axis 1 --output`)
and the result is compared with NumPy's reduction along that axis, element type by element
type. The rows place NaN first, inside and last, hold only NaN, mix -0.0 with +0.0, hold
infinities of both signs, and random numbers. A few rows are also reduced whole (`--json`), where
the built-in strategies run instead of the segmented kernels. A 3-D array is reduced over
several axes (`--axis=0,2`, negative ones among them) and compared with NumPy's axis=(0, 2).

f16 and bf16 are storage types: clrdx accumulates them in f32. Their min, max, arg*, any, all and
count_nonzero are compared with NumPy on the 16-bit array itself; their sums, products, means and
variances with NumPy on the same values as float32 (NumPy's float16 product would round every
step to float16). bf16, which NumPy has no dtype for, is a raw file of the upper halves of
float32 values whose lower halves are zero, reduced whole, and NumPy reduces those float32
values.

Exact: min, max, argmin, argmax and their nan* forms (values by ==, so -0.0 == +0.0: the sign
of a zero picked among zeros of both signs is not specified, as in NumPy), any, all,
count_nonzero. Within a tolerance: sums, products, means, variances and deviations.
"""
import json
import os
import subprocess
import sys
import tempfile
import warnings

import numpy as np

CLRDX = sys.argv[1]
TYPES = sys.argv[sys.argv.index("--types") + 1].split(",") if "--types" in sys.argv else [
    "f32", "f64", "i32", "f16", "bf16"]
DEVICE = sys.argv[sys.argv.index("--device") + 1] if "--device" in sys.argv else "cpu"
DTYPE = {"f32": np.float32, "f64": np.float64, "i32": np.int32, "f16": np.float16}
EXACT = ("min", "max", "argmin", "argmax", "nanmin", "nanmax", "nanargmin", "nanargmax", "any",
         "all", "count_nonzero")
L = 37  # odd: every vector width leaves a tail

failures = []


def rows(dtype):
    rng = np.random.default_rng(7)
    base = rng.standard_normal((12, L)) * 10
    if not np.issubdtype(dtype, np.floating):
        return np.round(base).astype(dtype)
    a = base.astype(dtype)
    nan, inf = np.nan, np.inf
    a[1, 0] = nan                       # first
    a[2, 17] = nan                      # inside
    a[3, L - 1] = nan                   # last
    a[4, :] = nan                       # every element
    a[5, :] = 0.0                       # zeros of both signs
    a[5, ::3] = -0.0
    a[6, 4], a[6, 9] = inf, -inf        # both infinities
    a[7, 3], a[7, 11] = inf, nan        # an infinity and NaN
    a[8, :] = inf                       # only +inf
    a[9, :] = -inf                      # only -inf
    a[10, 20:] = nan                    # NaN in the second half
    a[11, 5] = a[11, 6] = a[11].max()   # a tie for the maximum
    return a


def run(args):
    p = subprocess.run([CLRDX] + args, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"clrdx {' '.join(args)}: exit {p.returncode}: {p.stderr.strip()}")
    return p.stdout


def expected(op, a, axis):
    if a.dtype == np.float16 and op not in EXACT:
        a = a.astype(np.float32)  # clrdx accumulates a 16-bit float in f32
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        if op == "count_nonzero":
            return np.count_nonzero(a, axis=axis)
        return getattr(np, op)(a, axis=axis)


def same(op, got, want, dtype):
    got = np.asarray(got)
    want = np.asarray(want)
    if got.shape != want.shape:
        return False
    exact = op in EXACT
    if exact or not np.issubdtype(want.dtype, np.floating):
        if np.issubdtype(want.dtype, np.floating):
            return bool(np.all((got == want) | (np.isnan(got) & np.isnan(want))))
        return bool(np.all(got == want))
    tol = 1e-4 if dtype in (np.float32, np.float16) else 1e-10
    return bool(np.allclose(got.astype(np.float64), want.astype(np.float64), rtol=tol, atol=tol,
                            equal_nan=True))


def check(what, op, got, want, dtype):
    if not same(op, got, want, dtype):
        failures.append(f"{what}: got {got!r}, NumPy {want!r}")


OPS = ["min", "max", "argmin", "argmax", "nanmin", "nanmax", "nanargmin", "nanargmax", "sum",
       "prod", "nansum", "nanprod", "mean", "nanmean", "var", "nanvar", "std", "nanstd", "any",
       "all", "count_nonzero"]

with tempfile.TemporaryDirectory() as d:
    for t in TYPES:
        if t == "bf16":
            continue  # below: NumPy has no bfloat16
        dtype = DTYPE[t]
        a = rows(dtype)
        src = os.path.join(d, f"{t}.npy")
        np.save(src, a)
        is_float = np.issubdtype(dtype, np.floating)
        all_nan = np.isnan(a).all(axis=1) if is_float else np.zeros(len(a), bool)
        for op in OPS:
            out = os.path.join(d, f"{t}-{op}.npy")
            # NumPy's sum and prod of f32 stay f32 and of i32 widen to the platform's integer;
            # clrdx accumulates in the element type unless --acc widens it.
            acc = ["--acc", "i64"] if t == "i32" and op in ("sum", "prod", "nansum",
                                                           "nanprod") else []
            # nanargmin/nanargmax of an all-NaN row: NumPy raises, and so does clrdx (exit 2);
            # the other rows are compared on their own.
            keep = ~all_nan if op in ("nanargmin", "nanargmax") else np.ones(len(a), bool)
            if not keep.all():
                p = subprocess.run([CLRDX, "reduce", "--device", DEVICE, "--input", src, "--op",
                                    op, "--axis", "1", "--output", out], capture_output=True,
                                   text=True)
                if p.returncode != 2 or "All-NaN" not in p.stderr or os.path.exists(out):
                    failures.append(f"{t} {op} with an all-NaN row: exit {p.returncode}, "
                                    f"{p.stderr.strip()!r}, want exit 2, no output")
                src_kept = os.path.join(d, f"{t}-{op}-kept.npy")
                np.save(src_kept, a[keep])
            else:
                src_kept = src
            run(["reduce", "--device", DEVICE, "--input", src_kept, "--op", op, "--axis", "1",
                 "--output", out] + acc)
            got = np.load(out)
            check(f"{t} {op} --axis 1", op, got, expected(op, a[keep], 1), dtype)
            # An element's value keeps NumPy's dtype: an f16 max is a float16.
            if op in ("min", "max", "nanmin", "nanmax") and got.dtype != dtype:
                failures.append(f"{t} {op} --axis 1: dtype {got.dtype}, NumPy's {dtype.__name__}")
        if not is_float:
            continue
        # Whole inputs through the built-in strategies: the rows with NaN, zeros and infinities.
        for k in (1, 2, 3, 4, 5, 6, 7, 10):
            row = os.path.join(d, f"{t}-row{k}.npy")
            np.save(row, a[k])
            for op in ("min", "max", "argmin", "argmax", "nanmin", "nanmax", "nanargmin",
                       "nanargmax"):
                if op.startswith("nanarg") and all_nan[k]:
                    p = subprocess.run([CLRDX, "reduce", "--device", DEVICE, "--input", row,
                                        "--op", op, "--json"], capture_output=True, text=True)
                    if p.returncode != 2 or "All-NaN" not in p.stderr:
                        failures.append(f"{t} {op} of all-NaN row {k} whole: exit "
                                        f"{p.returncode}, {p.stderr.strip()!r}, want exit 2")
                    continue
                j = json.loads(run(["reduce", "--device", DEVICE, "--input", row, "--op", op,
                                    "--json"]))
                if op.endswith(("argmin", "argmax")):
                    got = j["index"]
                else:
                    r = j["result"]
                    got = float(r) if isinstance(r, str) else r
                check(f"{t} {op} of row {k} whole", op, got, expected(op, a[k], None), dtype)

    # Several axes at once, negative axes among them, of a 3-D array (NaN inside for floats):
    # the view form (axes apart) and the axis form (axes that are one run).
    for t in TYPES:
        if t == "bf16":
            continue
        dtype = DTYPE[t]
        rng = np.random.default_rng(11)
        cube = (rng.standard_normal((4, 5, 6)) * 10).astype(dtype) if dtype != np.int32 else \
            np.round(rng.standard_normal((4, 5, 6)) * 10).astype(dtype)
        if np.issubdtype(dtype, np.floating):
            cube[1, 2, 3] = np.nan
            cube[3, :, 0] = np.nan
        src = os.path.join(d, f"{t}-cube.npy")
        np.save(src, cube)
        for axes in ((0, 2), (-1, 0), (1, 2), (0, 1, 2), (-2,)):
            for op in ("sum", "max", "nanmin", "mean", "nanvar", "any", "count_nonzero",
                       "argmax"):
                if op == "argmax" and len(axes) > 1:
                    continue  # NumPy's argmax takes one axis
                out = os.path.join(d, f"{t}-cube-{op}.npy")
                acc = ["--acc", "i64"] if t == "i32" and op == "sum" else []
                run(["reduce", "--device", DEVICE, "--input", src, "--op", op,
                     "--axis=" + ",".join(map(str, axes)), "--output", out] + acc)
                want = expected(op, cube, axes[0] if op == "argmax" else axes)
                check(f"{t} {op} --axis {axes}", op, np.load(out), want, dtype)

    # bf16: the rows as float32 with their lower halves cleared, each reduced whole from a raw
    # file of its upper halves, against NumPy on those float32 values.
    if "bf16" in TYPES:
        bits = rows(np.float32).view(np.uint32) & np.uint32(0xFFFF0000)
        a = bits.view(np.float32)
        all_nan = np.isnan(a).all(axis=1)
        for k in range(len(a)):
            raw = os.path.join(d, f"bf16-row{k}.bin")
            (bits[k] >> np.uint32(16)).astype("<u2").tofile(raw)
            for op in OPS:
                if op.startswith("nanarg") and all_nan[k]:  # NumPy raises; so must clrdx
                    p = subprocess.run([CLRDX, "reduce", "--device", DEVICE, "--type", "bf16",
                                        "--input", raw, "--op", op], capture_output=True,
                                       text=True)
                    if p.returncode != 2 or "All-NaN" not in p.stderr:
                        failures.append(f"bf16 {op} of all-NaN row {k}: exit {p.returncode}")
                    continue
                j = json.loads(run(["reduce", "--device", DEVICE, "--type", "bf16", "--input",
                                    raw, "--op", op, "--json"]))
                if op.endswith(("argmin", "argmax")):
                    got = j["index"]
                else:
                    r = j["result"]
                    got = float(r) if isinstance(r, str) else r
                check(f"bf16 {op} of row {k} whole", op, got, expected(op, a[k], None),
                      np.float32)

for f in failures:
    print("FAIL", f)
print(f"numpy_test: {len(failures)} failure(s), types {','.join(TYPES)}, device {DEVICE}")
sys.exit(1 if failures else 0)
