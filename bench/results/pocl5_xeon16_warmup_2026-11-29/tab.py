"""Prints this folder's tables: python3 tab.py [s31a|s31b|s31c|s31d|s31f|s31g] (all by default)."""
import collections
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
med = statistics.median


def rows(run, name="all.jsonl"):
    for line in open(os.path.join(HERE, run, name)):
        r = json.loads(line)
        if "checked" in r and not r["checked"]:
            raise SystemExit("a wrong result in %s: %s" % (run, line))
        if "ok" in r and not r["ok"]:
            raise SystemExit("a wrong result in %s: %s" % (run, line))
        yield r


def gb(values):
    return "/".join("%.0f" % v for v in values)


def lg(n):
    return "2^%d" % (n.bit_length() - 1)


def segments_vs_native(run, labels, layouts, ops):
    """Per size, op and layout: GB/s per round of each label, and its ratio of medians to native."""
    d = collections.defaultdict(list)
    for r in rows(run):
        d[(r["label"], r["op"], r["type"], r["layout"], r["n"])].append(r["GBps"])
    for n in sorted({k[4] for k in d}):
        print("\n%s, %s: GB/s per round (ratio of medians to the native loop)" % (run, lg(n)))
        print("| type op | layout | " + " | ".join(labels) + " |")
        print("|---" * (len(labels) + 2) + "|")
        for t, op in ops:
            for L in layouts:
                nat = d.get(("native", op, t, L, n))
                cells = []
                for lab in labels:
                    v = d.get((lab, op, t, L, n))
                    if not v:
                        cells.append("-")
                        continue
                    s = gb(v)
                    if nat and lab != "native":
                        s += " (%.2f)" % (med(v) / med(nat))
                    cells.append(s)
                if any(c != "-" for c in cells[1:]):
                    print("| %s %s | %s | %s |" % (t, op, L, " | ".join(cells)))


def binned(run):
    d = collections.defaultdict(list)
    for r in rows(run, "bin.jsonl"):  # file order: one row a round for each (type, n, level)
        d[(r["type"], r["n"], r["strategy"], r.get("affinity"))].append(r["call_us"])
    print("\n%s: any_device / run_to_run, call times in us per round" % run)
    print("| type | n | POCL_AFFINITY | run_to_run | any_device | per round | ratio of medians |")
    print("|---|---|---|---|---|---|---|")
    for t in ("f32", "f64"):
        for n in sorted({k[1] for k in d}):
            for a in sorted({k[3] for k in d}, key=str):
                rr, ad = d[(t, n, "auto", a)], d[(t, n, "auto:any_device", a)]
                if rr:
                    print("| %s | %s | %s | %s | %s | %s | %.2f |" % (
                        t, lg(n), "-" if a is None else a, " ".join("%.0f" % x for x in rr),
                        " ".join("%.0f" % x for x in ad),
                        " ".join("%.2f" % (x / y) for x, y in zip(ad, rr)), med(ad) / med(rr)))


