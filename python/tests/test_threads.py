"""8 Python threads reducing on one context at once (the GIL is released while the device
works): every result is right."""
import threading

import numpy as np

import rdx


def test_eight_threads_one_context():
    ctx = rdx.Context("cpu")
    rng = np.random.default_rng(12)
    arrays = [rng.integers(-1000, 1000, (64, 129)).astype(t)
              for t in (np.int32, np.int64, np.float32, np.float64)]
    want = [(np.sum(a), np.max(a, axis=0), np.argmin(a, axis=1), np.mean(a)) for a in arrays]
    failures, start = [], threading.Barrier(8)

    def work(k):
        start.wait()
        for step in range(25):
            j = (k + step) % len(arrays)
            a, (s, m, i, mu) = arrays[j], want[j]
            try:
                assert rdx.sum(a, device=ctx) == s
                assert np.array_equal(rdx.max(a, axis=0, device=ctx), m)
                assert np.array_equal(rdx.argmin(a, axis=1, device=ctx), i)
                assert abs(rdx.mean(a, device=ctx) - mu) <= 1e-6 * max(1.0, abs(mu))
            except Exception as e:  # noqa: BLE001 - reported below
                failures.append((k, step, repr(e)))

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures, failures[:3]
