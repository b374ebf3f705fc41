"""Prints this folder's tables (docs/performance.md, "H200: seg_reduce in 32 registers").
python3 tab.py [s34a s34b s34c s34d s34e cpu]: all by default."""
import collections
import json
import statistics as st
import sys

LAYOUTS = ("uniform:4096,uniform:8192,uniform:16384,uniform:65536,uniform:262144,powerlaw,"
           "rows:4096,rows:16384").split(",")
OPS = (("f32", "sum"), ("i32", "sum"), ("f32", "max"))


def rows(path):
    return [json.loads(l) for l in open(path) if l.strip()]


def alone(path, impl, variants, sizes=(4096, 16384, 65536)):
    d = collections.defaultdict(list)
    extra = {}
    for j in rows(path):
        d[(j["L"], j["variant"])].append(j["median_us"])
        extra[j["variant"]] = j.get("regs", "-")
    print(f"| segments of | kernel | {impl}: rounds (us) | median |")
    print("| --- | --- | --- | --- |")
    for L in sizes:
        for v in variants:
            xs = d[(L, v)]
            if xs:
                print(f"| {L} | {v} | {'/'.join('%.1f' % x for x in xs)} | {st.median(xs):.1f} |")
    return extra


def cub_calls(path):
    c = {}
    for j in rows(path):
        if "call_us" in j:
            c[(j["type"], j["op"], j["layout"])] = j["call_us"]
    return c


def clrdx(path, key, names, base, cub=None, layouts=LAYOUTS):
    e = collections.defaultdict(list)
    for j in rows(path):
        e[(j["type"], j["op"], j["layout"], j[key])].append(j["call_us"])
    head = " | ".join(f"{n} call (us)" for n in names)
    ratios = " | ".join(f"{n} / {base}" for n in names if n != base)
    cubh = " | CUB (us) | " + " | ".join(f"CUB / {n}" for n in names) if cub else ""
    print(f"| type, op | layout | {head} | {ratios}{cubh} |")
    print("| --- " * (2 + 2 * len(names) - 1 + ((1 + len(names)) if cub else 0)) + "|")
    for t, op in OPS:
        for L in layouts:
            m = {}
            cells = []
            for n in names:
                xs = e[(t, op, L, n)]
                if not xs:
                    break
                m[n] = st.median(xs)
                cells.append(f"{'/'.join('%.1f' % x for x in xs)} ({m[n]:.1f})")
            if len(m) < len(names):
                continue
            rs = [f"{m[base] / m[n]:.3f}" for n in names if n != base]
            line = f"| {t} {op} | {L} | " + " | ".join(cells) + " | " + " | ".join(rs)
            if cub:
                k = L if not L.startswith("rows") else "uniform:" + L.split(":")[1]
                c = cub.get((t, op, k))
                line += f" | {c if c else '-'} | " + " | ".join(
                    f"{c / m[n]:.3f}" if c else "-" for n in names)
            print(line + " |")


def show(name):
    if name == "s34a":
        print("s34a: alone through the CUDA driver API (seg_ptx_run, events), f32 sum by offsets, 2^28")
        regs = alone("s34a/runs.jsonl", "CUDA launch", ("cur", "A", "B", "C"))
        print("registers (cuFuncGetAttribute):", regs)
        print("\ns34a: through clrdx (HEAD's binary, RDX_KERNEL_DIR), f32 sum, 3 rounds")
        clrdx("s34a/seg.jsonl", "variant", ("cur", "A", "B", "C"), "cur",
              layouts=("uniform:4096", "uniform:16384", "uniform:65536", "powerlaw"))
    elif name == "s34b":
        print("s34b: alone through OpenCL (seg_cl_run, profiling events), f32 sum by offsets, 2^28")
        alone("s34b/cl.jsonl", "OpenCL", ("cur", "A", "B"))
        print("\ns34b: the CUDA launch with the shared-memory carveout preference, segments of 4096")
        print("| kernel | carveout | blocks a multiprocessor | rounds (us) |")
        print("| --- | --- | --- | --- |")
        d = collections.defaultdict(list)
        bl = {}
        for j in rows("s34b/ptx.jsonl"):
            d[(j["variant"], j["carveout"])].append(j["median_us"])
            bl[(j["variant"], j["carveout"])] = j["blocks_per_sm"]
        for k in sorted(d):
            print(f"| {k[0]} | {'default' if k[1] < 0 else k[1]} | {bl[k]} | "
                  f"{'/'.join('%.1f' % x for x in d[k])} |")
    elif name == "s34c":
        print("s34c: alone through OpenCL (seg_cl_run), 3 rounds")
        alone("s34c/cl.jsonl", "OpenCL", ("cur", "A", "B", "C"))
        print("\ns34c: through clrdx, cur / B / C, 5 rounds; CUB once")
        clrdx("s34c/seg.jsonl", "variant", ("cur", "B", "C"), "cur", cub_calls("s34c/cub.jsonl"))
    elif name in ("s34d", "s34e"):
        what = "A (the tail first)" if name == "s34d" else "the committed SEG_LEAN_LOOP"
        print(f"{name}: HEAD (old) against {what} (new), 5 rounds; CUB once")
        clrdx(f"{name}/seg.jsonl", "build", ("old", "new"), "old", cub_calls(f"{name}/cub.jsonl"))
    elif name == "cpu":
        print("cpu: PoCL 3.1, 2 cores, f32 argmax by offsets, 2^24, 10 rounds: HEAD's kernels (cur)")
        print("against B and C; each round's cur time over the variant's (speed ratio)")
        d = collections.defaultdict(dict)
        for line in open("cpu_argmax_ab.txt"):
            r, v, L, t = line.split()
            d[(L, int(r))][v] = float(t)
        print("| layout | variant | median ratio | min | max |")
        print("| --- | --- | --- | --- | --- |")
        for L in ("uniform:64", "uniform:256", "uniform:4096"):
            for v in ("B", "C"):
                rs = [x["cur"] / x[v] for (l, _), x in d.items() if l == L and v in x and "cur" in x]
                print(f"| {L} | {v} | {st.median(rs):.3f} | {min(rs):.3f} | {max(rs):.3f} |")
    print()


for n in sys.argv[1:] or ["s34a", "s34b", "s34c", "s34d", "s34e", "cpu"]:
    show(n)
