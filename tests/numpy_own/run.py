#!/usr/bin/env python3
"""NumPy's own reduction tests with NumPy's functions pointed at rdx's (tests/numpy_own/plugin.py).

  run.py [--json FILE] [pytest arguments]

Runs the test classes of TESTS from the installed NumPy's test files, sorts each test into
passed, refused (it failed on rdx's refusal of a dtype), a documented difference
(differences.txt: the test's id, then why rdx differs) or failed, prints the counts, and exits 1
when a test failed that is not a documented difference, or when a documented difference passes
now or did not run (the list is stale). --json FILE: the counts and every test's outcome.
"""
import json
import pathlib
import sys

import numpy
import pytest

here = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(here))
import plugin  # noqa: E402

# The files and classes of NumPy's tests of the reductions rdx has (numpy/... relative).
TESTS = {
    "lib/tests/test_nanfunctions.py": [
        "TestNanFunctions_MinMax", "TestNanFunctions_ArgminArgmax", "TestNanFunctions_NumberTypes",
        "TestNanFunctions_SumProd", "TestNanFunctions_MeanVarStd"],
    "core/tests/test_multiarray.py": [
        "TestArgmaxArgminCommon", "TestArgmax", "TestArgmin", "TestMinMax", "TestStats"],
    "core/tests/test_numeric.py": ["TestNonarrayArgs"],
    "lib/tests/test_function_base.py": ["TestAny", "TestAll", "TestAmax", "TestAmin", "TestPtp",
                                        "TestProd"],
}


def read_differences(path):
    """differences.txt: `# reason` lines, then the ids of the tests it explains."""
    known, reason = {}, None
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line:
            continue
        if line.startswith("#"):
            reason = line.lstrip("# ")
        else:
            if not reason:
                sys.exit(f"{path}: {line} has no reason above it")
            known[line] = reason
    return known


def main(argv):
    json_out = None
    if argv[:1] == ["--json"]:
        json_out, argv = argv[1], argv[2:]
    root = pathlib.Path(numpy.__file__).resolve().parent
    ids = [f"{root / f}::{c}" for f, classes in TESTS.items() for c in classes]
    sys.dont_write_bytecode = True  # NumPy's folder is not ours to write
    code = pytest.main(["-q", "-p", "no:cacheprovider", "--rootdir", str(root),
                        "-W", "ignore::pytest.PytestUnraisableExceptionWarning", *argv, *ids],
                       plugins=[plugin])
    if code not in (0, 1):
        print(f"numpy_own: pytest exited {code}", file=sys.stderr)
        return 2
    known = read_differences(here / "differences.txt")
    rel = dict(plugin.outcomes)  # ids relative to NumPy's folder (--rootdir)
    counts = {"passed": 0, "refused": 0, "documented": 0, "failed": 0, "skipped": 0}
    refused = {}
    unexpected, stale = [], []
    for test, outcome in sorted(rel.items()):
        if outcome.startswith("refused"):
            counts["refused"] += 1
            dtype = outcome.split(" ", 1)[1]
            refused[dtype] = refused.get(dtype, 0) + 1
        elif outcome == "failed" and test in known:
            counts["documented"] += 1
        elif outcome == "failed":
            counts["failed"] += 1
            unexpected.append(test)
        else:
            counts[outcome] += 1
        if test in known and outcome != "failed":
            stale.append(test)
    print(f"numpy_own: NumPy {numpy.__version__}, rdx {plugin.rdx.__version__}: "
          + ", ".join(f"{v} {k}" for k, v in counts.items()))
    print("numpy_own: refused, by dtype: "
          + ", ".join(f"{k} {v}" for k, v in sorted(refused.items())))
    for t in unexpected:
        print(f"numpy_own: failed, not a documented difference: {t}")
    stale += sorted(t for t in known if t not in rel)
    for t in stale:
        print(f"numpy_own: documented as a difference but {rel.get(t, 'not run')}: {t} "
              "(differences.txt)")
    if json_out:
        report = {"counts": counts, "refused": refused, "outcomes": rel}
        pathlib.Path(json_out).write_text(json.dumps(report, indent=1))
    return 1 if unexpected or stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
