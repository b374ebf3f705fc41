#!/usr/bin/env python3
"""The layers of runtime/src at link time.

docs/ARCHITECTURE.md's "Folders" table says what each folder of runtime/src/ may include (its
"depends on" cell: `folder`, `folder/file.hpp`, or a public header `rdx/x.hpp`, whose folder is
its home in the "Public headers" table). tests/test_layers.cpp checks the includes; this checks
the objects: a folder's object files may use (nm --undefined-only) a symbol that another folder's
object files define (nm --defined-only, strong definitions only: T, D, B, R) only when that
folder is reachable from it through the table's edges. A folder that calls into a folder above
it through a declaration it does not own (an `extern`, a header of a shared folder) fails here.
There are no exceptions: every use points down the table (issue 66, point 2).

Usage: layers_nm.py ARCHITECTURE.md OBJECT... (the objects of librdx's object library,
$<TARGET_OBJECTS:rdx_objects>). Exit 0: every use points down the table; 1: a use points up (each
printed); 2: the table or the objects could not be read.
"""
import re
import subprocess
import sys
from collections import defaultdict

STRONG = set("TDBRGS")  # defined here, once (weak, common and local symbols are not homes)


def fail_setup(msg):
    print("layers_nm: " + msg, file=sys.stderr)
    sys.exit(2)


def read_tables(page):
    """The Folders table's edges ({folder: {folder}}) and the public headers' homes."""
    start = page.find("\n## Folders")
    if start < 0:
        fail_setup("no '## Folders' section in the page")
    section = page[start + 1 :]
    end = section.find("\n## ", 1)
    section = section if end < 0 else section[:end]
    homes = {}
    header_row = re.compile(r"^\|((?:\s*`[a-z_]+\.hpp`,?)+)\s*\|\s*(?:`([a-z_]+)`|([^|`]*))\s*\|\s*$")
    for line in section.splitlines():
        m = header_row.match(line)
        if m:
            for h in re.findall(r"`([a-z_]+\.hpp)`", m.group(1)):
                homes["rdx/" + h] = m.group(2)  # None: no folder may include it
    edges = defaultdict(set)
    row = re.compile(r"^\|\s*`runtime/src/([a-z_]+)/`\s*\|.*\|([^|]*)\|\s*$")
    for line in section.splitlines():
        m = row.match(line)
        if not m:
            continue
        folder = m.group(1)
        edges[folder]  # a row without edges is still a row
        for token in re.findall(r"`([^`]+)`", m.group(2)):
            if token.startswith("rdx/"):
                home = homes.get(token)
                if home:
                    edges[folder].add(home)
            else:
                edges[folder].add(token.split("/")[0])
    if not homes:
        fail_setup("no public headers' homes in the Folders section")
    if len(edges) < 8:
        fail_setup("the Folders table has %d rows of runtime/src folders" % len(edges))
    return edges, homes


def reachable(edges, start):
    seen, todo = {start}, [start]
    while todo:
        for nxt in edges.get(todo.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def folder_of(obj):
    # A subfolder belongs to its folder's layer (strategies/seeds/ is `strategies`).
    m = re.search(r"/src/([a-z_]+)/(?:[a-z_]+/)*[^/]+\.o$", obj)
    if m:
        return m.group(1)
    if obj.endswith("/embedded_sources.cpp.o"):
        return "core"  # generated: the kernel sources core/embedded_sources.hpp declares
    fail_setup("an object outside runtime/src/<folder>/ (a unity build?): " + obj)


def nm(flag, objs):
    """{object: [(type, symbol)]} from nm -C -A."""
    out = subprocess.run(["nm", "-C", "-A", flag] + objs, check=True, capture_output=True, text=True)
    syms = defaultdict(list)
    line_re = re.compile(r"^(.*?\.o):\s*(?:[0-9a-fA-F]+\s+)?([A-Za-z])\s+(.*)$")
    for line in out.stdout.splitlines():
        m = line_re.match(line)
        if m:
            syms[m.group(1)].append((m.group(2), m.group(3)))
    return syms


def main():
    if len(sys.argv) < 3:
        fail_setup(__doc__)
    with open(sys.argv[1], encoding="utf-8") as f:
        edges, _ = read_tables(f.read())
    # One argument each, or a CMake list; a precompiled header (.gch) is not an object.
    objs = [o for arg in sys.argv[2:] for o in arg.split(";") if o.endswith(".o")]
    folders = {o: folder_of(o) for o in objs}
    for fol in sorted(set(folders.values())):
        if fol not in edges:
            fail_setup("runtime/src/%s/ has no row in the Folders table" % fol)
    home = {}
    for obj, syms in nm("--defined-only", objs).items():
        for kind, sym in syms:
            if kind in STRONG:
                home[sym] = folders[obj]
    if len(home) < 200:
        fail_setup("only %d symbols defined: were the objects built?" % len(home))
    bad = defaultdict(set)
    uses = 0
    for obj, syms in nm("--undefined-only", objs).items():
        here = folders[obj]
        allowed = reachable(edges, here)
        for _, sym in syms:
            there = home.get(sym)
            if there is None or there == here:
                continue
            uses += 1
            if there not in allowed:
                bad[(here, there)].add((obj.split("/src/")[-1], sym))
    for (here, there), items in sorted(bad.items()):
        print("runtime/src/%s/ uses symbols defined in runtime/src/%s/, which its row does not "
              "reach:" % (here, there))
        for obj, sym in sorted(items)[:8]:
            print("  %s: %s" % (obj, sym))
        if len(items) > 8:
            print("  ... and %d more" % (len(items) - 8))
    if uses < 200:
        fail_setup("only %d uses across folders: were the objects read?" % uses)
    print("layers_nm: %d objects, %d uses across folders, %d pairs of folders pointing up"
          % (len(objs), uses, len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
