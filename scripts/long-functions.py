#!/usr/bin/env python3
"""Lists every function, initializer, subscript and computed property in Sources/ longer than LIMIT lines (default 60),
counted from its declaration to its closing brace; exits 1 when there is one (`make lint` runs it).

    scripts/long-functions.py [LIMIT]
"""
import pathlib
import re
import sys

LIMIT = int(sys.argv[1]) if len(sys.argv) > 1 else 60
DECLARATION = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|private|fileprivate|internal|package|static|"
                         r"final|override|mutating|nonmutating|class|convenience|required|@inline\(__always\))\s+)*"
                         r"(?:func\s+[^\s(<]+|init[?!]?|deinit\b|(?:var|subscript)\b[^=]*\{\s*$)")


def strip(line):
    """The line without string literals and comments, so their braces do not count."""
    line = re.sub(r'"(?:\\.|[^"\\])*"', '""', line)
    return line.split("//", 1)[0]


def long_functions(path):
    lines = path.read_text(encoding="utf-8").splitlines()
    found = []
    in_block_string = False
    index = 0
    while index < len(lines):
        if lines[index].count('"""') % 2 == 1:
            in_block_string = not in_block_string
        if in_block_string or not DECLARATION.match(lines[index]):
            index += 1
            continue
        start, depth, opened = index, 0, False
        block = False
        while index < len(lines):
            text = lines[index]
            if text.count('"""') % 2 == 1:
                block = not block
                index += 1
                continue
            if not block:
                code = strip(text)
                depth += code.count("{") - code.count("}")
                opened = opened or "{" in code
            if opened and depth <= 0:
                break
            if not opened and index > start and DECLARATION.match(text):
                break  # a protocol requirement without a body
            index += 1
        length = index - start + 1
        if opened and length > LIMIT:
            name = DECLARATION.match(lines[start]).group(0).strip()
            found.append((length, f"{path}:{start + 1}", name))
        index = start + 1
    return found


def main():
    found = []
    for path in sorted(pathlib.Path("Sources").rglob("*.swift")):
        found += long_functions(path)
    for length, place, name in sorted(found, reverse=True):
        print(f"{length:4d} lines  {place}  {name}")
    if found:
        print(f"{len(found)} function(s) longer than {LIMIT} lines", file=sys.stderr)
        sys.exit(1)
    print(f"no function in Sources/ is longer than {LIMIT} lines")


if __name__ == "__main__":
    main()
