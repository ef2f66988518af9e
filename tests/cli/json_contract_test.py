#!/usr/bin/env python3
"""The JSON contract of every command (issue 45, docs/json.md), checked on the built binary:

Every command and subcommand, listed from the binary's own --help (a new command without a case here fails
the test), runs on a success path and on a failure path, each with --json before the command's words and
after them. The success paths use local fixtures only: a 127.0.0.1 HTTP mirror (catalog update, fetch), a
real cuDNN library with GPU code (gpu-code; CUDNNCTL_TEST_CUDA_LIB, default /usr/local/cuda/lib64, read only),
stand-in libraries built with gcc (install, bundle swap/unbundle/restore, uninstall, in order). bench's success
needs a GPU and is not run; what is not run is printed as "not run: ..." with the reason.
Each run must print exactly one JSON document on stdout that
- validates against its schema file, docs/schemas/<command>.schema.json (the file the document's `schema`
  names: "cudnnctl.bundle.list/1" -> bundle.list.schema.json, whose `schema` const is that exact version),
- carries the process's exit code in `exit_code`, `ok` true exactly when it is 0, and `error` exactly when
  the case is one where cudnnctl itself fails.

CI's Python may lack the `jsonschema` package: the subset of JSON Schema the files use (type, required,
properties, additionalProperties, items, enum, const, allOf, anyOf, not, if/then, $ref to a file or #/$defs)
is validated here, and the validator is first shown to reject planted bad documents, so it cannot pass
vacuously.

    json_contract_test.py CUDNNCTL SCHEMA_DIR
"""
import hashlib
import http.server
import io
import json
import os
import re
import shutil
import socketserver
import subprocess
import sys
import tarfile
import tempfile
import threading

CTL, SCHEMAS = sys.argv[1], sys.argv[2]
problems = []


# ---- the validator (the subset of JSON Schema draft 2020-12 the files use) ----------------------------------

TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}
KNOWN = {"$schema", "$id", "$defs", "$comment", "title", "description", "type", "required", "properties",
         "additionalProperties", "items", "enum", "const", "allOf", "anyOf", "not", "if", "then", "$ref", "minimum"}
_files = {}


def load_schema(name):
    if name not in _files:
        with open(os.path.join(SCHEMAS, name)) as f:
            _files[name] = json.load(f)
    return _files[name]


def resolve(ref, here):
    """A $ref: 'file.schema.json', 'file.schema.json#/$defs/x' or '#/$defs/x' (in the file `here`)."""
    file, _, pointer = ref.partition("#")
    file = file or here
    node = load_schema(file)
    for part in [p for p in pointer.split("/") if p]:
        node = node[part]
    return node, file


def errors(value, schema, where="$", file=""):
    """Every way `value` breaks `schema`, as 'path: what' strings (empty: it validates)."""
    if schema is True:
        return []
    if schema is False:
        return [f"{where}: not allowed here"]
    unknown = set(schema) - KNOWN
    if unknown:
        return [f"{where}: the schema uses {sorted(unknown)}, which this validator does not know"]
    out = []
    if "$ref" in schema:
        target, tfile = resolve(schema["$ref"], file)
        out += errors(value, target, where, tfile)
    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(TYPES[t](value) for t in types):
            return out + [f"{where}: {json.dumps(value)[:80]} is not {'/'.join(types)}"]
    if "const" in schema and value != schema["const"]:
        out.append(f"{where}: {json.dumps(value)[:80]} is not {json.dumps(schema['const'])}")
    if "enum" in schema and value not in schema["enum"]:
        out.append(f"{where}: {json.dumps(value)[:80]} is none of {schema['enum']}")
    if "minimum" in schema and TYPES["number"](value) and value < schema["minimum"]:
        out.append(f"{where}: {value} is below {schema['minimum']}")
    if isinstance(value, dict):
        for key in schema.get("required", []):
            if key not in value:
                out.append(f"{where}: '{key}' is missing")
        props = schema.get("properties", {})
        for key, v in value.items():
            if key in props:
                out += errors(v, props[key], f"{where}.{key}", file)
            elif "additionalProperties" in schema:
                out += errors(v, schema["additionalProperties"], f"{where}.{key}", file)
    if isinstance(value, list) and "items" in schema:
        for i, v in enumerate(value):
            out += errors(v, schema["items"], f"{where}[{i}]", file)
    for sub in schema.get("allOf", []):
        out += errors(value, sub, where, file)
    if "anyOf" in schema and not any(not errors(value, s, where, file) for s in schema["anyOf"]):
        out.append(f"{where}: matches none of anyOf")
    if "not" in schema and not errors(value, schema["not"], where, file):
        out.append(f"{where}: matches what 'not' forbids")
    if "if" in schema and not errors(value, schema["if"], where, file):
        out += errors(value, schema.get("then", True), where, file)
    return out


