#!/usr/bin/env python3
"""The one exit-code table (include/cudnnctl/base/error_table.def) against the man page and the tests.

  exit_codes_observed.py <cudnnctl> <error_table.def> <tests dir> [--planted]

With --planted it runs itself on a copy of <tests dir> with a planted test that breaks each rule, and fails
unless each is found (CTest tests.exit_codes_observed_finds_planted).

Fails when
* the man page's EXIT STATUS (`cudnnctl __generate manpage`) lists other exits than the table's rows;
* a test observes an exit of cudnnctl that is not a row of the table (every `rc == N`, `.code == N`,
  `["exit_code"] == N`, `rc -eq N`, CTest `-DEXPECT=N` and `PASS_REGULAR_EXPRESSION ... exit N` in tests/);
* a test asserts an error id (`["code"] == "io.error"`, `"code": "..."`) that is not in the table, or asserts,
  within a few lines of it, an exit that is not the table's exit for that id.
docs/exit-codes.md is held against the table by docs.exit_codes_up_to_date (the generated section).
Exits that are not cudnnctl's own choice are named below with their reason and allowed.
"""
import os
import re
import subprocess
import sys

if len(sys.argv) == 5 and sys.argv[4] == "--planted":
    import shutil
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, "tests")
        shutil.copytree(sys.argv[3], copy, ignore=shutil.ignore_patterns("*.json", "*.xz", "*.zip", "*.tgz", "*.png"))
        with open(os.path.join(copy, "cli", "planted_test.py"), "w", encoding="utf-8") as f:
            f.write('check(rc == 8 and doc["error"]["code"] == "state.unsafe", "wrong exit for the id")\n'
                    'check(rc == 21, "an exit the table lacks")\n'
                    'CHECK(j["error"]["code"] == "io.planted-id");\n')
        r = subprocess.run([sys.executable, sys.argv[0], sys.argv[1], sys.argv[2], copy], capture_output=True, text=True)
    wanted = ["planted_test.py:1: error id 'state.unsafe' seen with exit 8; the table says 14",
              "planted_test.py:2: observes exit 21", "planted_test.py:3: asserts error id 'io.planted-id'"]
    missed = [w for w in wanted if w not in r.stdout]
    if r.returncode == 0 or missed:
        sys.exit(f"FAIL: the planted test was not caught ({missed}):\n{r.stdout}{r.stderr}")
    print("ok: each planted observation was found")
    sys.exit(0)
if len(sys.argv) != 4:
    sys.exit(__doc__)
CMD, TABLE, TESTS = sys.argv[1:]

problems = []


def read_table(path):
    text = open(path, encoding="utf-8").read()
    exits = {int(n): name for name, n in re.findall(r"^CUDNNCTL_EXIT\((\w+), (\d+),", text, re.M)}
    by_name = {name: n for n, name in exits.items()}
    ids = {}
    for code, ident, exit_name in re.findall(r'^CUDNNCTL_ERROR\((\w+), "([^"]+)", (\w+),', text, re.M):
        if exit_name not in by_name:
            problems.append(f"{path}: error {ident} leads to '{exit_name}', which is no exit row")
        ids[ident] = by_name.get(exit_name)
    return exits, ids


EXITS, IDS = read_table(TABLE)
if len(EXITS) < 10 or len(IDS) < 30:
    sys.exit(f"FAIL: read only {len(EXITS)} exits and {len(IDS)} errors from {TABLE}")

# ---- the man page ----------------------------------------------------------------------------------
man = subprocess.run([CMD, "__generate", "manpage"], capture_output=True, text=True, check=True).stdout
section = man.split(".SH EXIT STATUS\n", 1)[1].split("\n.SH ", 1)[0] if ".SH EXIT STATUS\n" in man else ""
man_exits = {int(n) for n in re.findall(r"^\.B (\d+)$", section, re.M)}
if man_exits != set(EXITS):
    problems.append(f"man page EXIT STATUS lists {sorted(man_exits)}, the table {sorted(EXITS)}")
for ident in IDS:
    if ident.replace("-", "\\-") not in section:
        problems.append(f"man page EXIT STATUS does not name the error id {ident}")

