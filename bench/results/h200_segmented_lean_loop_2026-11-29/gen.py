# gen.py DIR: inputs for the bits check: 2^22 f32 in [-1, 1) and their i32 in [-1000, 1000), and
# offsets of segments of random lengths 0..9000 (some not multiples of 4), as .npy
import sys, numpy as np
d = sys.argv[1]
rng = np.random.default_rng(7)
n = 1 << 22
np.save(f"{d}/f32.npy", (rng.random(n, dtype=np.float32) * 2 - 1))
np.save(f"{d}/i32.npy", rng.integers(-1000, 1000, n, dtype=np.int32))
lens = rng.integers(0, 9000, 2000)
off = np.concatenate([[0], np.cumsum(lens)])
off = off[off <= n]
off = np.append(off, n).astype(np.uint64)
np.save(f"{d}/off.npy", off)
