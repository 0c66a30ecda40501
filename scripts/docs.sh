#!/usr/bin/env bash
# Builds CalendarModel's DocC catalogue from its symbol graph and fails on a DocC warning or on a public symbol
# declared in Sources/CalendarModel without a doc comment (members the compiler makes for a conformance, such as
# hash(into:) or init(rawValue:), have no source to document and are not counted).
set -euo pipefail
cd "$(dirname "$0")/.."
graphs=.build-docs/symbol-graphs
# The symbol graphs stay: scripts/api.sh makes them in the same build, and a build with nothing to do emits none.
rm -rf .build-docs/CalendarModel.doccarchive
mkdir -p "$graphs"
# A build with nothing to do emits no symbol graph: without one, CalendarModel is built again.
[ -f "$graphs/CalendarModel.symbols.json" ] || rm -rf .build-docs/*/debug/CalendarModel.build
swift build --target CalendarModel --build-path .build-docs -Xswiftc -emit-symbol-graph \
  -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs" >/dev/null
log=$(docc convert Sources/CalendarModel/CalendarModel.docc --fallback-display-name CalendarModel \
  --fallback-bundle-identifier org.icskit.CalendarModel --additional-symbol-graph-dir "$graphs" \
  --output-path .build-docs/CalendarModel.doccarchive 2>&1)
if grep -q "warning:" <<<"$log"; then
  grep "warning:" <<<"$log" >&2
  echo "docs: DocC warnings in CalendarModel's catalogue" >&2
  exit 1
fi
python3 - "$graphs/CalendarModel.symbols.json" <<'PY'
import json, sys
symbols = json.load(open(sys.argv[1]))["symbols"]
public = [s for s in symbols if s.get("accessLevel") == "public" and "location" in s]
missing = sorted(".".join(s["pathComponents"]) for s in public if not s.get("docComment"))
for name in missing:
    print(f"no doc comment: {name}", file=sys.stderr)
if missing:
    sys.exit(f"docs: {len(missing)} public CalendarModel symbol(s) without a doc comment")
print(f"docs: CalendarModel's catalogue builds with no warning; all {len(public)} public symbols declared in it documented")
PY