# ---- what the tests observe ------------------------------------------------------------------------
# Folders whose numbers are not cudnnctl's exits: the architecture tools' own exits and
# the trace tests (trace passes the traced command's exit through, any number).
SKIP_DIRS = {"arch", "trace", "fuzz"}
SKIP_FILES = {"windows/trace_test.cpp", "windows_exe/trace_scenario.py", "exit_codes_observed.py"}
# (file, exit): an exit a test sees that cudnnctl did not choose
NOT_CUDNNCTL = {
    ("cli/terminal_progress_test.py", 77): "a helper script's 'skipped' status",
    ("e2e/install_realistic.sh", 77): "a helper script's 'skipped' status",
}
KILLED = range(129, 160)  # 128 + N: the test killed cudnnctl with signal N (130, SIGINT, is cudnnctl's own row)

EXIT_PATTERNS = [
    re.compile(r"\b(?:rc|code|returncode|exit_code)\b[\"'\]\)]*\s*(?:==|-eq)\s*(\d+)\b"),
    re.compile(r"-DEXPECT=(\d+)\b"),
    re.compile(r"PASS_REGULAR_EXPRESSION\s+\".*\bexit (\d+)\b"),
    re.compile(r"^\s*expect (\d+) "),  # tests/bundle's shell helper
    re.compile(r"\[ \$0 -eq (\d+) \]"),  # bash -c '[ $0 -eq 8 ] ...' $rc
]
# an error's id: `["error"]["code"] == "io.error"` (or "id"), `error.code == 'x'`, `"error": {"code": "x"`; a doctor
# check's or a signature's "id" is not an error id, so the line must name the error
ID_PATTERNS = [
    re.compile(r"""error\W{1,6}(?:code|id)["']?\s*\]?\s*(?:==|!=|:)\s*["']([a-z][a-z0-9.-]*)["']"""),
    re.compile(r"""\.get\(["'](?:code|id)["']\)\s*(?:==|!=)\s*["']([a-z][a-z0-9.-]*)["']"""),
    re.compile(r"^\s*expect \d+ ([a-z][a-z0-9.-]*) "),  # tests/bundle's shell helper: expect EXIT ID ARGS...
]
# a table id written anywhere in a test (a grep of the output, a message): observed, and held against the exits near it
KNOWN_ID = re.compile(r"(?<![\w.-])(" + "|".join(re.escape(i) for i in sorted(IDS, key=len, reverse=True) if "." in i) + r")(?![\w-])")
WINDOW = 4  # lines either side of an id assertion in which an exit assertion is the same run's


def scan(rel, lines):
    exits_at = []
    for n, line in enumerate(lines, 1):
        for pattern in EXIT_PATTERNS:
            for m in pattern.finditer(line):
                value = int(m.group(1))
                exits_at.append((n, value))
                if value in EXITS or (rel, value) in NOT_CUDNNCTL or value in KILLED:
                    continue
                problems.append(f"tests/{rel}:{n}: observes exit {value}, which is not in the exit-code table")
    for n, line in enumerate(lines, 1):
        asserted = {m.group(1) for pattern in ID_PATTERNS for m in pattern.finditer(line)}
        for ident in sorted(asserted | {m.group(1) for m in KNOWN_ID.finditer(line)}):
            if ident not in IDS:
                problems.append(f"tests/{rel}:{n}: asserts error id '{ident}', which is not in the exit-code table")
                continue
            near = sorted((abs(k - n), value) for k, value in exits_at if abs(k - n) <= WINDOW and value != 0)
            if near and near[0][1] != IDS[ident]:
                problems.append(f"tests/{rel}:{n}: error id '{ident}' seen with exit {near[0][1]}; the table says {IDS[ident]}")
            observed_ids.add(ident)


observed_ids = set()
scanned = 0
for root, dirs, files in os.walk(TESTS):
    rel_root = os.path.relpath(root, TESTS)
    dirs[:] = sorted(d for d in dirs if not (rel_root == "." and d in SKIP_DIRS))
    for name in sorted(files):
        rel = os.path.normpath(os.path.join(rel_root, name)).replace(os.sep, "/")
        if rel in SKIP_FILES or not name.endswith((".cpp", ".hpp", ".py", ".sh", ".cmake", "CMakeLists.txt")):
            continue
        with open(os.path.join(root, name), encoding="utf-8", errors="replace") as f:
            scan(rel, f.read().splitlines())
        scanned += 1

if scanned < 20:
    problems.append(f"scanned only {scanned} test files under {TESTS}")
for p in problems:
    print("FAIL:", p)
if problems:
    sys.exit(1)
print(f"ok: {len(EXITS)} exits and {len(IDS)} error ids; {scanned} test files scanned, {len(observed_ids)} ids observed")