def validate(doc):
    """The document's schema file and what is wrong with the document against it."""
    m = re.fullmatch(r"cudnnctl(?:\.([a-z.-]+))?/(\d+)", str(doc.get("schema", "")) if isinstance(doc, dict) else "")
    if not m:
        return None, [f"$.schema: {json.dumps(doc.get('schema') if isinstance(doc, dict) else doc)} names no schema"]
    name = (m.group(1) or "envelope") + ".schema.json"
    if not os.path.isfile(os.path.join(SCHEMAS, name)):
        return name, [f"no schema file {name} in {SCHEMAS}"]
    return name, errors(doc, load_schema(name), "$", name)


def check_validator():
    """The validator rejects planted bad documents (else every check below would pass vacuously)."""
    good = {"schema": "cudnnctl.inspect/1", "ok": False, "exit_code": 3, "warnings": [],
            "error": {"id": "name.not-cudnn", "message": "m", "hint": "h", "path": None, "code": "name.not-cudnn", "exit_code": 3}}
    bad = {
        "a field of the wrong type": dict(good, exit_code="3"),
        "a required field missing": {k: v for k, v in good.items() if k != "warnings"},
        "ok true with an exit code": dict(good, ok=True, error=None),
        "an error without its id": dict(good, error={"message": "m", "hint": "h"}),
        "another version of the schema": dict(good, schema="cudnnctl.inspect/7"),
        "a success without the command's body": {"schema": "cudnnctl.inspect/1", "ok": True, "exit_code": 0, "warnings": []},
        "an unknown schema": dict(good, schema="cudnnctl.no-such-command/1"),
    }
    name, errs = validate(good)
    if errs:
        problems.append(f"validator: the planted good document fails against {name}: {errs}")
    for what, doc in bad.items():
        if not validate(doc)[1]:
            problems.append(f"validator: a document with {what} passes")


# ---- the fixtures ---------------------------------------------------------------------------------------------

def tar_xz(path, top, files):
    with tarfile.open(path, "w:xz") as t:
        for name, data in files.items():
            info = tarfile.TarInfo(f"{top}/{name}")
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def toolkit(base, version="12.4.1"):
    major, minor = version.split(".")[:2]
    root = os.path.join(base, f"cuda-{major}.{minor}")
    os.makedirs(os.path.join(root, "targets", "x86_64-linux", "lib"))
    os.makedirs(os.path.join(root, "include"))
    os.makedirs(os.path.join(root, "bin"))
    os.symlink("targets/x86_64-linux/lib", os.path.join(root, "lib64"))
    with open(os.path.join(root, "version.json"), "w") as f:
        json.dump({"cuda": {"name": "CUDA SDK", "version": version}}, f)
    open(os.path.join(root, "include", "cuda.h"), "w").write(f"#define CUDA_VERSION {int(major) * 1000 + int(minor) * 10}\n")
    return root


