#!/usr/bin/env python3
"""Structure rules of the code base (docs/design.md), checked by ctest (structure_rules):
  - no source file over 900 lines;
  - no class or struct defined in a .cpp over 500 lines;
  - no function over 150 lines, but those named in LONG_FUNCTIONS (each justified in
    docs/design.md, "Structure rules");
  - every header starts with a comment: its contract;
  - the layering of docs/design.md's picture: a folder includes only the folders below it
    (LAYERS; tests may include anything);
  - outside the tests, no isl object is built by parsing text (isl's *_read_from_str functions
    and the C++ bindings' string constructors): the verifier and the scheduler use isl's API.
Every folder with C++ sources is checked; a new one must be given its place in LAYERS.
It first checks itself on small cases (self_test): a parser that finds nothing fails.
Usage: check_structure.py ROOT   (exit 1 with one line per broken rule)"""
import os
import re
import subprocess
import sys

MAX_FILE, MAX_CLASS, MAX_FUNCTION = 900, 500, 150
# What each folder may include (besides its own headers and sched/version.hpp, generated).
# A name is a folder, or one header of it.
BELOW_DRIVER = ["interpreter", "polyhedral", "bigstep", "smallstep", "codegen", "verifier", "scheduler", "hazards"]
LAYERS = {
    "interpreter": [],
    "polyhedral": [],
    "bigstep": ["interpreter"],
    "smallstep": ["interpreter"],
    "codegen": ["interpreter"],
    "verifier": ["interpreter", "polyhedral"],
    "scheduler": ["interpreter", "polyhedral"],
    # generator.cpp compiles a user's generator into the kernel cache and runs the compiler as an
    # external program: those two headers only (driver/external.hpp includes nothing of driver's)
    "halide": ["interpreter", "polyhedral", "scheduler", "codegen/kernel_cache.hpp", "driver/external.hpp"],
    "driver": BELOW_DRIVER,
    "fuzz": BELOW_DRIVER + ["driver", "halide"],
    "mlir": BELOW_DRIVER + ["driver", "fuzz"],  # mlir/import includes MLIR's own headers (mlir/IR/..., llvm/...), not ours
    "c": BELOW_DRIVER + ["driver"],  # the C front end: clang runs as a child, its JSON tree is read here
    "hazards": ["interpreter"],  # sched hazards: intervals over the syntax tree
    "report": ["interpreter/limits.hpp"],  # fmt and nlohmann-json otherwise: the pages draw the commands' JSON
    "python": BELOW_DRIVER + ["driver", "c"],
    "cli": BELOW_DRIVER + ["driver", "fuzz", "halide", "mlir", "c", "report"],
    "bench": BELOW_DRIVER + ["driver", "fuzz", "halide"],
    "tests": None,  # anything
}
# Functions allowed past MAX_FUNCTION lines: (file, name) -> the reason, also in docs/design.md.
LONG_FUNCTIONS = {
    ("bigstep/fast_kernel.cpp", "KernelNode::run"): "the threaded-code interpreter: its labels and registers live in one function",
}
# isl_set_read_from_str(...), isl::set(ctx, "..."), isl::pw_aff(ctx, text), ...
ISL_PARSE = re.compile(r"\bisl_\w+_read_from_str\b|\bisl::\w+\s*\(\s*\w+\s*,\s*(\"|\w+\.c_str\(\)|std::string|text|str)")
CLASS = re.compile(r"^(\s*)(?:template\s*<[^>]*>\s*)?(class|struct)\s+([A-Za-z_][\w:]*)[^;]*\{\s*$")
INCLUDE = re.compile(r'^\s*#\s*include\s+["<](?:\.\./)*([a-z_]+)/([^">]+)[">]')
# A `{` that continues its head as a braced initialiser, not a body: after `=` or `return`, or a
# member initialiser after a constructor's `) :` (`Foo() : x_{1}, y_{2} {`).
def initialiser(head):
    return bool(re.search(r"(=|\breturn)\s*$", head) or
                (re.search(r"\)\s*(noexcept\s*)?:(?!:)", head) and re.search(r"[:,]\s*[\w:]+(<[^{}]*>)?\s*$", head)))


