#!/usr/bin/env bash
# CalendarModel's public API, one declaration a line, compared with the checked-in docs/CalendarModel-API.txt
# (`make lint` runs it): a change to the public surface is a decision made in a commit, not a side effect.
# `scripts/api.sh --write` rewrites the file after such a decision. Members the compiler makes for a conformance
# (hash(into:), init(rawValue:) …) have no source and are not listed; the conformances are listed with the type.
set -euo pipefail
cd "$(dirname "$0")/.."
graphs=.build-docs/symbol-graphs
mkdir -p "$graphs"
# A build with nothing to do emits no symbol graph: without one, CalendarModel is built again.
[ -f "$graphs/CalendarModel.symbols.json" ] || rm -rf .build-docs/*/debug/CalendarModel.build
swift build --target CalendarModel --build-path .build-docs -Xswiftc -emit-symbol-graph \
  -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs" >/dev/null 2>&1 || {
  echo "api: CalendarModel does not build" >&2; exit 1; }
listing=$(python3 - "$graphs" <<'PY'
import glob, json, sys
lines = []
for path in sorted(glob.glob(sys.argv[1] + "/CalendarModel*.symbols.json")):
    graph = json.load(open(path))
    symbols = {s["identifier"]["precise"]: s for s in graph["symbols"]}
    for s in symbols.values():
        if s.get("accessLevel") != "public" or "location" not in s:
            continue
        declaration = " ".join("".join(f["spelling"] for f in s["declarationFragments"]).split())
        lines.append(f'{".".join(s["pathComponents"])}: {declaration}')
    for r in graph.get("relationships", []):
        source = symbols.get(r["source"])
        if r["kind"] != "conformsTo" or not source or source.get("accessLevel") != "public" or "location" not in source:
            continue
        # a protocol of this module is named by the symbol itself (and listed only when public), others by name
        target = symbols.get(r["target"])
        name = ".".join(target["pathComponents"]) if target else r.get("targetFallback", "").split(".")[-1]
        if (target and target.get("accessLevel") != "public") or name in ("", "SendableMetatype"):
            continue
        lines.append(f'{".".join(source["pathComponents"])}: conforms to {name}')
for line in sorted(set(lines)):
    print(line)
PY
)
count=$(grep -vc ": conforms to " <<<"$listing" || true)
if [ "${1:-}" = "--write" ]; then
  printf '%s\n' "$listing" >docs/CalendarModel-API.txt
  echo "api: docs/CalendarModel-API.txt written ($count public declarations)"
  exit 0
fi
if ! diff -u docs/CalendarModel-API.txt - <<<"$listing" >&2; then
  echo "api: CalendarModel's public API differs from docs/CalendarModel-API.txt (above: - listed, + built)." >&2
  echo "api: if the change is meant, run scripts/api.sh --write, commit the file and say so in CHANGELOG.md" >&2
  exit 1
fi
echo "api: CalendarModel's public API is the listed one ($count public declarations)"
