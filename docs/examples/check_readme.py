#!/usr/bin/env python3
"""The `readme.snippets` test: the code the README and docs/ show cannot drift from what the tests
build.

- Every ```cpp block of README.md and docs/*.md whose first line names a program of docs/examples
  (// docs/examples/NAME.cpp: ...) equals that file. In README.md and docs/api.md every ```cpp
  block names one: their C++ is those programs, whole. Every program of docs/examples is shown in
  README.md or docs/api.md. The programs themselves are built and run as the readme.NAME entries.
- Every CMake statement of the ```cmake blocks of README.md and docs/*.md is one that
  tests/package/consumer builds with (the target's name aside: the docs' `app` is the consumer's
  consumer_shared), and README.md and docs/api.md hold at least one.
- A ```sh block of docs/*.md that runs `pkg-config --cflags --libs rdx` equals the README's, which
  the package test runs.

Usage: check_readme.py SOURCE_DIR (the repository). Exits 1 naming each mismatch."""
import difflib
import pathlib
import re
import sys

ROOT = pathlib.Path(sys.argv[1]).resolve()
EXAMPLES = ROOT / "docs" / "examples"
CONSUMER = ROOT / "tests" / "package" / "consumer" / "CMakeLists.txt"
# The pages whose C++ must all be example programs, and where each program must be shown.
SHOWCASES = ("README.md", "docs/api.md")
problems = []


def fenced_blocks(text):
    """(language, code) of every ``` block, the code without the fence's indentation (a block in
    a list item) and with a final newline."""
    blocks, lang, indent, lines = [], None, 0, []
    for line in text.splitlines():
        stripped = line.lstrip(" ")
        if lang is None and stripped.startswith("```"):
            lang, indent, lines = stripped[3:].strip(), len(line) - len(stripped), []
        elif lang is not None and line.strip() == "```":
            blocks.append((lang, "".join(l + "\n" for l in lines)))
            lang = None
        elif lang is not None:
            lines.append(line[indent:] if line[:indent].strip() == "" else line)
    return blocks


def check_cpp(page, blocks, shown):
    """Checks page's C++ blocks; adds the programs a showcase shows to `shown`. Returns how many
    blocks were compared with a program."""
    count = 0
    for code in blocks:
        first = code.splitlines()[0] if code else ""
        m = re.match(r"// (docs/examples/[\w.-]+\.cpp)\b", first)
        if not m:
            if page in SHOWCASES:
                problems.append(f"{page}: a C++ block does not name its file on its first line: "
                                f"{first!r}")
            continue
        path = ROOT / m.group(1)
        if not path.is_file():
            problems.append(f"{page}: a C++ block names {m.group(1)}, which does not exist")
            continue
        count += 1
        if page in SHOWCASES:
            shown.add(path.resolve())
        text = path.read_text()
        if code != text:
            diff = difflib.unified_diff(text.splitlines(), code.splitlines(), m.group(1), page,
                                        lineterm="")
            problems.append(f"{page}: its block differs from {m.group(1)}:\n" + "\n".join(diff))
    return count


def statements(code):
    """CMake statements without comments, the target of a target_* command or add_executable
    replaced by TARGET."""
    out = []
    for line in code.splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            out.append(re.sub(r"^(target_\w+|add_executable)\(\s*[\w.-]+", r"\1(TARGET", line))
    return out


def check_cmake(page, blocks, consumer):
    count = 0
    for code in blocks:
        for s in statements(code):
            count += 1
            if s not in consumer:
                problems.append(f"{page}: CMake line {s!r} is not one "
                                f"{CONSUMER.relative_to(ROOT)} builds with")
    return count


def check_pkg_config(page, blocks, readme_blocks):
    """The package test runs the README's pkg-config lines: a page's copy must be the same."""
    for code in blocks:
        if "pkg-config --cflags --libs rdx" in code and code not in readme_blocks:
            problems.append(f"{page}: its pkg-config lines differ from README.md's, which the "
                            f"package test runs:\n{code}")


pages = ["README.md"] + sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md"))
consumer = set(statements(CONSUMER.read_text()))
shown = set()
n_cpp = n_cmake = 0
readme_pc = [code for lang, code in fenced_blocks((ROOT / "README.md").read_text())
             if lang == "sh" and "pkg-config --cflags --libs rdx" in code]
if not readme_pc:
    problems.append("README.md has no sh block that runs pkg-config --cflags --libs rdx")
for page in pages:
    blocks = fenced_blocks((ROOT / page).read_text())
    if page != "README.md":
        check_pkg_config(page, [code for lang, code in blocks if lang == "sh"], readme_pc)
    n_cpp += check_cpp(page, [code for lang, code in blocks if lang == "cpp"], shown)
    cmake = check_cmake(page, [code for lang, code in blocks if lang == "cmake"], consumer)
    if page in SHOWCASES and cmake == 0:
        problems.append(f"{page} shows no CMake lines (find_package, target_link_libraries)")
    n_cmake += cmake
for path in sorted(EXAMPLES.glob("*.cpp")):
    if path.resolve() not in shown:
        problems.append(f"docs/examples/{path.name} is not shown in " + " or ".join(SHOWCASES))
for p in problems:
    print("FAIL:", p)
print(f"readme: {n_cpp} C++ blocks of {len(pages)} pages checked against docs/examples, {n_cmake} "
      f"CMake lines against tests/package/consumer; {len(problems)} problems")
sys.exit(1 if problems else 0)
