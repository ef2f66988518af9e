#!/usr/bin/env bash
# Regenerates the docs that come from cudnnctl's own tables: docs/troubleshooting.md (the signature
# table) and the check list in docs/doctor.md (the doctor's check table). CTest fails when they drift.
#   scripts/regenerate-docs.sh [path/to/cudnnctl]   (default: build/cudnnctl)
set -euo pipefail
cd "$(dirname "$0")/.."
cmd=${1:-build/cudnnctl}
"$cmd" __generate troubleshooting > docs/troubleshooting.md
"$cmd" __generate doctor-checks > build-doctor-checks.tmp
python3 - docs/doctor.md build-doctor-checks.tmp <<'PY'
import sys
doc_path, table_path = sys.argv[1], sys.argv[2]
begin, end = "<!-- generated: cudnnctl __generate doctor-checks -->\n", "<!-- end generated -->"
doc = open(doc_path, encoding="utf-8").read()
i, j = doc.index(begin) + len(begin), doc.index(end)
open(doc_path, "w", encoding="utf-8").write(doc[:i] + open(table_path, encoding="utf-8").read() + doc[j:])
PY
rm -f build-doctor-checks.tmp
