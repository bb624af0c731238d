#!/usr/bin/env python3
"""Checks that every C++ code block of a Markdown file is an example file, word for word.

Each ```cpp block must directly follow a marker line naming its file, relative to the
Markdown file's directory:

    <!-- example: examples/reduce_scan.cpp -->
    ```cpp
    ...the whole file...
    ```

Exits 1, with a diff, when a block differs from its file, names a missing file, or has no
marker. Usage: check_readme_examples.py README.md
"""
import difflib
import pathlib
import re
import sys

MARKER = re.compile(r"^<!-- example: (\S+) -->$")


def blocks(lines):
    """Yields (line number, marked file or None, block text) for each ```cpp block."""
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```cpp":
            marker = MARKER.match(lines[i - 1].strip()) if i > 0 else None
            start = i + 1
            end = start
            while end < len(lines) and lines[end].strip() != "```":
                end += 1
            yield i + 1, marker.group(1) if marker else None, "".join(lines[start:end])
            i = end
        i += 1


def main(argv):
    readme = pathlib.Path(argv[1])
    lines = readme.read_text().splitlines(keepends=True)
    failures = 0
    checked = 0
    for line, name, text in blocks(lines):
        where = f"{readme}:{line}"
        if name is None:
            print(f"{where}: a cpp block without an '<!-- example: FILE -->' marker above it")
            failures += 1
            continue
        path = readme.parent / name
        if not path.is_file():
            print(f"{where}: {name} does not exist")
            failures += 1
            continue
        expected = path.read_text()
        if text != expected:
            print(f"{where}: the block differs from {name}:")
            sys.stdout.writelines(difflib.unified_diff(
                expected.splitlines(keepends=True), text.splitlines(keepends=True),
                fromfile=name, tofile=f"{readme.name} block at line {line}"))
            failures += 1
        checked += 1
    print(f"{readme}: {checked} example block(s) checked, {failures} problem(s)")
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