def fixtures(work):
    name = "cudnn-linux-x86_64-9.1.0.70_cuda12-archive"
    archive = os.path.join(work, name + ".tar.xz")
    tar_xz(archive, name, {"include/cudnn.h": b"#define CUDNN_MAJOR 9\n", "include/cudnn_version.h": b"#define CUDNN_MAJOR 9\n",
                           "lib/libcudnn.so.9.1.0": b"not really a library\n", "LICENSE": b"license\n"})
    log = os.path.join(work, "train.log")
    open(log, "w").write("Could not load library libcudnn_cnn_infer.so.8. Error: libcudnn_cnn_infer.so.8: cannot open shared object file\n")
    empty = os.path.join(work, "empty")
    os.makedirs(empty)
    doctordoc = os.path.join(work, "node1.json")  # what doctor --json printed on a node, for report
    with open(doctordoc, "w") as f:
        json.dump({"schema": "cudnnctl.doctor/2", "ok": True, "exit_code": 0, "warnings": [], "host": "node1",
                   "cudnn": {"version": "9.1.0", "major": 9, "cuda_major": "12", "owner": "cudnnctl"}, "toolkit": {"root": "/usr/local/cuda"},
                   "checks": [{"id": "toolkit.found", "layer": 1, "status": "pass", "finding": "CUDA 12.4", "cause": None, "fix": None}]}, f)
    # gpu-code's success path: a small real library with GPU code (cuDNN 9's convolution library, ~4 MB)
    gpulib = os.path.join(os.environ.get("CUDNNCTL_TEST_CUDA_LIB", "/usr/local/cuda/lib64"), "libcudnn_cnn.so.9")
    unavailable = {} if os.path.isfile(gpulib) else {"gpulib": f"no {gpulib} (a real cuDNN 9 library with GPU code)"}
    return {"archive": archive, "sha": sha256(archive), "bad": "0" * 64, "tk": toolkit(work), "log": log, "empty": empty, "doctordoc": doctordoc,
            "gpulib": gpulib, "unavailable": unavailable,
            "missing": os.path.join(work, "no-such-file"), "work": work, "cache": os.path.join(work, "cache"),
            "nofolder": os.path.join(work, "no-such-folder", "report.json")}


# ---- the cases: (arguments, cudnnctl fails) per command; a success path and a failure path each ---------------

OK = "ok"
CASES = {
    "inspect": [(["{archive}"], False), (["not-an-archive.zip"], True)],
    "verify": [(["{archive}", "--sha256", "{sha}"], False), (["{archive}", "--sha256", "{bad}"], True)],
    "extract": [(["{archive}", "--sha256", "{sha}", "--to", "{out}"], False), (["{archive}", "--sha256", "{bad}", "--to", "{out}"], True)],
    "fetch": [(["9.1.0", "--offline", "--dry-run", "--cuda-path", "{tk}"], False),
              (["9.30", "--platform", "linux-x86_64", "--cuda", "13", "--mirror", "{mirror}", "--cache", "{out}"], OK),
              (["9.1.0", "--offline", "--cache", "{cache}", "--cuda-path", "{tk}"], True)],
    "catalog list": [([], False), (["--platform", "{missing}"], False)],
    "catalog update": [(["--mirror", "{mirror}", "--timeout", "5"], OK),
                       (["--mirror", "http://127.0.0.1:{port}/no-such-listing", "--timeout", "5"], True)],
    "install": [(["{archive}", "--sha256", "{sha}", "--cuda-path", "{tk}", "--dry-run", "--no-path"], False),
                (["{archive}", "--sha256", "{bad}", "--cuda-path", "{tk}", "--no-path"], True)],
    "uninstall": [(["--cuda-path", "{tk}"], None), (["--cuda-path", "{empty}"], True)],
    "path": [(["--cuda-path", "{tk}"], False), (["--cuda-path", "{tk}", "--shell", "bash"], True)],
    "doctor": [(["--no-gpu", "--offline", "--cuda-path", "{tk}"], False), (["--list-checks"], False), (["--layer", "9"], True),
               (["--cuda-path", "{tk}", "--layer", "2", "--fix", "--dry-run"], False)],
    "report": [(["{doctordoc}"], False), (["{empty}"], True)],
    "gpu-code": [(["{archive}"], None), (["{gpulib}"], OK), (["{missing}"], True)],
    "explain": [(["{log}"], False), (["{missing}"], True)],
    "trace": [(["--", "true"], None), (["--output", "{nofolder}", "--", "true"], True)],
    "bundle list": [(["--site", "{empty}"], False), (["--site", "{missing}"], None)],
    "bundle swap": [(["{empty}", "{archive}", "--sha256", "{bad}"], True)],
    "bundle unbundle": [(["{empty}", "--cuda-path", "{tk}"], True)],
    "bundle restore": [(["{empty}"], True)],
    "bench": [(["--cuda-path", "{empty}"], True)],
}
# None: either way is right here (depends on the machine: a GPU, the load trace, what the archive holds).
# OK: must succeed: exit 0, ok true, no error. The success paths that change state (install, bundle swap, unbundle,
# restore, uninstall) run in order in stateful_cases(); bench's success needs a GPU and is reported as not run.


