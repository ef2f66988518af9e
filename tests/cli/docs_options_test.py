#!/usr/bin/env python3
"""CTest docs.cli_options_documented: every command and every --option that `cudnnctl --help` and each
command's (and subcommand's) `--help` list is mentioned somewhere under docs/ (the README moved its command
reference to docs/cli.md; this keeps each option documented as commands grow).

    docs_options_test.py CUDNNCTL DOCS_DIR

A command counts as documented when `cudnnctl <command>` appears in a page; an option when `--option`
appears (not as the prefix of a longer option). It fails naming each one missing, and checks itself:
the parse must find the options every command has (--help, --json somewhere, install's --cuda-path).
"""
import os
import re
import subprocess
import sys

CUDNNCTL, DOCS = sys.argv[1], sys.argv[2]


def help_of(path):
    r = subprocess.run([CUDNNCTL, *path, "--help"], capture_output=True, text=True, timeout=60)
    if r.returncode != 0:
        raise SystemExit(f"FAIL: cudnnctl {' '.join(path)} --help exited {r.returncode}: {r.stderr}")
    return r.stdout


def parse(text):
    """(options, subcommands) of one --help page (CLI11's layout)."""
    options, subs, section = set(), [], ""
    for line in text.splitlines():
        if line and not line.startswith(" "):
            section = line.rstrip(":").strip().lower()
            continue
        m = re.match(r"\s+(\S+)", line)
        if not m:
            continue
        if section.endswith("options"):
            options.update(re.findall(r"--[a-z0-9][a-z0-9-]*", line.split("  ")[1] if line.startswith("  ") else line)[:2])
        elif section == "subcommands":
            subs.append(m.group(1))
    return options, subs


def walk(path, found):
    opts, subs = parse(help_of(path))
    found[" ".join(path)] = opts
    for s in subs:
        walk(path + [s], found)


found = {}
walk([], found)
docs = ""
for root, _, files in os.walk(DOCS):
    for f in files:
        if f.endswith(".md"):
            with open(os.path.join(root, f), encoding="utf-8") as fh:
                docs += fh.read() + "\n"

missing = []
for command, opts in sorted(found.items()):
    if command and f"cudnnctl {command}" not in docs:
        missing.append(f"the command 'cudnnctl {command}'")
    for opt in sorted(opts):
        if not re.search(re.escape(opt) + r"(?![a-z0-9-])", docs):
            missing.append(f"{opt} (cudnnctl {command or ''} --help)".replace("  ", " "))

all_opts = set().union(*found.values())
sanity = ["--help" in all_opts, "--json" in all_opts, "--cuda-path" in found.get("install", set()), len(found) >= 10]
if not all(sanity):
    print(f"FAIL: the --help pages were not parsed as expected ({len(found)} commands, options {sorted(all_opts)[:20]})")
    sys.exit(1)
for m in missing:
    print(f"FAIL: not documented under docs/: {m}")
if missing:
    sys.exit(1)
print(f"{len(found) - 1} commands and {len(all_opts)} distinct options, each documented under docs/")
