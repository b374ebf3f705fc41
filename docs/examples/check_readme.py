#!/usr/bin/env python3
"""The `readme.snippets` test: the README's code cannot drift from what the tests build.

- Every ```cpp block of the README is one program of docs/examples, whole: its first line names
  the file (// docs/examples/NAME.cpp: ...) and the block equals that file; every program there
  is shown. The programs themselves are built and run as the readme.NAME entries.
- Every CMake statement of the README's ```cmake blocks is one that tests/package/consumer builds
  with (the target's name aside: the README's `app` is the consumer's consumer_shared).

Usage: check_readme.py README.md EXAMPLES_DIR CONSUMER_CMAKELISTS. Exits 1 naming each mismatch."""
import difflib
import pathlib
import re
import sys

README, EXAMPLES, CONSUMER = (pathlib.Path(a).resolve() for a in sys.argv[1:4])
ROOT = EXAMPLES.parents[1]  # the repository: blocks name files from there
problems = []


def fenced_blocks(text):
    """(language, code) of every ``` block, the code with a final newline."""
    blocks, lang, lines = [], None, []
    for line in text.splitlines():
        if lang is None and line.startswith("```"):
            lang, lines = line[3:].strip(), []
        elif lang is not None and line.strip() == "```":
            blocks.append((lang, "".join(l + "\n" for l in lines)))
            lang = None
        elif lang is not None:
            lines.append(line)
    return blocks


def check_cpp(blocks):
    shown = set()
    for code in blocks:
        first = code.splitlines()[0] if code else ""
        m = re.match(r"// (docs/examples/[\w.-]+\.cpp)\b", first)
        if not m:
            problems.append(f"a C++ block does not name its file on its first line: {first!r}")
            continue
        path = ROOT / m.group(1)
        if not path.is_file():
            problems.append(f"a C++ block names {m.group(1)}, which does not exist")
            continue
        shown.add(path.resolve())
        text = path.read_text()
        if code != text:
            diff = difflib.unified_diff(text.splitlines(), code.splitlines(), m.group(1),
                                        "README.md", lineterm="")
            problems.append(f"README's block differs from {m.group(1)}:\n" + "\n".join(diff))
    for path in sorted(EXAMPLES.glob("*.cpp")):
        if path.resolve() not in shown:
            problems.append(f"docs/examples/{path.name} is not shown in README.md")
    return len(shown)


def statements(code):
    """CMake statements without comments, the target of a target_* command or add_executable
    replaced by TARGET."""
    out = []
    for line in code.splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            out.append(re.sub(r"^(target_\w+|add_executable)\(\s*[\w.-]+", r"\1(TARGET", line))
    return out


def check_cmake(blocks):
    consumer = set(statements(CONSUMER.read_text()))
    count = 0
    for code in blocks:
        for s in statements(code):
            count += 1
            if s not in consumer:
                problems.append(f"README's CMake line {s!r} is not one {CONSUMER} builds with")
    return count


blocks = fenced_blocks(README.read_text())
n_cpp = check_cpp([code for lang, code in blocks if lang == "cpp"])
n_cmake = check_cmake([code for lang, code in blocks if lang == "cmake"])
for p in problems:
    print("FAIL:", p)
print(f"readme: {n_cpp} C++ blocks checked against docs/examples, {n_cmake} CMake lines against "
      f"tests/package/consumer; {len(problems)} problems")
sys.exit(1 if problems else 0)
