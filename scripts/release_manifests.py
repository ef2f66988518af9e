#!/usr/bin/env python3
"""Writes the package-manager manifests for a Windows release zip (scripts/release.sh calls it):
a Scoop manifest (cudnnctl.json) and a winget portable manifest set (version, installer, defaultLocale
YAML, manifest schema 1.9.0), with the zip's SHA-256 filled in.

    scripts/release_manifests.py ZIP VERSION OUT_DIR [--base-url URL | --url URL]

The zip is published at BASE_URL/<zip name>. BASE_URL defaults to the GitHub release of VERSION,
https://github.com/OWNER/REPO/releases/download/vVERSION/, OWNER/REPO from $GITHUB_REPOSITORY (set in GitHub
Actions), else from `git remote get-url origin` when it is on github.com; with neither, give --base-url.
--url (or $CUDNNCTL_RELEASE_URL) gives the zip's whole URL instead. The zip holds one top folder
cudnnctl-VERSION-windows-x86_64 with cudnnctl.exe in it (build-windows.sh's and release.sh's layout).
"""
import argparse
import hashlib
import json
import os
import re
import subprocess
import sys

PACKAGE_ID = "Cudnnctl.Cudnnctl"
DESCRIPTION = "Install NVIDIA cuDNN archives and diagnose cuDNN set-ups"
MANIFEST_VERSION = "1.9.0"


def yaml_doc(schema_kind, fields):
    """YAML by hand (no PyYAML needed to write): scalars quoted as JSON strings, which YAML reads alike."""
    lines = [f"# yaml-language-server: $schema=https://aka.ms/winget-manifest.{schema_kind}.{MANIFEST_VERSION}.schema.json"]

    def emit(value, indent, key=None):
        pad = " " * indent
        if isinstance(value, dict):
            if key is not None:
                lines.append(f"{pad}{key}:")
                indent += 2
            for k, v in value.items():
                emit(v, indent, k)
        elif isinstance(value, list):
            lines.append(f"{pad}{key}:")
            for item in value:
                first = True
                for k, v in item.items():
                    prefix = " " * indent + ("- " if first else "  ")
                    if isinstance(v, (dict, list)):
                        raise ValueError("nested lists are not written")
                    lines.append(f"{prefix}{k}: {json.dumps(v)}")
                    first = False
        else:
            lines.append(f"{pad}{key}: {json.dumps(value)}")

    emit(fields, 0)
    return "\n".join(lines) + "\n"


def github_repository():
    """OWNER/REPO of this checkout's GitHub project: $GITHUB_REPOSITORY, else the origin remote; '' when unknown."""
    given = os.environ.get("GITHUB_REPOSITORY", "")
    if re.fullmatch(r"[\w.-]+/[\w.-]+", given):
        return given
    try:
        url = subprocess.run(["git", "-C", os.path.dirname(os.path.abspath(__file__)), "remote", "get-url", "origin"],
                             capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""
    m = re.search(r"github\.com[:/]([\w.-]+)/([\w.-]+?)(?:\.git)?/?$", url)
    return f"{m.group(1)}/{m.group(2)}" if m else ""


def release_base_url(version, given):
    if given:
        return given.rstrip("/") + "/"
    repo = github_repository()
    if not repo:
        raise SystemExit("release_manifests: cannot tell the GitHub repository (no $GITHUB_REPOSITORY, no github.com "
                         "origin remote): give --base-url, the folder the release files are published in")
    return f"https://github.com/{repo}/releases/download/v{version}/"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("zip")
    ap.add_argument("version")
    ap.add_argument("out_dir")
    ap.add_argument("--url", default=os.environ.get("CUDNNCTL_RELEASE_URL"), help="the zip's whole URL")
    ap.add_argument("--base-url", default=None, help="the folder the release files are published in")
    args = ap.parse_args()
    name = os.path.basename(args.zip)
    top = name[: -len(".zip")]
    url = args.url or release_base_url(args.version, args.base_url) + name
    with open(args.zip, "rb") as f:
        sha = hashlib.sha256(f.read()).hexdigest()
    os.makedirs(args.out_dir, exist_ok=True)

    scoop = {"version": args.version, "description": DESCRIPTION, "homepage": url.rsplit("/", 1)[0],
             "license": "MIT", "architecture": {"64bit": {"url": url, "hash": sha, "extract_dir": top}},
             "bin": "cudnnctl.exe"}
    with open(os.path.join(args.out_dir, "cudnnctl.json"), "w") as f:
        json.dump(scoop, f, indent=4)
        f.write("\n")

    common = {"PackageIdentifier": PACKAGE_ID, "PackageVersion": args.version}
    wdir = os.path.join(args.out_dir, "winget")
    os.makedirs(wdir, exist_ok=True)
    docs = {
        "version": {**common, "DefaultLocale": "en-US", "ManifestType": "version", "ManifestVersion": MANIFEST_VERSION},
        "installer": {**common, "InstallerType": "zip", "NestedInstallerType": "portable",
                      "NestedInstallerFiles": [{"RelativeFilePath": f"{top}\\cudnnctl.exe", "PortableCommandAlias": "cudnnctl"}],
                      "Installers": [{"Architecture": "x64", "InstallerUrl": url, "InstallerSha256": sha.upper()}],
                      "ManifestType": "installer", "ManifestVersion": MANIFEST_VERSION},
        "defaultLocale": {**common, "PackageLocale": "en-US", "Publisher": "The cudnnctl authors", "PackageName": "cudnnctl",
                          "License": "MIT", "ShortDescription": DESCRIPTION, "Moniker": "cudnnctl",
                          "ManifestType": "defaultLocale", "ManifestVersion": MANIFEST_VERSION},
    }
    files = {"version": f"{PACKAGE_ID}.yaml", "installer": f"{PACKAGE_ID}.installer.yaml",
             "defaultLocale": f"{PACKAGE_ID}.locale.en-US.yaml"}
    for kind, doc in docs.items():
        with open(os.path.join(wdir, files[kind]), "w") as f:
            f.write(yaml_doc(kind, doc))
    print(f"release_manifests: {args.out_dir}/cudnnctl.json and {wdir}/ for {name} (sha256 {sha})", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