def commands():
    """Every command and subcommand, e.g. 'bundle swap', from the binary's --help."""
    def names(args):
        text = subprocess.run([CTL, *args, "--help"], capture_output=True, text=True).stdout
        m = re.search(r"^Subcommands:\n((?:  .*\n)*)", text, re.M)
        return [re.match(r"\s+(\S+)", line).group(1) for line in m.group(1).splitlines()] if m else []
    out = []
    for name in names([]):
        subs = names([name])
        out += [f"{name} {s}" for s in subs] if subs else [name]
    return out


def expected_schema(command, args):
    if "--list-checks" in args:
        return "doctor-checks"
    return "doctor-fix" if "--fix" in args else command.replace(" ", ".")


def run_case(command, raw_args, fails, values, env, dump, places=("before", "after")):
    for where in places:
        values["out"] = os.path.join(values["work"], f"out-{len(os.listdir(values['work']))}")  # extract --to: a new folder each run
        args = [a.format(**values) for a in raw_args]
        cut = args.index("--") if "--" in args else len(args)
        argv = ["--json", *command.split(), *args] if where == "before" else [*command.split(), *args[:cut], "--json", *args[cut:]]
        run_one(command, args, argv, fails, env, dump)


# The success paths that change state, in order, once with --json before the words and once after: install a
# stand-in cuDNN 9.19 archive into a CUDA 13 toolkit; in a pip-style site-packages holding that release's
# stand-in libraries (tests/bundle/common.sh builds both), swap in a 9.20 archive, restore, unbundle (the
# toolkit's copy), restore; uninstall from the toolkit.
STATEFUL = [
    ("install", ["{a919}", "--sha256", "{h919}", "--cuda-path", "{tk13}", "--no-path"]),
    ("bundle swap", ["{lib}", "{a920}", "--sha256", "{h920}"]),
    ("bundle restore", ["{lib}"]),
    ("bundle unbundle", ["{lib}", "--cuda-path", "{tk13}"]),
    ("bundle restore", ["{lib}"]),
    ("uninstall", ["--cuda-path", "{tk13}"]),
]
BUNDLE_SETUP = """
set -eu
. "$here/common.sh"
mkdir -p "$lib" "$di"
a919=cudnn-linux-x86_64-9.19.0.56_cuda13-archive
fake_archive $a919.tar.xz 91900 >/dev/null
# install reads the version from the headers: they say 9.19.0, as the archive's name does
printf '#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 19\n#define CUDNN_PATCHLEVEL 0\n' >"$tmp/arch/$a919/include/cudnn_version.h"
tar -C "$tmp/arch" -cJf "$tmp/arch/$a919.tar.xz" $a919
h919=$(sha256sum "$tmp/arch/$a919.tar.xz" | cut -d' ' -f1)
for f in "$tmp/arch/$a919"/lib/*.so.9; do [[ $f == *tensor_ir* ]] || cp -L "$f" "$lib/"; done
printf 'Metadata-Version: 2.1\r\nName: nvidia-cudnn-cu13\r\nVersion: 9.19.0.56\r\n\r\n' >"$di/METADATA"
record "$site" "$di"
h920=$(fake_archive cudnn-linux-x86_64-9.20.0.1_cuda13-archive.tar.xz 92000)
echo "$h919 $h920"
"""


