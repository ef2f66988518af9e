#!/usr/bin/env python3
"""Builds data/cudnn-catalog.json from the release table data/cudnn-releases.json.

    tools/build_catalog.py [--releases FILE] [--overrides FILE] [--pins FILE] [--out FILE] [--check]

Everything it reads is in the repository: data/cudnn-releases.json (every archive's SHA-256, size and
md5 with the public sources it was copied from, and per release its builds, manifest and support
rows), data/support-overrides.json and data/legacy-name-pins.json.

--check compares the freshly built catalog with --out and fails (exit 1) when they differ, so CI
notices a hand edit of the generated file or a change of the sources that was not regenerated.
Every archive keeps its sha256, size, md5, confidence and sources (a hash without a size gets a
size_note saying why none is known); hashes that a source once
listed for the same file name (other_hashes_seen) are kept as further known hashes with
their own source, because NVIDIA has re-issued archives under one name. Support rows come from
the per-release support blocks, with the corrections in data/support-overrides.json.
"""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DEFAULT_RELEASES = os.path.join(ROOT, "data", "cudnn-releases.json")


def driver(value):
    """'>=525.60.13' -> '525.60.13'; anything that is not a version ('N/A ...') -> ''."""
    if not value:
        return ""
    v = value.strip()
    if v.startswith(">="):
        v = v[2:].strip()
    return v if v and all(p.isdigit() for p in v.split(".")) else ""


def version_key(v):
    return tuple(int(p) for p in v.split("."))


def support_rows(label, block):
    rows = []
    source = block.get("source", "")
    general_note = block.get("note", "")
    for key, val in sorted(block.items()):
        if not key.startswith("cuda") or not isinstance(val, dict):
            continue
        variant = key[len("cuda"):]
        parts = val.get("rows") or [val]
        for part in parts:
            toolkits = part.get("cuda_toolkits") or []
            md = part.get("min_driver") or val.get("min_driver") or {}
            notes = [n for n in (part.get("note"), val.get("note") if part is not val else None,
                                 part.get("cuda_toolkits_evidence"), general_note) if n]
            raw_win = md.get("windows", "")
            if raw_win and not driver(raw_win):
                notes.append(f"Windows driver minimum as printed by NVIDIA: {raw_win}")
            rows.append({
                "release": label,
                "cuda_variant": variant,
                "cuda_toolkits": sorted(toolkits, key=version_key),
                "min_driver_linux": driver(md.get("linux")),
                "min_driver_windows": driver(raw_win),
                "compute_capabilities": sorted(part.get("compute_capabilities") or val.get("compute_capabilities") or [],
                                               key=version_key),
                "source": source,
                "notes": notes,
            })
    return rows


FIRST_MANIFEST = (8, 5, 0)  # NVIDIA's redistrib_X.Y.Z.json manifests, the only source of archive sizes, begin at 8.5.0


def size_note(a, manifests):
    """Why an archive row has no size (None when it has one): the reason `cudnnctl inspect` shows."""
    if a["size"] is not None:
        return None
    label = ".".join(a["version"].split(".")[:3])
    if version_key(label) < FIRST_MANIFEST:
        return (f"cuDNN {a['version']} predates NVIDIA's redistrib_*.json manifests (the first is for 8.5.0), "
                "the only source that gives archive sizes")
    if label in manifests:
        return f"NVIDIA's redistrib_{label}.json does not list this archive"
    return (f"no copy of NVIDIA's redistrib_{label}.json was found in the public sources this catalog is built from "
            "(its hash comes from package recipes, which give no size)")


