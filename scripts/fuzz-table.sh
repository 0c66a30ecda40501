#!/usr/bin/env bash
# Rewrites the "## Campaigns" section at the end of FUZZING.md from .build-fuzz/work/runs.tsv (one line per run of
# scripts/fuzz.sh): each run, then totals per target and overall. `scripts/fuzz-table.sh [RUNS.tsv]`.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-.build-fuzz/work/runs.tsv}
doc=FUZZING.md
[ -s "$runs" ] || { echo "no runs recorded in $runs" >&2; exit 1; }
grep -q '^## Campaigns$' "$doc" || { echo "$doc has no '## Campaigns' section" >&2; exit 1; }

table=$(awk -F'\t' '
    function group(n,   s) { s = sprintf("%d", n); while (s ~ /[0-9][0-9][0-9][0-9]/) sub(/[0-9][0-9][0-9]([,]|$)/, ",&", s); return s }
    {
        san = ($7 == "" ? "fuzzer,address" : $7)
        rows[NR] = sprintf("| %s | `%s` | %s | %s | %s | %s | %s |", substr($1, 1, 16), $2, group($3), group($4), $5, $6, san)
        runs[$2] += $4; secs[$2] += $3; found[$2] += $6; if ($5 > cov[$2]) cov[$2] = $5
        total += $4; totalsecs += $3; totalfound += $6
        if (!($2 in order)) { order[$2] = ++targets; name[targets] = $2 }
    }
    END {
        print "| Ended (UTC) | Target | Seconds | Executions | Coverage (edges) | Findings | Sanitizers |"
        print "|---|---|---:|---:|---:|---:|---|"
        for (i = 1; i <= NR; i++) print rows[i]
        print ""
        print "| Target | Seconds | Executions | Highest coverage | Findings |"
        print "|---|---:|---:|---:|---:|"
        for (i = 1; i <= targets; i++) { t = name[i]; printf "| `%s` | %s | %s | %s | %s |\n", t, group(secs[t]), group(runs[t]), cov[t], found[t] }
        printf "| **all** | %s | **%s** | | %s |\n", group(totalsecs), group(total), totalfound
    }' "$runs")

{
    sed '/^## Campaigns$/q' "$doc"
    echo
    echo "Every recorded run of \`scripts/fuzz.sh\` on the development machine (2 cores; the date is when the run ended)."
    echo "Findings are counted when a run stops at one; each was fixed and is listed above. Coverage is libFuzzer's edge"
    echo "count, which differs between the builds with and without AddressSanitizer."
    echo
    echo "$table"
} > "$doc.tmp"
mv "$doc.tmp" "$doc"