def stateful_cases(values, env, dump, not_run):
    if not shutil.which("gcc") or not shutil.which("bash"):
        not_run.append("install, bundle swap/unbundle/restore and uninstall on success paths: no gcc to build stand-in libraries")
        return 0
    tmp = os.path.join(values["work"], "bundle")
    site = os.path.join(tmp, "env", "lib", "python3.12", "site-packages")
    v = dict(values, lib=os.path.join(site, "nvidia", "cudnn", "lib"), tk13=toolkit(tmp, "13.0.2"),
             a919=os.path.join(tmp, "arch", "cudnn-linux-x86_64-9.19.0.56_cuda13-archive.tar.xz"),
             a920=os.path.join(tmp, "arch", "cudnn-linux-x86_64-9.20.0.1_cuda13-archive.tar.xz"))
    setup_env = dict(env, tmp=tmp, site=site, di=os.path.join(site, "nvidia_cudnn_cu13-9.19.0.56.dist-info"), lib=v["lib"],
                     here=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bundle"))
    r = subprocess.run(["bash", "-c", BUNDLE_SETUP], capture_output=True, text=True, env=setup_env)
    if r.returncode != 0:
        problems.append(f"the stand-in bundle and archives could not be made: {r.stdout}{r.stderr}")
        return 0
    v["h919"], v["h920"] = r.stdout.split()
    clean = {k: x for k, x in env.items() if k not in ("LD_LIBRARY_PATH", "VIRTUAL_ENV", "CONDA_PREFIX")}
    runs = 0
    for where in ("before", "after"):
        for command, args in STATEFUL:
            run_case(command, args, OK, v, clean, dump, places=(where,))
            runs += 1
    return runs


def run_one(command, args, argv, fails, env, dump):
    label = f"cudnnctl {' '.join(argv)}"
    r = subprocess.run([CTL, *argv], capture_output=True, text=True, stdin=subprocess.DEVNULL, env=env, timeout=120)
    try:
        doc = json.loads(r.stdout)
    except ValueError:
        problems.append(f"{label}: stdout is not one JSON document (exit {r.returncode}):\n{r.stdout[:400]}{r.stderr[:400]}")
        return
    if dump:
        with open(os.path.join(dump, f"{command.replace(' ', '.')}-{len(os.listdir(dump))}.json"), "w") as f:
            json.dump(doc, f, indent=1)
    if not isinstance(doc, dict):
        problems.append(f"{label}: the document is not an object: {r.stdout[:200]}")
        return
    name, errs = validate(doc)
    if errs:
        problems.append(f"{label}: does not validate against {name}:\n  " + "\n  ".join(errs[:12]))
    if not str(doc.get("schema", "")).startswith(f"cudnnctl.{expected_schema(command, args)}/"):
        problems.append(f"{label}: schema {doc.get('schema')!r} is not {command}'s")
    if doc.get("exit_code") != r.returncode:
        problems.append(f"{label}: exit_code {doc.get('exit_code')} in the document, {r.returncode} from the process")
    if doc.get("ok") is not (r.returncode == 0):
        problems.append(f"{label}: ok {doc.get('ok')} with exit {r.returncode}")
    if fails == OK and (r.returncode != 0 or doc.get("ok") is not True or doc.get("exit_code") != 0 or "error" in doc):
        problems.append(f"{label}: a success case did not succeed (exit {r.returncode}): {r.stdout[:600]}{r.stderr[-600:]}")
    elif fails not in (None, OK) and ("error" in doc) != fails:
        problems.append(f"{label}: {'no error' if fails else 'an error'} where the case expects {'one' if fails else 'none'}: "
                        f"{json.dumps(doc.get('error'))}")


# the 127.0.0.1 mirror: below /good/, NVIDIA's redist paths with a listing, the manifest of a release newer than
# the built-in catalog and its small archive (the hash the manifest gives); everything else is 404
NEW = "9.30.0.7"
NEW_TOP = f"cudnn-linux-x86_64-{NEW}_cuda13-archive"
REDIST = "compute/cudnn/redist/"


def mirror_files():
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:xz") as t:
        for name, data in {"include/cudnn_version.h": b"#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 30\n#define CUDNN_PATCHLEVEL 0\n",
                           "lib/libcudnn.so.9.30.0": os.urandom(4096), "LICENSE": b"license\n"}.items():
            info = tarfile.TarInfo(f"{NEW_TOP}/{name}")
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
    archive = buf.getvalue()
    rel = f"cudnn/linux-x86_64/{NEW_TOP}.tar.xz"
    manifest = {"release_date": "2026-12-01", "release_label": "9.30.0", "release_product": "cudnn",
                "cudnn": {"name": "NVIDIA CUDA Deep Neural Network library", "license": "cudnn", "version": NEW,
                          "cuda_variant": ["13"], "linux-x86_64": {"cuda13": {
                              "relative_path": rel, "sha256": hashlib.sha256(archive).hexdigest(), "size": str(len(archive))}}}}
    return {REDIST: b'<a href="redistrib_9.30.0.json">redistrib_9.30.0.json</a>',
            REDIST + "redistrib_9.30.0.json": json.dumps(manifest).encode(), REDIST + rel: archive}


class Mirror(http.server.BaseHTTPRequestHandler):
    files = {}

    def do_GET(self):
        case, _, rel = self.path.lstrip("/").partition("/")
        data = self.files.get(rel) if case == "good" else None
        if data is None:
            return self.send_error(404)
        self.send_response(200)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *a):
        pass


