#!/usr/bin/env python3
"""Fails when a public declaration in Sources/ has no doc comment.

A declaration is `public` or `open` (a type, function, initializer, property, subscript, typealias,
associated type or case of a public enum); its doc comment is a `///` line (or a `/** */` block)
directly above it, attributes (`@discardableResult`, `@MainActor`, ...) and `//` comments allowed
in between. Extensions themselves need none (their members do). Prints `path:line: missing doc
comment: <declaration>` for each and exits 1, or prints a count and exits 0.

    Scripts/check-doc-comments.py [Sources/...]
"""
import os
import re
import sys

DECLARATION = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|open)(?:\s+(?:static|class|final|override|mutating|nonmutating|convenience|required|indirect|nonisolated|dynamic|lazy))*\s+"
    r"(?:func|var|let|init\??|subscript|struct|enum|class|actor|protocol|typealias|associatedtype|case)\b)"
)
EXTENSION = re.compile(r"^\s*(?:@\w+\s+)*(?:public\s+)?extension\b")
PUBLIC_ENUM = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*public\s+(?:indirect\s+)?enum\b")
CASE = re.compile(r"^\s*case\s+\w")


def documented(lines, index):
    """Whether the lines above `index` end in a doc comment, skipping attributes and `//` lines."""
    i = index - 1
    while i >= 0:
        text = lines[i].strip()
        if text.startswith("///") or text.endswith("*/") and "/**" in "".join(lines[max(0, i - 50):i + 1]):
            return True
        if text.startswith("@") or (text.startswith("//") and not text.startswith("///")):
            i -= 1
            continue
        return False
    return False


def check(path):
    missing = []
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    # Track public enums by brace depth, to require docs on their cases.
    depth = 0
    enum_depths = []
    for index, line in enumerate(lines):
        code = line.split("//")[0]
        if PUBLIC_ENUM.match(line):
            enum_depths.append(depth + 1)
        in_public_enum = bool(enum_depths) and depth == enum_depths[-1]
        is_case = in_public_enum and CASE.match(line) and "case let" not in line
        if (DECLARATION.match(line) or is_case) and not EXTENSION.match(line):
            if not documented(lines, index):
                missing.append(f"{path}:{index + 1}: missing doc comment: {line.strip()}")
        depth += code.count("{") - code.count("}")
        while enum_depths and depth < enum_depths[-1]:
            enum_depths.pop()
    return missing


def main():
    roots = sys.argv[1:] or ["Sources"]
    missing = []
    count = 0
    for root in roots:
        for folder, _, files in os.walk(root):
            for name in sorted(files):
                if name.endswith(".swift"):
                    count += 1
                    missing += check(os.path.join(folder, name))
    for entry in missing:
        print(entry)
    if missing:
        print(f"{len(missing)} public declarations without a doc comment")
        sys.exit(1)
    print(f"every public declaration in {count} files has a doc comment")


if __name__ == "__main__":
    main()
