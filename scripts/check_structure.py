#!/usr/bin/env python3
"""Structure rules of the code base (docs/design.md), checked by ctest (structure_rules):
  - no source file over 900 lines;
  - no class or struct defined in a .cpp over 500 lines (the kernels' threaded-code dispatch
    function, a function and not a class, may stay whole);
  - every header starts with a comment: its contract;
  - outside the tests, no isl object is built by parsing text (isl's *_read_from_str functions
    and the C++ bindings' string constructors): the verifier and the scheduler use isl's API.
Usage: check_structure.py ROOT   (exit 1 with one line per broken rule)"""
import os
import re
import sys

FOLDERS = ["interpreter", "polyhedral", "bigstep", "smallstep", "verifier", "fuzz", "bench", "driver", "cli", "codegen", "scheduler",
           "tests"]
MAX_FILE, MAX_CLASS = 900, 500
# isl_set_read_from_str(...), isl::set(ctx, "..."), isl::pw_aff(ctx, text), ...
ISL_PARSE = re.compile(r"\bisl_\w+_read_from_str\b|\bisl::\w+\s*\(\s*\w+\s*,\s*(\"|\w+\.c_str\(\)|std::string|text|str)")
CLASS = re.compile(r"^(\s*)(?:template\s*<[^>]*>\s*)?(class|struct)\s+([A-Za-z_][\w:]*)[^;]*\{\s*$")


def classes(lines):
    """(name, first line, length) of each class or struct whose body opens on its header line."""
    for i, line in enumerate(lines):
        m = CLASS.match(line)
        if not m:
            continue
        depth, j = 0, i
        while j < len(lines):
            depth += lines[j].count("{") - lines[j].count("}")
            if depth <= 0 and j > i:
                break
            j += 1
        yield m.group(3), i + 1, j - i + 1


def main(root):
    problems = []
    for folder in FOLDERS:
        for dirpath, _, files in os.walk(os.path.join(root, folder)):
            for f in sorted(files):
                if not f.endswith((".cpp", ".hpp", ".h")):
                    continue
                path = os.path.join(dirpath, f)
                rel = os.path.relpath(path, root)
                with open(path, encoding="utf-8") as fh:
                    lines = fh.read().split("\n")
                if len(lines) > MAX_FILE:
                    problems.append(f"{rel}: {len(lines)} lines (at most {MAX_FILE})")
                if f.endswith(".cpp"):
                    for name, first, n in classes(lines):
                        if n > MAX_CLASS:
                            problems.append(f"{rel}:{first}: class {name} is {n} lines (at most {MAX_CLASS} in a .cpp)")
                elif not lines[0].startswith("//"):
                    problems.append(f"{rel}:1: the header does not start with its contract (a comment)")
                if folder != "tests":
                    for k, line in enumerate(lines):
                        if ISL_PARSE.search(line.split("//")[0]):
                            problems.append(f"{rel}:{k + 1}: an isl object built by parsing text (use isl's API)")
    for p in problems:
        print(p)
    print(f"structure: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
