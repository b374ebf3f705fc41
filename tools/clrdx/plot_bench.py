#!/usr/bin/env python3
"""Plot `clrdx bench --json` rows, one panel per device: at one size, one bar per strategy (GB/s
on a log scale, in the rows' order: the order of `clrdx strategies`, the seeds' order); across
sizes, GB/s against n, one line per strategy. Rows that carry the peak (peak_GBps) add it: a
dashed line.

Usage: plot_bench.py ROWS.jsonl OUT.png [--script FILE]
  --script FILE  also writes the gnuplot script to FILE
Standard library only; draws with gnuplot (Debian: gnuplot-nox, installed by tools/setup.sh --plot).
"""
import collections
import json
import shutil
import subprocess
import sys


def quoted(text):
    return "'%s'" % str(text).replace("'", "")


def datablock(name, rows):
    """An inline gnuplot data block named $name."""
    return ["$%s << EOD" % name] + rows + ["EOD"]


def bars(panel, i):
    """The gnuplot lines of one size: a bar per strategy, in the rows' order."""
    data = ['%d "%s" %g' % (k, strategy.replace('"', ""), pts[0][1])
            for k, (strategy, pts) in enumerate(panel["series"].items())]
    count = len(panel["series"])
    lines = datablock("bars%d" % i, data) + [
        "unset logscale", "set logscale y 10", "set grid ytics",
        "set xrange [-0.6:%g]" % (count - 0.4), "set xlabel ''", "set format x '%g'",
        "set xtics rotate by -60 left nomirror font ',9'", "set style fill solid 0.7 border -1",
        "set boxwidth 0.8", "set key above",
    ]
    plots = ["$bars%d using 1:3:xtic(2) with boxes lc rgb '#4477aa' title 'GB/s per call'" % i]
    peak = panel["peaks"].get(panel["sizes"][0])
    if peak:
        plots.append("%g with lines dt 2 lw 2 lc rgb 'black' title %s"
                     % (peak[0], quoted("peak %.1f GB/s (%s)" % peak)))
    return lines, plots


def lines_across_sizes(panel, i):
    """The gnuplot lines of several sizes: GB/s against n, a line per strategy."""
    lines = [
        "unset logscale", "set logscale xy 2", "set format x '2^%L'", "set xlabel 'n (elements)'",
        "set xtics auto norotate font ''", "set autoscale x", "set grid", "set key outside right",
        "set style fill empty",
    ]
    plots = []
    for k, (strategy, pts) in enumerate(panel["series"].items()):
        lines += datablock("line%d_%d" % (i, k), ["%d %g" % pt for pt in sorted(pts)])
        plots.append("$line%d_%d using 1:2 with linespoints title %s" % (i, k, quoted(strategy)))
    if panel["peaks"]:
        peaks = panel["peaks"]
        lines += datablock("peak%d" % i, ["%d %g" % (n, peaks[n][0]) for n in sorted(peaks)])
        sources = sorted({src for _, src in peaks.values()})
        plots.append("$peak%d using 1:2 with lines dt 2 lw 2 lc rgb 'black' title %s"
                     % (i, quoted("peak (%s)" % ", ".join(sources))))
    return lines, plots


def main():
    args = sys.argv[1:]
    script_out = None
    if "--script" in args:
        at = args.index("--script")
        if at + 1 >= len(args):
            sys.exit(__doc__)
        script_out = args[at + 1]
        del args[at:at + 2]
    if len(args) != 2:
        sys.exit(__doc__)
    rows, out = args
    if not shutil.which("gnuplot"):
        sys.exit("plot_bench.py: gnuplot is missing (tools/setup.sh --plot installs it)")
    panels = collections.OrderedDict()  # device -> its strategies' points, sizes and peaks
    with open(rows) as f:
        for line in f:
            if not line.strip():
                continue
            r = json.loads(line)
            p = panels.setdefault(r["device"], {"series": collections.OrderedDict(),
                                                "peaks": {}, "what": ""})
            p["series"].setdefault(r["strategy"], []).append((r["n"], r["GBps"]))
            if r.get("peak_GBps"):
                p["peaks"][r["n"]] = (r["peak_GBps"], r.get("peak_source", "given"))
            if "type" in r and "op" in r:
                p["what"] = "%s %s" % (r["op"], r["type"])
    if not panels:
        sys.exit("plot_bench.py: no rows in " + rows)
    width = 1100
    for p in panels.values():
        p["sizes"] = sorted({n for pts in p["series"].values() for n, _ in pts})
        if len(p["sizes"]) == 1:
            width = max(width, 300 + 36 * len(p["series"]))
    script = [
        "set terminal pngcairo size %d,%d noenhanced" % (width, 560 * len(panels)),
        "set output %s" % quoted(out),
        "set multiplot layout %d,1" % len(panels),
        "set ylabel 'GB/s per call'",
    ]
    for i, (device, p) in enumerate(panels.items()):
        if len(p["sizes"]) == 1:
            n = p["sizes"][0]
            lines, plots = bars(p, i)
            title = "%s: %sn = %d%s" % (device, p["what"] + ", " if p["what"] else "", n,
                                        " (2^%d)" % (n.bit_length() - 1) if n & (n - 1) == 0 else "")
        else:
            lines, plots = lines_across_sizes(p, i)
            title = "%s: %s" % (device, p["what"]) if p["what"] else device
        script += lines
        script.append("set title %s" % quoted(title))
        script.append("plot " + ", ".join(plots))
    script.append("unset multiplot")
    text = "\n".join(script) + "\n"
    if script_out:
        with open(script_out, "w") as f:
            f.write(text)
    subprocess.run(["gnuplot"], input=text, text=True, check=True)


if __name__ == "__main__":
    main()
