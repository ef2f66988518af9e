#!/usr/bin/env python3
"""Functions longer than a limit in src/ (C++): a function is a brace opened at file, namespace or class
scope after a head holding '(' that is not a namespace, class, struct, enum, union or an initializer; it
runs from the first line of that head to its closing brace. Comments, string literals and preprocessor lines
are skipped when matching braces. A source file (.cpp, .hpp) longer than a second limit is named too.

    tools/function_lengths.py [--max N] [--max-file-lines M] [ROOT...]
        exit 1 when any function is longer than N lines (default 80) or any .cpp/.hpp file is longer than
        M lines (default 450); ROOT defaults to src/ (CTest passes src/ and include/)
"""
import argparse
import os
import re
import sys

def strip_code(text):
    """The text with comments, string and character literals blanked (newlines kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i)); i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j])); i = j
        elif text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            if not m:
                out.append(c); i += 1; continue
            end = text.find(")" + m.group(1) + '"', i)
            j = n if end < 0 else end + len(m.group(1)) + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j])); i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(" " * (min(j + 1, n) - i)); i = j + 1
        else:
            out.append(c); i += 1
    return "".join(out)


def functions(path):
    """(length in lines, first line, name) of each function body opened in a namespace, class or at file scope."""
    with open(path, encoding="utf-8", errors="replace") as f:
        code = strip_code(f.read())
    code = re.sub(r"^[ \t]*#.*$", lambda m: " " * len(m.group(0)), code, flags=re.M)  # preprocessor lines
    found = []
    stack = []  # kinds of the open braces: "scope" (namespace, class, extern) or "other"
    head_start = 0  # where the text before the next brace begins (after the last ';', '{' or '}')
    line_of = lambda pos: code.count("\n", 0, pos) + 1
    i = 0
    while i < len(code):
        c = code[i]
        if c == "{":
            head = code[head_start:i]
            in_scope = all(k == "scope" for k in stack)
            words = head.strip()
            if in_scope and re.match(r"(?:template\s*<.*>\s*)?(namespace|class|struct|enum|union|extern)\b", words, re.S):
                stack.append("scope")
            elif in_scope and "(" in words and not re.search(r"=\s*$", words) and not words.endswith(("=", ",")) \
                    and not re.match(r"[\w:<>\s,*&]*=\s", words.split("(")[0] + " "):
                # a function body: find its closing brace
                depth, j = 0, i
                while j < len(code):
                    if code[j] == "{": depth += 1
                    elif code[j] == "}":
                        depth -= 1
                        if depth == 0: break
                    j += 1
                first = head_start + (len(head) - len(head.lstrip()))
                name = re.search(r"([A-Za-z_~][\w:~<>]*)\s*\(", words)
                found.append((line_of(j) - line_of(first) + 1, line_of(first), name.group(1) if name else "?"))
                i = j + 1
                head_start = i
                continue
            else:
                stack.append("other")
            head_start = i + 1
        elif c == "}":
            if stack: stack.pop()
            head_start = i + 1
        elif c == ";":
            head_start = i + 1
        i += 1
    return found


def line_count(path):
    """Lines in a file as an editor numbers them (a last line without a newline counts)."""
    with open(path, "rb") as f:
        data = f.read()
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--max", type=int, default=80)
    ap.add_argument("--max-file-lines", type=int, default=450)
    ap.add_argument("roots", nargs="*", default=[os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")])
    a = ap.parse_args()
    long, big = [], []
    for root in a.roots:
        for d, _, files in os.walk(root):
            for fn in files:
                p = os.path.join(d, fn)
                shown = os.path.relpath(p, os.path.join(root, ".."))
                if fn.endswith((".cpp", ".hpp")) and (n := line_count(p)) > a.max_file_lines:
                    big.append((n, shown))
                if fn.endswith((".cpp", ".hpp", ".c")):
                    for length, line, name in functions(p):
                        if length > a.max:
                            long.append((length, shown, line, name))
    for length, p, line, name in sorted(long, reverse=True):
        print(f"{p}:{line}: {name}: {length} lines (limit {a.max})")
    for n, p in sorted(big, reverse=True):
        print(f"{p}: {n} lines (file limit {a.max_file_lines}): split it along a line that makes sense")
    print(f"function_lengths: {len(long)} function(s) over {a.max} lines, {len(big)} file(s) over {a.max_file_lines} lines")
    return 1 if long or big else 0


if __name__ == "__main__":
    sys.exit(main())
