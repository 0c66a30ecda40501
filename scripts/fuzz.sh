#!/usr/bin/env bash
# Runs each libFuzzer target for a while: `scripts/fuzz.sh SECONDS [TARGET…]` (make fuzz calls it).
# Seeds come from Fixtures and ../shared/fixtures/corpus (jCal, xCal and CSV seeds converted from them by icskit);
# each target keeps its growing corpus under .build-fuzz/work/corpus/TARGET between runs. Findings (crashes,
# timeouts, out-of-memory) land in .build-fuzz/work/findings/TARGET; the script fails when there is one. A line per
# target (executions, coverage, findings, sanitizers) is appended to .build-fuzz/work/runs.tsv; scripts/fuzz-table.sh
# turns that file into the table in FUZZING.md. FUZZ_BIN and FUZZ_SANITIZERS name another build (make fuzz-build
# FUZZ_SANITIZE=fuzzer builds one without AddressSanitizer, about three times faster).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:?usage: scripts/fuzz.sh SECONDS [TARGET…]}
shift
targets=${*:-ics jcal jscalendar xcal csv rrule store mime serve}
binary=${FUZZ_BIN:-.build-fuzz/release/icskit-fuzz}
icskit=${ICSKIT_BIN:-.build/debug/icskit}
shared=${SHARED:-../shared}
work=.build-fuzz/work
jobs=${FUZZ_JOBS:-1}
sanitizers=${FUZZ_SANITIZERS:-fuzzer,address}
mkdir -p "$work"

seed_files() {  # every iCalendar file the project has
    find Fixtures -name '*.ics'
    if [ -d "$shared/fixtures/corpus" ]; then find "$shared/fixtures/corpus" -name '*.ics'; fi
}

make_seeds() {
    local target=$1 dir=$work/seeds/$1
    [ -d "$dir" ] && return
    mkdir -p "$dir"
    case $target in
        ics|store) seed_files | while read -r file; do cp "$file" "$dir/$(echo "$file" | tr '/' '_')"; done ;;
        jcal|jscalendar|xcal|csv)
            # One convert per folder (each file's output at its place below the seed folder; libFuzzer reads
            # folders recursively): a process per file cost CI a minute.
            "$icskit" convert Fixtures --to "$target" -q --out-dir "$dir/fixtures" 2>/dev/null || true
            if [ -d "$shared/fixtures/corpus" ]; then
                "$icskit" convert "$shared/fixtures/corpus" --to "$target" -q --out-dir "$dir/corpus" 2>/dev/null || true
            fi
            if [ "$target" = csv ]; then cp Fixtures/hand/csv/*.csv "$dir/"; fi ;;
        mime) cp Fixtures/mail/*.eml "$dir/" ;;
        serve)
            # Request heads as subscribers and probes send them (the share's token is the fuzz target's own).
            local token=ZnV6ei10b2tlbi1mb3ItdGhlLXNlcnZlLXRhcmdldC0
            printf 'GET /feeds/%s.ics HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n' "$token" > "$dir/feed"
            printf 'GET /feeds/%s.ics HTTP/1.1\r\nIf-None-Match: W/"a", *\r\n\r\n' "$token" > "$dir/conditional"
            printf 'HEAD /feeds/%s.ics HTTP/1.1\r\nIf-Modified-Since: Sun, 06 Nov 1994 08:49:37 GMT\r\n\r\n' \
                "$token" > "$dir/head"
            printf 'GET /feeds/%s/freebusy?start=2026-12-01&end=20261231T000000Z HTTP/1.1\r\n\r\n' "$token" \
                > "$dir/freebusy"
            printf 'GET /feeds/%%2e%%2e/../x.ics?a=%%ZZ HTTP/1.1\r\n\r\n' > "$dir/escapes" ;;
        rrule)
            local n=0
            grep -h '^RRULE:' Fixtures/rrule-vectors/*.txt | cut -c7- | while read -r rule; do
                n=$((n + 1))
                printf '%s\n%b' "$rule" "\\x$(printf %02x $((n % 5)))" > "$dir/rule-$n"
            done ;;
    esac
}

max_length() {  # inputs stay small: a finding almost never needs more, and small ones run fast
    case $1 in
        rrule) echo 512 ;;
        *) echo 4096 ;;
    esac
}

dictionary() {
    case $1 in
        ics|store|rrule|mime) echo Fuzz/dictionaries/ics.dict ;;
        serve) echo Fuzz/dictionaries/http.dict ;;
        jcal|jscalendar) echo Fuzz/dictionaries/json.dict ;;
        xcal) echo Fuzz/dictionaries/xml.dict ;;
        csv) echo Fuzz/dictionaries/csv.dict ;;
    esac
}

status=0
for target in $targets; do
    make_seeds "$target"
    # A log per run: two campaigns of one target at once must not write into the same file.
    corpus=$work/corpus/$target findings=$work/findings/$target log=$work/$target-$$.log
    mkdir -p "$corpus" "$findings"
    echo "== fuzzing $target for ${seconds}s"
    extra=()
    if [ "$jobs" -gt 1 ]; then extra=(-jobs="$jobs" -workers="$jobs"); fi
    # Swift's own crash handler would symbolicate in-process under ASan; libFuzzer reports the trap itself.
    SWIFT_BACKTRACE=enable=no ICSKIT_FUZZ_TARGET=$target "$binary" "$corpus" "$work/seeds/$target" -dict="$(dictionary "$target")" \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len="$(max_length "$target")" -print_final_stats=1 \
        -artifact_prefix="$findings/" "${extra[@]}" > "$log" 2>&1 || true
    # -a: a log can hold bytes of the inputs it prints, which would make grep call it binary and print nothing.
    runs=$( (grep -aho 'stat::number_of_executed_units: *[0-9]*' "$log" "$work"/fuzz-*.log 2>/dev/null || true) \
        | awk '{s += $2} END {print s + 0}')
    coverage=$( (grep -aho 'cov: [0-9]*' "$log" "$work"/fuzz-*.log 2>/dev/null || true) | cut -d' ' -f2 | sort -n | tail -1)
    found=$(find "$findings" -type f | wc -l)
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$target" "$seconds" "$runs" "${coverage:-0}" "$found" \
        "$sanitizers" >> "$work/runs.tsv"
    echo "   $runs executions, coverage $coverage edges, $found finding(s)"
    if [ "$found" -gt 0 ]; then
        status=1
        find "$findings" -type f | sed 's/^/   finding: /'
        tail -30 "$log"
    fi
    rm -f "$work"/fuzz-*.log
done
exit $status
