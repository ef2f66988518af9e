#!/usr/bin/env python3
"""Shared options behave alike in every command (issue 45), checked on the built binary, with the commands
and their options read from its own --help (so a new command or option is covered without editing this):

1. A --cuda-path that is not a CUDA toolkit (a fresh empty folder, a missing one, a file) gets one answer
   from every command that takes the option: exit 2, error id `input.invalid` (docs/exit-codes.md), in JSON
   (`--json`) and in text. A command that takes --cuda-path and has no arguments listed here fails the test.
2. Every path argument, positional or option, of every command and subcommand refuses an empty value as a
   usage error: exit 2, naming the empty value, before anything runs.

    shared_options_test.py CUDNNCTL
"""
import json
import os
import re
import subprocess
import sys
import tempfile

CTL = sys.argv[1]
# the names whose value is a file or folder (src/app/path_options.cpp lists the same; its Catch test keeps
# every option of every command classified)
PATH_NAMES = {"--cuda-path", "--to", "--cache", "--catalog", "--log-file", "--html", "--output", "--sha256-file", "--system32",
              "--path-file", "--consumer", "--site", "--driver-library", "archive", "input", "dir", "paths"}
# what each command taking --cuda-path needs besides it, to reach the toolkit (the archive: made below)
CUDA_PATH_ARGS = {
    "install": ["{archive}", "--sha256", "0" * 64],
    "fetch": ["9.19", "--offline", "--dry-run"],
    "uninstall": [],
    "path": [],
    "doctor": [],
    "bench": [],
    "explain": ["{log}"],
    "bundle unbundle": ["{bundle}"],
}
problems = []


def run(args, env=None):
    r = subprocess.run([CTL, *args], capture_output=True, text=True, stdin=subprocess.DEVNULL, env=env, timeout=120)
    return r.returncode, r.stdout, r.stderr


def section(text, title):
    """The entries of a --help section: (name, rest of the line) of each."""
    m = re.search(r"^" + title + r":\n((?:  .*\n|\s*\n)*?)(?:\n\S|\Z)", text + "\n\n", re.M)
    if not m:
        return []
    out = []
    for line in m.group(1).splitlines():
        e = re.match(r"^  (?:-\w,)?(\S+)(.*)$", line)
        if e:
            out.append((e.group(1), e.group(2)))
    return out


def commands():
    """Every command and subcommand path, e.g. 'bundle swap', from --help."""
    out = []
    for name, _ in section(run(["--help"])[1], "Subcommands"):
        subs = section(run([name, "--help"])[1], "Subcommands")
        out += [f"{name} {s}" for s, _ in subs] if subs else [name]
    return out


def arguments(command):
    """(positionals, options) of a command: (name, takes a value, required) each."""
    text = run([*command.split(), "--help"])[1]
    positionals = [(n, True, "REQUIRED" in rest) for n, rest in section(text, "Positionals")]
    options = []
    for title in ("Options", "Global options"):
        for n, rest in section(text, title):
            if n.startswith("--"):
                options.append((n, bool(re.match(r"\s+[A-Z]+\b", rest)), "REQUIRED" in rest))
    return positionals, options


def check_cuda_path(work):
    archive = os.path.join(work, "cudnn-linux-x86_64-9.19.0.56_cuda12-archive.tar.xz")
    open(archive, "wb").close()
    log = os.path.join(work, "app.log")
    open(log, "w").write("Could not load library libcudnn_cnn_infer.so.8\n")
    bundle = os.path.join(work, "site", "torch", "lib")
    os.makedirs(bundle)
    afile = os.path.join(work, "afile")
    open(afile, "w").write("not a toolkit\n")
    env = dict(os.environ, CUDNNCTL_BUNDLE_STATE=os.path.join(work, "state"))
    takers = [c for c in commands() if "--cuda-path" in [n for n, _, _ in arguments(c)[1]]]
    if sorted(takers) != sorted(CUDA_PATH_ARGS):
        problems.append(f"the commands taking --cuda-path are {sorted(takers)}; this test covers {sorted(CUDA_PATH_ARGS)}")
    for command in takers:
        extra = [a.format(archive=archive, log=log, bundle=bundle) for a in CUDA_PATH_ARGS.get(command, [])]
        for bad in (tempfile.mkdtemp(dir=work), os.path.join(work, "missing"), afile):
            args = [*command.split(), *extra, "--cuda-path", bad]
            code, out, err = run([*args, "--json"], env)
            try:
                error = json.loads(out)["error"]
            except (ValueError, KeyError, TypeError):
                error = {}
            if code != 2 or error.get("code") != "input.invalid" or error.get("exit_code") != 2:
                problems.append(f"{' '.join(args)} --json: exit {code}, error {error.get('code')}; want 2, input.invalid\n{out}{err}")
            code, out, err = run(args, env)
            if code != 2 or "is not a CUDA toolkit" not in err:
                problems.append(f"{' '.join(args)}: exit {code}; want 2 and 'is not a CUDA toolkit'\n{out}{err}")
    return len(takers)


def check_empty_paths():
    checked = 0
    for command in commands():
        positionals, options = arguments(command)
        filler = lambda name: "true" if name == "command" else "x"  # noqa: E731  (trace's command)
        tested = [n for n, _, _ in positionals if n in PATH_NAMES] + [n for n, v, _ in options if v and n in PATH_NAMES]
        for name in tested:
            args = command.split()
            for opt, takes, required in options:
                if required and opt != name:
                    args += [opt, "x"]
            if name.startswith("--"):
                args += [name, ""]
            args += ["--"] if command == "trace" else []
            args += ["" if p == name else filler(p) for p, _, required in positionals if required or p == name]
            code, out, err = run(args)
            if code != 2 or "empty value" not in err:
                problems.append(f"{args}: exit {code}; want 2 and the empty value named\n{out}{err}")
            checked += 1
    return checked


with tempfile.TemporaryDirectory() as work:
    takers = check_cuda_path(work)
    empties = check_empty_paths()
if takers < 7 or empties < 30:
    problems.append(f"only {takers} commands with --cuda-path and {empties} path arguments found: is --help read right?")
if problems:
    print("FAIL:\n" + "\n".join(problems))
    sys.exit(1)
print(f"--cuda-path that is not a toolkit: exit 2, input.invalid from each of {takers} commands; "
      f"an empty value refused (exit 2) for each of {empties} path arguments")