def main():
    check_validator()
    dump = os.environ.get("CUDNNCTL_JSON_DUMP")
    missing = [c for c in commands() if c not in CASES]
    if missing:
        problems.append(f"commands without a case here (add one to CASES): {missing}")
    stale = [c for c in CASES if c not in commands()]
    if stale:
        problems.append(f"cases of commands the binary does not have: {stale}")
    Mirror.files = mirror_files()
    server = socketserver.TCPServer(("127.0.0.1", 0), Mirror)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    with tempfile.TemporaryDirectory() as work:
        values = fixtures(work)
        values["port"] = server.server_address[1]
        values["mirror"] = f"http://127.0.0.1:{values['port']}/good"
        home = os.path.join(work, "home")
        os.makedirs(home)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("CUDA", "XDG_", "GITHUB_"))}
        env.update(HOME=home, XDG_CACHE_HOME=os.path.join(home, "cache"), XDG_STATE_HOME=os.path.join(home, "state"))
        runs = 0
        not_run = ["bench on a success path: it times cuDNN on a GPU, which this test does not require (its failure path is checked)"]
        for command, cases in CASES.items():
            for args, fails in cases:
                absent = [k for k, why in values["unavailable"].items() if any("{" + k + "}" in a for a in args)]
                if absent:
                    not_run.append(f"{command} {' '.join(args)}: {values['unavailable'][absent[0]]}")
                    continue
                run_case(command, args, fails, values, env, dump)
                runs += 2
        runs += stateful_cases(values, env, dump, not_run)
        # a usage error before any command still prints the envelope (schema cudnnctl/1)
        r = subprocess.run([CTL, "--json", "no-such-command"], capture_output=True, text=True, env=env)
        name, errs = validate(json.loads(r.stdout or "null") or {})
        if r.returncode != 2 or errs or name != "envelope.schema.json":
            problems.append(f"cudnnctl --json no-such-command: exit {r.returncode}, {name}: {errs}\n{r.stdout}")
    server.shutdown()
    for line in not_run:
        print("not run:", line)
    if problems:
        print(f"{len(problems)} problem(s):")
        for p in problems:
            print(" -", p)
        sys.exit(1)
    print(f"{runs + 1} runs of {len(CASES)} commands: one JSON document each, valid against docs/schemas, exit codes agree")


if __name__ == "__main__":
    main()
