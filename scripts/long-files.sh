#!/usr/bin/env bash
# No source file over 600 lines (issue 64), no other Swift file over 700 (tests, benchmarks, fuzz targets,
# examples); `make lint` runs it. Prints each file over its limit and exits 1 when there is one.
set -euo pipefail
cd "$(dirname "$0")/.."
over() { # limit folders…
  local limit=$1
  shift
  find "$@" -name '*.swift' -print0 | xargs -0 wc -l | awk -v limit="$limit" '$2 != "total" && $1 > limit'
}
found="$(over 600 Sources)$(over 700 Tests Benchmarks Fuzz Examples)"
if [ -n "$found" ]; then
  echo "files over their limit (600 lines in Sources/, 700 elsewhere):" >&2
  echo "$found" >&2
  exit 1
fi
echo "no file in Sources/ over 600 lines, none elsewhere over 700"
