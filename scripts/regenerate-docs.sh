#!/usr/bin/env bash
# Regenerates the docs that come from cudnnctl's own tables: docs/troubleshooting.md (the signature
# table), the check list in docs/doctor.md (the doctor's check table) and the exit-code tables in
# docs/exit-codes.md (the one exit-code table, include/cudnnctl/base/error_table.def). CTest fails when they drift.
#   scripts/regenerate-docs.sh [path/to/cudnnctl]   (default: build/cudnnctl)
set -euo pipefail
cd "$(dirname "$0")/.."
cmd=${1:-build/cudnnctl}
"$cmd" __generate troubleshooting > docs/troubleshooting.md

# splice GENERATOR DOC: replaces what lies between DOC's markers with `cudnnctl __generate GENERATOR`
splice() {
  "$cmd" __generate "$1" > build-generated.tmp
  python3 - "$1" "$2" build-generated.tmp <<'PY'
import sys
generator, doc_path, table_path = sys.argv[1], sys.argv[2], sys.argv[3]
begin, end = f"<!-- generated: cudnnctl __generate {generator} -->\n", "<!-- end generated -->"
doc = open(doc_path, encoding="utf-8").read()
i, j = doc.index(begin) + len(begin), doc.index(end)
open(doc_path, "w", encoding="utf-8").write(doc[:i] + open(table_path, encoding="utf-8").read() + doc[j:])
PY
  rm -f build-generated.tmp
}
splice doctor-checks docs/doctor.md
splice exit-codes docs/exit-codes.md