def build(releases_path, overrides_path, pins_path):
    with open(releases_path, encoding="utf-8") as f:
        table = json.load(f)
    with open(overrides_path, encoding="utf-8") as f:
        overrides = json.load(f)["overrides"]

    manifests = {r["label"] for r in table["releases"] if r.get("manifest")}
    archives = []
    for a in table["archives"]:
        hashes = [{
            "sha256": a["sha256"].lower(),
            "size": a["size"],
            "md5": a["md5"],
            "confidence": a["confidence"],
            "sources": a["sources"],
            "notes": a["notes"],
        }]
        if a["size"] is None:
            hashes[0]["size_note"] = size_note(a, manifests)
        for c in a["other_hashes_seen"]:
            if c["sha256"].lower() == a["sha256"].lower():
                continue
            hashes.append({
                "sha256": c["sha256"].lower(),
                "size": None,
                "md5": None,
                "confidence": "C!",
                "sources": [c["source"]],
                "notes": ["another hash listed for the same file name by this source"],
                "size_note": "a hash a source once listed for this file name; no source gives its size",
            })
        archives.append({
            "filename": a["filename"],
            "version": a["version"],
            "platform": a["platform"],
            "cuda_variant": a["cuda_variant"],
            "url": a["url"],
            "hashes": hashes,
        })
    archives.sort(key=lambda x: (version_key(x["version"]), x["platform"], x["filename"]))

    support = []
    releases = []
    for r in table["releases"]:
        label = r["label"]
        releases.append({
            "label": label,
            "date": r.get("date") or "",
            "manifest_url": (r.get("manifest") or {}).get("url", ""),
            "builds": sorted(r.get("builds", {}).keys(), key=version_key),
        })
        if r.get("support"):
            support.extend(support_rows(label, r["support"]))
    for o in overrides:
        matched = [s for s in support if s["release"] == o["release"] and s["cuda_variant"] == o["cuda_variant"]]
        if not matched:
            raise SystemExit(f"override for {o['release']} cuda{o['cuda_variant']} matches no support row")
        for s in matched:
            s["cuda_toolkits"] = sorted(o["cuda_toolkits"], key=version_key)
            s["notes"] = [f"corrected: {o['reason']} Source: {o['source']}"] + s["notes"]
    with open(pins_path, encoding="utf-8") as f:
        pins = json.load(f)["pins"]
    known = {a["filename"] for a in archives}
    for p in pins:
        if p["filename"] in known:
            raise SystemExit(f"legacy pin {p['filename']} is in the catalog already: its entry pins it")
        if not p.get("source"):
            raise SystemExit(f"legacy pin {p['filename']} names no source")
    pins.sort(key=lambda p: p["filename"])
    releases.sort(key=lambda r: version_key(r["label"]))
    support.sort(key=lambda s: (version_key(s["release"]), s["cuda_variant"]))

    return {
        "schema_version": 1,
        "about": "cuDNN redistributable archives with known SHA-256 hashes and NVIDIA support rows. "
                 "Generated by tools/build_catalog.py from data/cudnn-releases.json "
                 "(every hash copied verbatim from the public sources it names), data/support-overrides.json and data/legacy-name-pins.json. "
                 "Do not edit by hand.",
        "confidence_legend": table["confidence_legend"],
        "url_rule": table["url_rule"],
        "archives": archives,
        "releases": releases,
        "support": support,
        "legacy_pins": pins,
    }


def dump(catalog):
    return json.dumps(catalog, indent=1, ensure_ascii=False, sort_keys=False) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--releases", default=DEFAULT_RELEASES)
    ap.add_argument("--overrides", default=os.path.join(ROOT, "data", "support-overrides.json"))
    ap.add_argument("--pins", default=os.path.join(ROOT, "data", "legacy-name-pins.json"))
    ap.add_argument("--out", default=os.path.join(ROOT, "data", "cudnn-catalog.json"))
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    text = dump(build(args.releases, args.overrides, args.pins))
    if args.check:
        with open(args.out, encoding="utf-8") as f:
            if f.read() != text:
                print(f"{args.out} is out of date: run tools/build_catalog.py", file=sys.stderr)
                return 1
        print(f"{args.out} is up to date")
        return 0
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
