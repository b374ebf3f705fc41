"""The stubs of rdx's NumPy functions in python/rdx/__init__.pyi, made from the table
(python/rdx/_table.py): rewrites the block between BEGIN and END in place.

    python3 python/tools/gen_stubs.py           # rewrite python/rdx/__init__.pyi
    python3 python/tools/gen_stubs.py --check   # exit 1 if the file differs from the table's

python/tests/test_table.py runs the check. The table is read from its file, without importing
the package (which needs the built extension)."""
from __future__ import annotations

import importlib.util
import inspect
import sys
from pathlib import Path

PYTHON = Path(__file__).resolve().parents[1]
STUBS = PYTHON / "rdx" / "__init__.pyi"
BEGIN = "# BEGIN the functions of rdx/_table.py (python/tools/gen_stubs.py writes them)\n"
END = "# END the functions of rdx/_table.py\n"
WIDTH = 100


def load_table(path: Path = PYTHON / "rdx" / "_table.py"):
    """rdx/_table.py as a module of its own."""
    spec = importlib.util.spec_from_file_location("rdx_table", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _default(value) -> str:
    return f'"{value}"' if isinstance(value, str) else repr(value)


def _def(table, row, types: dict[str, str], returns: str) -> str:
    """One stub: def name(params) -> returns: ..., wrapped at WIDTH as the package's style."""
    items, star, slash = [], False, False
    for p in row.signature().parameters.values():
        if p.kind is not inspect.Parameter.POSITIONAL_ONLY and slash:
            items.append("/")  # after the last positional-only parameter
            slash = False
        if p.kind is inspect.Parameter.KEYWORD_ONLY and not star:
            items.append("*")
            star = True
        note = types.get(p.name) or row.types.get(p.name) or table.STUB_TYPES[p.name]
        item = f"{p.name}: {note}"
        if p.default is not inspect.Parameter.empty:
            item += f" = {_default(p.default)}"
        items.append(item)
        slash = p.kind is inspect.Parameter.POSITIONAL_ONLY
    head = f"def {row.name}("
    lines, line = [], head
    for k, item in enumerate(items):
        text = item + (f") -> {returns}: ..." if k == len(items) - 1 else ",")
        if line != head and len(line) + 1 + len(text) > WIDTH:
            lines.append(line)
            line = " " * len(head) + text
        else:
            line += ("" if line == head else " ") + text
    lines.append(line)
    return "\n".join(lines) + "\n"


def render(table) -> str:
    """The block: every row's stub (its @overload forms where it has them)."""
    out = []
    for row in table.FUNCTIONS:
        if row.overloads:
            for types, returns in row.overloads:
                out.append("@overload\n" + _def(table, row, types, returns))
        else:
            out.append(_def(table, row, {}, row.returns))
    return BEGIN + "".join(out) + END


def rewrite(text: str, table) -> str:
    """text (the .pyi) with its block replaced by the table's."""
    start, end = text.index(BEGIN), text.index(END) + len(END)
    return text[:start] + render(table) + text[end:]


def main(argv) -> int:
    table = load_table()
    text = STUBS.read_text()
    new = rewrite(text, table)
    if "--check" in argv:
        if new != text:
            print(f"{STUBS} differs from rdx/_table.py: run python/tools/gen_stubs.py",
                  file=sys.stderr)
            return 1
        return 0
    if new != text:
        STUBS.write_text(new)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