def abba(run):
    d = collections.defaultdict(dict)
    for r in rows(run):
        d[(r["layout"], r["n"])][(r["ab_round"], r["label"])] = r["GBps"]
    print("\n%s: f32 max, new / old GB/s per round (order swapped every round)" % run)
    print("| n | layout | old (median) | new (median) | new / old per round | median | new faster |")
    print("|---|---|---|---|---|---|---|")
    for (L, n), v in sorted(d.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        rs = sorted({k[0] for k in v})
        q = [v[(r, "new")] / v[(r, "old")] for r in rs]
        print("| %s | %s | %.0f | %.0f | %s | %.2f | %d of %d |" % (
            lg(n), L, med([v[(r, "old")] for r in rs]), med([v[(r, "new")] for r in rs]),
            " ".join("%.2f" % x for x in q), med(q), sum(x > 1 for x in q), len(q)))


def in_order(run, name, what):
    """Rows as they ran, per round (ab_round) and label: the configuration, then us or GB/s."""
    d = collections.defaultdict(list)
    for r in rows(run, name):
        cfg = r.get("layout") or r["strategy"]
        val = "%.0f GB/s" % r["GBps"] if "layout" in r else "%.0f us" % r["call_us"]
        d[(r.get("ab_round"), r.get("label", ""), r["type"], r.get("op", ""))].append(
            "%s %s" % (cfg, val))
    print("\n%s (%s): %s, in the order each command measured them" % (run, name, what))
    for (rnd, lab, t, op), v in d.items():
        print("round %s %s %s %s: %s" % (rnd, lab, t, op, ", ".join(v)))


def grid(run):
    """--groups-per-cu 4 against 8 (labels 4,8 and 8,4: the order), both levels."""
    d = collections.defaultdict(list)
    for r in rows(run, "bin.jsonl"):
        d[(r["type"], r["n"], r["strategy"])].append(r["call_us"])
    print("\n%s: call times in us per round (auto/gN: run_to_run, auto/gN:any_device)" % run)
    print("| type | n | configuration | per round | median |")
    print("|---|---|---|---|---|")
    for (t, n, s), v in sorted(d.items()):
        print("| %s | %s | %s | %s | %.0f |" % (t, lg(n), s, " ".join("%.0f" % x for x in v), med(v)))
    for t in ("f32", "f64"):
        for n in sorted({k[1] for k in d}):
            for g in ("g4", "g8"):
                rr, ad = d[(t, n, "auto/" + g)], d[(t, n, "auto/%s:any_device" % g)]
                if rr:
                    print("%s %s %s: any_device / run_to_run %.2f (ratio of medians)" % (
                        t, lg(n), g, med(ad) / med(rr)))


def ab_native(run, old, new):
    """Two builds alternating (ABBA) with the native loop's rounds beside them."""
    d = collections.defaultdict(dict)
    for r in rows(run):
        d[(r["n"], r["layout"])][(r["ab_round"], r["label"])] = r["GBps"]
    print("\n%s: f32 max GB/s, %s against %s (order swapped every round), native beside" % (
        run, new, old))
    print("| n | layout | native | %s (x native) | %s (x native) | %s / %s per round | median | %s faster |" % (
        old, new, new, old, new))
    print("|---|---|---|---|---|---|---|---|")
    for (n, L), v in sorted(d.items()):
        rs = sorted({k[0] for k in v if k[1] == old})
        nat = [x for k, x in v.items() if k[1] == "native"]
        o, w = med([v[(i, old)] for i in rs]), med([v[(i, new)] for i in rs])
        q = [v[(i, new)] / v[(i, old)] for i in rs]
        print("| %s | %s | %s | %.0f (%.2f) | %.0f (%.2f) | %s | %.2f | %d of %d |" % (
            lg(n), L, gb(nat), o, o / med(nat), w, w / med(nat), " ".join("%.2f" % x for x in q),
            med(q), sum(x > 1 for x in q), len(q)))


U = ["uniform:%d" % (1 << k) for k in (6, 8, 10, 12, 14, 16)] + ["powerlaw"]
THREE = [("f32", "sum"), ("i32", "sum"), ("f32", "max")]
want = sys.argv[1:] or ["s31a", "s31b", "s31c", "s31d", "s31f", "s31g"]
if "s31a" in want:
    in_order("s31a", "twice.jsonl", "the same size twice, f32 2^26, at the instance's start")
    binned("s31a")
if "s31b" in want:
    segments_vs_native("s31b", ["native", "clrdx"], U, THREE)
if "s31c" in want:
    print("\ns31c: flat auto against CUB (bench_vs_yardsticks.sh's ratios.md)")
    print(open(os.path.join(HERE, "s31c", "flat", "ratios.md")).read())
if "s31d" in want:
    grid("s31d")
if "s31f" in want:
    ab_native("s31f", "cur", "new31")
if "s31g" in want:
    binned("s31g")
