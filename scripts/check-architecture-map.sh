#!/usr/bin/env bash
# ARCHITECTURE.md's map lists every source, test, benchmark and fuzz folder, and nothing else: checked both ways.
set -euo pipefail
cd "$(dirname "$0")/.."
listed=$(sed -n '/^## Map$/,/^## /p' ARCHITECTURE.md | grep -oE '^(Sources|Tests|Benchmarks|Fuzz)/[^ ]*/' | sed 's#/$##' | sort)
present=$(find Sources Tests Benchmarks Fuzz -mindepth 1 -type d -not -path '*.docc*' \
  | awk -F/ '$1 == "Sources" || NF == 2' | sort)
# Fuzz/ and Benchmarks/ are listed by their subfolders; every Sources folder is listed.
missing=$(comm -13 <(echo "$listed") <(echo "$present"))
extra=$(comm -23 <(echo "$listed") <(echo "$present"))
if [ -n "$missing$extra" ]; then
  [ -n "$missing" ] && echo "ARCHITECTURE.md's map lacks: $missing" >&2
  [ -n "$extra" ] && echo "ARCHITECTURE.md's map names folders that do not exist: $extra" >&2
  exit 1
fi
# The CLI's files live in its folders (commands by job, options, rendering, terminal): at most six at its top.
top=$(find Sources/ICSKitCLI -maxdepth 1 -name '*.swift' | wc -l)
if [ "$top" -gt 6 ]; then
  echo "Sources/ICSKitCLI/ holds $top files at its top (at most 6): put them in the folder that says what they hold" >&2
  exit 1
fi
echo "ARCHITECTURE.md's map matches the tree ($(echo "$listed" | wc -l) folders)"
