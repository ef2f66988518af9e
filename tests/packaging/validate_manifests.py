#!/usr/bin/env python3
"""CTest packaging.manifests_validate: writes the Scoop and winget manifests for a small release-like zip
with scripts/release_manifests.py and validates them against the published schemas kept in
packaging/schemas (no network), checks the SHA-256 in each is the zip's, and checks that the validation
rejects a manifest with a broken hash (so the test can fail). Prints SKIP: without python3-jsonschema or
python3-yaml (scripts/test.sh installs them)."""
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
try:
    import jsonschema
    import yaml
except ImportError as e:
    print(f"SKIP: {e} (Debian: python3-jsonschema python3-yaml)")
    sys.exit(0)


def schema(name):
    with open(os.path.join(ROOT, "packaging", "schemas", name)) as f:
        return json.load(f)


def errors(doc, sch):
    v = jsonschema.validators.validator_for(sch)(sch, format_checker=jsonschema.FormatChecker())
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in v.iter_errors(doc)]


def main():
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        top = "cudnnctl-9.8.7-windows-x86_64"
        z = os.path.join(tmp, f"{top}.zip")
        with zipfile.ZipFile(z, "w") as zf:
            zf.writestr(f"{top}/cudnnctl.exe", b"MZ not really")
        sha = hashlib.sha256(open(z, "rb").read()).hexdigest()
        out = os.path.join(tmp, "manifests")
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "release_manifests.py"), z, "9.8.7", out,
                        "--url", f"https://releases.example.org/v9.8.7/{top}.zip"], check=True)
        scoop = json.load(open(os.path.join(out, "cudnnctl.json")))
        failures += [f"scoop: {e}" for e in errors(scoop, schema("scoop.schema.json"))]
        if scoop["architecture"]["64bit"]["hash"] != sha:
            failures.append("scoop: hash is not the zip's SHA-256")
        wdir = os.path.join(out, "winget")
        kinds = {}
        for f in sorted(os.listdir(wdir)):
            doc = yaml.safe_load(open(os.path.join(wdir, f)))
            kinds[doc["ManifestType"]] = doc
            failures += [f"winget {f}: {e}" for e in errors(doc, schema(f"winget.{doc['ManifestType']}.1.9.0.schema.json"))]
        if sorted(kinds) != ["defaultLocale", "installer", "version"]:
            failures.append(f"winget: manifest types {sorted(kinds)}")
        elif kinds["installer"]["Installers"][0]["InstallerSha256"] != sha.upper():
            failures.append("winget: InstallerSha256 is not the zip's SHA-256")
        # the check can fail: a broken hash is rejected by both schemas
        scoop["architecture"]["64bit"]["hash"] = "not-a-hash"
        if not errors(scoop, schema("scoop.schema.json")):
            failures.append("scoop schema accepted a broken hash")
        if "installer" in kinds:
            kinds["installer"]["Installers"][0]["InstallerSha256"] = "XYZ"
            if not errors(kinds["installer"], schema("winget.installer.1.9.0.schema.json")):
                failures.append("winget schema accepted a broken hash")
    for f in failures:
        print("FAIL:", f)
    if not failures:
        print("Scoop manifest and winget manifest set (version, installer, defaultLocale) valid; hashes are the zip's")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
