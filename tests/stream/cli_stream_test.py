#!/usr/bin/env python3
"""clrdx reduce --input streams files several times larger than its read blocks: exact results
(computed here in closed form from the generating formula), a peak RSS well below the file size,
progress lines on stderr for a large file, and pipes (sizes checked at the end of the data).

Usage: cli_stream_test.py path/to/clrdx WORK_DIR   (the files go to WORK_DIR and are removed)
Standard library only."""
import array
import os
import re
import subprocess
import sys
import tempfile
import time

CLRDX, WORK = sys.argv[1], sys.argv[2]
DEV = os.environ.get("RDX_DEVICE") or "cpu"
MiB = 1 << 20
BLOCK = 16 * MiB  # clrdx's read block and device slot (cmd_reduce.cpp)
RSS_LIMIT = 0.40  # peak RSS over file size
PROGRESS = re.compile(r"^clrdx: (reducing|reduced) [0-9.]+ (B|KiB|MiB|GiB|TiB)")
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    if not ok:
        failures.append(what)


def run(args, stdin=None):
    """clrdx reduce ARGS: (exit code, stdout, stderr, peak RSS in bytes, seconds)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.monotonic()
        p = subprocess.Popen([CLRDX, "reduce", "--device", DEV] + args, stdin=stdin, stdout=out,
                             stderr=err)
        _, status, usage = os.wait4(p.pid, 0)  # this child's own peak RSS
        p.returncode = code = os.waitstatus_to_exitcode(status)
        seconds = time.monotonic() - t0
        out.seek(0)
        err.seek(0)
        return code, out.read().decode(), err.read().decode(), usage.ru_maxrss * 1024, seconds


def write_repeated(path, prefix, period, total):
    """Writes `prefix` then `period` repeated until the file holds `total` bytes."""
    block = period * max(1, (8 * MiB) // len(period))
    with open(path, "wb") as f:
        f.write(prefix)
        left = total - len(prefix)
        while left > 0:
            f.write(block[: min(left, len(block))])
            left -= min(left, len(block))


def plant(path, offset, data):
    with open(path, "r+b") as f:
        f.seek(offset)
        f.write(data)


def npy_header(descr, count):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%d,), }" % (descr, count)
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode()


def expect_value(what, args, want, big_file=None, stdin=None):
    """Runs clrdx; checks stdout, an empty or progress-only stderr, and (for big_file) the RSS."""
    code, out, err, rss, seconds = run(args, stdin)
    check(code == 0 and out.strip() == want,
          f"{what}: exit {code}, stdout {out.strip()!r}, want {want!r}; stderr {err[-300:]!r}")
    lines = err.splitlines()
    if not big_file:  # small inputs: nothing at all on stderr
        check(lines == [], f"{what}: empty stderr")
    check(all(PROGRESS.match(line) for line in lines), f"{what}: stderr holds only progress")
    if big_file:
        size = os.path.getsize(big_file)
        print(f"     {what}: {size / MiB:.0f} MiB in {seconds:.2f} s "
              f"({size / MiB / seconds:.0f} MiB/s), peak RSS {rss / MiB:.0f} MiB "
              f"({100 * rss / size:.0f}% of the file)")
        check(rss < RSS_LIMIT * size,
              f"{what}: peak RSS {rss / MiB:.0f} MiB < {RSS_LIMIT:.0%} of {size / MiB:.0f} MiB")
    return lines


def expect_error(what, args, message, stdin=None):
    code, out, err, _, _ = run(args, stdin)
    lines = err.splitlines()
    check(code == 2 and out == "" and len(lines) == 1 and message in err,
          f"{what}: exit {code} (want 2), one stderr line with {message!r}: {err!r}")


def piped(path, limit=None):
    cmd = ["cat", path] if limit is None else ["head", "-c", str(limit), path]
    return subprocess.Popen(cmd, stdout=subprocess.PIPE)


def raw_u8_file(path):
    """u8, 1 GiB + 4099 bytes (progress from the start): v(i) = (13 i + 7) % 251 + 1, with 0 and
    255 planted in later blocks, a 255 tie across a block boundary."""
    n = (1 << 30) + 4099
    period = bytes((13 * i + 7) % 251 + 1 for i in range(251))
    write_repeated(path, b"", period, n)
    plants = {3 * BLOCK - 1: 255, 3 * BLOCK: 255, 1_050_000_000: 255, 700_000_001: 0,
              1_000_000_003: 0}
    for i, v in plants.items():
        plant(path, i, bytes([v]))

    def prefix_sum(k):  # of the first k elements
        full, rem = divmod(k, 251)
        return (full * sum(period) + sum(period[:rem]) +
                sum(v - period[i % 251] for i, v in plants.items() if i < k))

    return n, prefix_sum, (255, 3 * BLOCK - 1), (0, 700_000_001)


def npy_i32_file(path):
    """.npy i32, 192 Mi + 5 elements (768 MiB): v(i) = (7919 i) % 2003 - 1001, with the minimum
    planted twice in later blocks and the maximum as the very last element."""
    m = 192 * MiB + 5
    header = npy_header("<i4", m)
    period = array.array("i", ((7919 * i) % 2003 - 1001 for i in range(2003)))
    assert sys.byteorder == "little"
    write_repeated(path, header, period.tobytes(), len(header) + 4 * m)
    lo, hi = -(2**31), 2**31 - 1
    plants = {150_000_000: lo, 200_000_000: lo, m - 1: hi}
    for i, v in plants.items():
        plant(path, len(header) + 4 * i, v.to_bytes(4, "little", signed=True))
    full, rem = divmod(m, 2003)
    total = full * sum(period) + sum(period[:rem])
    total += sum(v - period[i % 2003] for i, v in plants.items())
    return m, total, (lo, 150_000_000), hi


def main():
    os.makedirs(WORK, exist_ok=True)
    raw = os.path.join(WORK, "stream_test_u8.bin")
    npy = os.path.join(WORK, "stream_test_i32.npy")
    small = os.path.join(WORK, "stream_test_small.npy")
    try:
        t0 = time.monotonic()
        n, prefix_sum, amax, amin = raw_u8_file(raw)
        m, ntotal, nmin, nmax = npy_i32_file(npy)
        print(f"     files written in {time.monotonic() - t0:.1f} s", flush=True)

        # Small inputs first, with every type and operator of the big runs: correct on their own,
        # and they build the kernels, so the big runs measure streaming memory rather than the
        # kernel compiler's (a cold build adds about 150 MiB on PoCL).
        with open(small, "wb") as f:
            f.write(npy_header("<i4", 5))
            f.write(array.array("i", [3, -4, 5, -4, 1]).tobytes())
        expect_value("small npy sum", ["--input", small, "--acc", "i64", "--op", "sum"], "1")
        expect_value("small npy argmin", ["--input", small, "--op", "argmin"], "-4 1")
        expect_value("small npy max", ["--input", small, "--op", "max"], "5")
        prefix = 4 * BLOCK + 3  # several blocks through a pipe
        with piped(raw, prefix) as p:
            expect_value("raw u8 through a pipe, 4 blocks + 3 bytes",
                         ["--input", "/dev/stdin", "--type", "u8", "--acc", "u64", "--op", "sum"],
                         str(prefix_sum(prefix)), stdin=p.stdout)
        with piped(raw, 300) as p:  # 251 is v(38) = (13 * 38 + 7) % 251 + 1, its first place
            expect_value("raw u8 argmax through a pipe",
                         ["--input", "/dev/stdin", "--type", "u8", "--op", "argmax"], "251 38",
                         stdin=p.stdout)
        with piped(raw, 300) as p:  # 1 is v(96)
            expect_value("raw u8 argmin through a pipe",
                         ["--input", "/dev/stdin", "--type", "u8", "--op", "argmin"], "1 96",
                         stdin=p.stdout)

        lines = expect_value("raw u8 sum, 1 GiB", ["--input", raw, "--type", "u8", "--acc", "u64",
                                                   "--op", "sum"], str(prefix_sum(n)), big_file=raw)
        check(len(lines) >= 1 and lines[-1].startswith("clrdx: reduced ") and "(100%)" in lines[-1],
              f"raw u8 sum, 1 GiB: progress on stderr ending at 100%: {lines}")
        expect_value("raw u8 argmax, 1 GiB (a tie across a block boundary)",
                     ["--input", raw, "--type", "u8", "--op", "argmax"], f"{amax[0]} {amax[1]}",
                     big_file=raw)
        expect_value("raw u8 argmin, 1 GiB", ["--input", raw, "--type", "u8", "--op", "argmin"],
                     f"{amin[0]} {amin[1]}", big_file=raw)

        expect_value("npy i32 sum, 768 MiB", ["--input", npy, "--acc", "i64", "--op", "sum"],
                     str(ntotal), big_file=npy)
        expect_value("npy i32 argmin, 768 MiB", ["--input", npy, "--op", "argmin"],
                     f"{nmin[0]} {nmin[1]}", big_file=npy)
        expect_value("npy i32 max, 768 MiB", ["--input", npy, "--type", "i32", "--op", "max"],
                     str(nmax), big_file=npy)

        # Pipes: a size is only known at the end of the data, and is still checked.
        with piped(npy, 128 + 4 * 1000) as p:
            expect_error("npy through a pipe, cut short", ["--input", "/dev/stdin", "--op", "sum"],
                         "the header promises", stdin=p.stdout)
        with piped(raw, 4 * BLOCK + 2) as p:
            expect_error("raw i32 through a pipe, a partial element",
                         ["--input", "/dev/stdin", "--type", "i32", "--op", "sum"],
                         "not a multiple", stdin=p.stdout)
        # A regular file whose size disagrees with its header fails before any reduction.
        with open(npy, "r+b") as f:
            f.truncate(os.path.getsize(npy) - 1)
        expect_error("npy one byte short", ["--input", npy, "--op", "sum"], "the header promises")
    finally:
        for path in (raw, npy, small):
            if os.path.exists(path):
                os.remove(path)
    print(f"stream cli: {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