def classes(lines):
    """(name, first line, length) of each class or struct whose body opens on its header line
    (braces in comments and literals do not count)."""
    code = code_only("\n".join(lines)).split("\n")
    for i, line in enumerate(code):
        m = CLASS.match(line)
        if not m:
            continue
        depth, j = 0, i
        while j < len(code):
            depth += code[j].count("{") - code[j].count("}")
            if depth <= 0 and j > i:
                break
            j += 1
        yield m.group(3), i + 1, j - i + 1


def code_only(text):
    """The text with comments, string and character literals blanked (newlines kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text[i] == "#" and (i == 0 or text[i - 1] == "\n" or text[:i].rsplit("\n", 1)[-1].strip() == ""):
            j = i  # a preprocessor line (and its continuations): not code
            while True:
                k = text.find("\n", j)
                if k < 0 or not text[:k].rstrip().endswith("\\"):
                    break
                j = k + 1
            i = n if k < 0 else k
            continue
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
            continue
        raw = re.match(r'R"([^(\s]*)\(', text[i:i + 24]) if text[i] == "R" and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")) else None
        if raw:
            end = ")" + raw.group(1) + '"'
            j = text.find(end, i + len(raw.group(0)))
            j = n if j < 0 else j + len(end)
            out.append('""' + "\n" * text.count("\n", i, j))
            i = j
            continue
        c = text[i]
        if c == '"' or (c == "'" and not (i > 0 and text[i - 1].isalnum())):  # 1'000'000 is a number
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
            continue
        out.append(c)
        i += 1
    return "".join(out)


def functions(text):
    """(name, first line, length) of each function body at namespace or class level."""
    s = code_only(text)
    stack, found, line, head, parens = [], [], 1, 0, 0
    for i, c in enumerate(s):
        if c == "\n":
            line += 1
        elif c in "()":
            parens += 1 if c == "(" else -1
        elif c == "{" and (parens > 0 or initialiser(" ".join(s[head:i].split()))):
            stack.append(("init", line, ""))  # a default argument `= {}`, a member initialiser `x_{1}`
        elif c == "{":
            h = " ".join(s[head:i].split())
            outer = all(k in ("namespace", "class") for k, _, _ in stack)
            if re.match(r'^(namespace\b|extern "")', h) or (outer and re.search(r"\bnamespace\s*[\w:]*$", h)):
                kind = "namespace"
            elif outer and re.match(r"^(template\s*<.*>\s*)?(struct|class|union)\b", h):
                kind = "class"
            elif outer and "(" in h and not re.match(r"^(template\s*<.*>\s*)?enum\b", h) and not h.endswith("="):
                kind = "function"
            else:
                kind = "block"
            m = re.search(r"([~\w:]+)\s*\(", h) if kind == "function" else None
            stack.append((kind, line, m.group(1) if m else ""))
            head = i + 1
        elif c == "}":
            kind, first, name = stack.pop() if stack else ("block", 0, "")
            if kind == "init":
                continue  # the head goes on: `Foo() : x_{1} {`
            if kind == "function":
                found.append((name, first, line - first + 1))
            head = i + 1
        elif c == ";":
            head = i + 1
    return found


def layering(folder, rel, lines):
    allowed = LAYERS.get(folder)
    if allowed is None:
        return []
    problems = []
    for k, line in enumerate(lines):
        m = INCLUDE.match(line)
        if not m or m.group(1) not in LAYERS or m.group(1) == folder:  # <fmt/...>, <sys/...>, "sched/version.hpp"
            continue
        if m.group(1) not in allowed and f"{m.group(1)}/{m.group(2)}" not in allowed:
            problems.append(f"{rel}:{k + 1}: {folder}/ includes {m.group(1)}/{m.group(2)}, above it or beside it (docs/design.md)")
    return problems


def check_file(root, folder, path, long_found):
    rel = os.path.relpath(path, root)
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    lines = text.split("\n")
    problems = []
    if len(lines) > MAX_FILE:
        problems.append(f"{rel}: {len(lines)} lines (at most {MAX_FILE})")
    if path.endswith(".cpp"):
        for name, first, n in classes(lines):
            if n > MAX_CLASS:
                problems.append(f"{rel}:{first}: class {name} is {n} lines (at most {MAX_CLASS} in a .cpp)")
    elif not lines[0].startswith("//"):
        problems.append(f"{rel}:1: the header does not start with its contract (a comment)")
    found = functions(text)
    for name, first, n in found:
        if (rel, name) in LONG_FUNCTIONS:
            long_found[(rel, name)] = n
        elif n > MAX_FUNCTION:
            problems.append(f"{rel}:{first}: function {name} is {n} lines (at most {MAX_FUNCTION}; or name it in LONG_FUNCTIONS "
                            "with its reason in docs/design.md)")
    problems += layering(folder, rel, lines)
    if folder != "tests":
        for k, line in enumerate(lines):
            if ISL_PARSE.search(line.split("//")[0]):
                problems.append(f"{rel}:{k + 1}: an isl object built by parsing text (use isl's API)")
    return problems, len(found)


def sources(root):
    """The C++ sources: those git tracks in a checkout (not a campaign's fuzz-out/), else every one."""
    try:
        listed = subprocess.run(["git", "-C", root, "ls-files", "--cached", "--others", "--exclude-standard"],
                                capture_output=True, text=True, check=True).stdout.split("\n")
    except (OSError, subprocess.CalledProcessError):
        listed = [os.path.relpath(os.path.join(d, f), root) for d, _, fs in os.walk(root) for f in fs]
    return sorted(p for p in listed if p.endswith((".cpp", ".hpp", ".h")) and "/" in p and not p.startswith(("build/", ".")))


def main(root):
    problems, unplaced, long_found, measured = self_test(), set(), {}, 0
    for rel in sources(root):
        folder = rel.split("/")[0]
        if folder not in LAYERS:
            unplaced.add(folder)
            continue
        p, n = check_file(root, folder, os.path.join(root, rel), long_found)
        problems += p
        measured += n
    problems += [f"{f}/: C++ sources in a folder without a place in LAYERS (scripts/check_structure.py)" for f in sorted(unplaced)]
    # the checker itself: it must have looked at the code it is for
    problems += [f"{f}/: in LAYERS but not found under {root}" for f in LAYERS if not os.path.isdir(os.path.join(root, f))]
    if measured < 1000:
        problems.append(f"only {measured} functions found: the function parser or ROOT is wrong")
    for key in LONG_FUNCTIONS:
        if key not in long_found:
            problems.append(f"{key[0]}: {key[1]} is named in LONG_FUNCTIONS but not found")
        elif long_found[key] <= MAX_FUNCTION:
            problems.append(f"{key[0]}: {key[1]} is {long_found[key]} lines now: remove it from LONG_FUNCTIONS")
    for p in problems:
        print(p)
    print(f"structure: {len(problems)} problem(s) ({measured} functions measured)")
    return 1 if problems else 0


def self_test():
    """The checker on small cases where the answer is known: it must find what it is for."""
    body = "\n".join(f"  x += {k};" for k in range(160))
    cases = [
        ("a function", f"int f(int x) {{\n{body}\n  return x;\n}}\n", [("f", 163)]),
        ("a member after #if", f"#if 1\nclass A {{\n  void g() {{\n{body}\n  }}\n}};\n#endif\n", [("g", 162)]),
        ("a constructor with braced initialisers", f"A::A() : x_{{1}}, y_{{2}} {{\n{body}\n}}\n", [("A::A", 162)]),
        ("a default argument", f"void h(std::vector<int> v = {{}}) {{\n{body}\n}}\n", [("h", 162)]),
        ("braces in literals and comments", "void k() {\n  s = \"{{\"; // }\n  c = '}';\n}\n", [("k", 4)]),
        ("a namespace", "namespace a::b {\nvoid m() {\n}\n}  // namespace a::b\n", [("m", 2)]),
    ]
    failures = []
    for what, text, want in cases:
        got = [(name, n) for name, _, n in functions(text)]
        if got != want:
            failures.append(f"self-test: {what}: found {got}, expected {want}")
    for line, flagged in [('#include "driver/run.hpp"', True), ("#include <driver/run.hpp>", True), ('#include "../driver/run.hpp"', True),
                          ("#include <fmt/format.h>", False), ('#include "halide/build.hpp"', False), ('#include "sched/version.hpp"', False)]:
        if bool(layering("halide", "halide/x.cpp", [line])) != flagged:
            failures.append(f"self-test: layering of halide/ with {line}: {'not ' if flagged else ''}flagged")
    return failures


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
