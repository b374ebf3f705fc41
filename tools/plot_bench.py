#!/usr/bin/env python3
"""Plot `clrdx bench --json` rows: GB/s against n, one line per strategy (one panel per device).

Usage: plot_bench.py ROWS.jsonl OUT.png
Standard library only; draws with gnuplot (Debian: gnuplot-nox, installed by tools/setup.sh --plot).
"""
import collections
import json
import os
import shutil
import subprocess
import sys
import tempfile


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    rows, out = sys.argv[1], sys.argv[2]
    if not shutil.which("gnuplot"):
        sys.exit("plot_bench.py: gnuplot is missing (tools/setup.sh --plot installs it)")
    series = collections.OrderedDict()  # (device, strategy) -> [(n, GBps)]
    with open(rows) as f:
        for line in f:
            if line.strip():
                r = json.loads(line)
                series.setdefault((r["device"], r["strategy"]), []).append((r["n"], r["GBps"]))
    if not series:
        sys.exit("plot_bench.py: no rows in " + rows)
    devices = list(collections.OrderedDict.fromkeys(d for d, _ in series))
    tmp = tempfile.mkdtemp()
    script = [
        "set terminal pngcairo size 1100,%d noenhanced" % (520 * len(devices)),
        "set output '%s'" % out,
        "set multiplot layout %d,1" % len(devices),
        "set logscale xy 2", "set format x '2^%L'", "set xlabel 'n (elements)'",
        "set ylabel 'GB/s'", "set key outside right", "set grid",
    ]
    sizes = sorted({n for pts in series.values() for n, _ in pts})
    if len(sizes) == 1:  # one size: a range around it (gnuplot warns on an empty one)
        script.append("set xrange [%d:%d]" % (max(sizes[0] // 2, 1), sizes[0] * 2))
    for d in devices:
        plots = []
        for i, ((dev, strategy), pts) in enumerate(series.items()):
            if dev != d:
                continue
            path = os.path.join(tmp, "%d.dat" % i)
            with open(path, "w") as f:
                for n, gbps in sorted(pts):
                    f.write("%d %g\n" % (n, gbps))
            plots.append("'%s' using 1:2 with linespoints title '%s'" % (path, strategy))
        script.append("set title '%s'" % d.replace("'", ""))
        script.append("plot " + ", ".join(plots))
    script.append("unset multiplot")
    subprocess.run(["gnuplot"], input="\n".join(script), text=True, check=True)


if __name__ == "__main__":
    main()
