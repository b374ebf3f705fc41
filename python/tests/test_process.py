"""What a whole Python process sees: a clean exit while daemon threads are inside rdx calls (no
"leaked" report from nanobind), and made-up OpenCL handles refused with an exception, never a
crash. Each case runs in its own interpreter."""
import signal
import subprocess
import sys

import pytest


def run(code):
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=600)


DAEMONS = """
import threading
import numpy as np
import rdx
a = np.ones(1 << 22, np.float32)
assert rdx.sum(a) == a.size  # kernels built before the threads start
inside = threading.Barrier(3)
def work():
    inside.wait()
    while True:
        rdx.sum(a)
        rdx.argmax(a[::3])
for _ in range(2):
    threading.Thread(target=work, daemon=True).start()
inside.wait()
"""


@pytest.mark.parametrize("end", ["exit", "sigint"])
def test_exit_with_daemon_threads_in_rdx_calls(end):
    code = DAEMONS
    if end == "sigint":  # Ctrl-C: KeyboardInterrupt in the main thread
        code += "import signal\nsignal.raise_signal(signal.SIGINT)\n"
    p = run(code)
    assert "leaked" not in p.stderr, p.stderr
    if end == "exit":
        assert p.returncode == 0, p.stderr
    else:
        # CPython ends on an uncaught KeyboardInterrupt by SIGINT itself
        assert p.returncode == -signal.SIGINT and "KeyboardInterrupt" in p.stderr, p.stderr


def test_exit_without_threads_keeps_the_leak_check():
    """Only daemon threads turn nanobind's check off: an ordinary exit keeps it (a real leak
    would still be reported)."""
    p = run("import numpy as np, rdx\nassert rdx.sum(np.ones(10)) == 10\n"
            "import rdx._devices as d\nd._daemons_at_exit()\nprint('ok')\n")
    assert p.returncode == 0 and p.stdout.strip() == "ok" and "leaked" not in p.stderr, p.stderr


def test_made_up_handles_raise():
    code = """
import rdx
from rdx import _rdx
def refused(f):
    try:
        f()
    except TypeError as e:
        print("TypeError")
    else:
        print("accepted")
refused(lambda: _rdx.Context(1, 2, 3, "x"))
refused(lambda: _rdx.Context(pyopencl_queue=3))
refused(lambda: _rdx.Context(pyopencl_queue=object()))
ctx = rdx.Context.__new__(rdx.Context)
refused(lambda: _rdx.Context.__init__(ctx, 1, 2, 3, "x"))
refused(lambda: _rdx.Context.__init__(ctx, 7))
refused(lambda: ctx.cl_handles())  # never initialized: nanobind refuses it
"""
    p = run(code)
    assert p.returncode == 0, (p.returncode, p.stderr)
    assert p.stdout.split() == ["TypeError"] * 6, (p.stdout, p.stderr)
