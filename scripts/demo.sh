#!/usr/bin/env bash
# The story `make demo` tells, with the `icskit` found on PATH: a real Outlook export checked; two calendars (a
# Google "Work" export and an Apple "Family" one) brought into a fresh store; the week of 2026-11-23 as an agenda and
# a todo list; a todo ticked off by name and an event edited here; then a changed Work export merged (by title: what
# moved, what is new, what was deleted, and the local edit kept); an invitation mail received, answered, moved and
# cancelled; the week as an HTML page, rendered to a PNG by
# headless Chromium when it is installed. Everything goes into DEMO_DIR (default .build/demo); the last line names
# the PNG.
set -euo pipefail

dir=${DEMO_DIR:-.build/demo}
fixtures=${DEMO_FIXTURES:-Fixtures}
rm -rf "$dir"
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
export ICSKIT_STORE="$dir/store.sqlite"
week=(--week 2026-W48 --tz Europe/Berlin)

say() { printf '\n== %s\n' "$*"; }
# Echoes a command as a user would type it (an argument with spaces or shell characters in quotes), then runs it.
run() {
    local shown=() argument
    for argument in "$@"; do
        if [[ $argument =~ [^A-Za-z0-9_./:=+-] ]]; then shown+=("\"$argument\""); else shown+=("$argument"); fi
    done
    printf '$ %s\n' "${shown[*]}"
    "$@"
}

say "A real Outlook 2010 export: what is in it, and what is wrong with it"
run icskit validate "$fixtures/corpus-copies/outlook-2010.ics" || true

say "Two calendars into the store ($ICSKIT_STORE): Family by import; Work by merge, which keeps a base to merge against later"
run icskit import "$fixtures/demo/family.ics"
run icskit merge "$fixtures/demo/work.ics" --into Work
run icskit categories --set-color Kids "#E15759" >/dev/null
run icskit categories --set-color Home "#2E9E5B" >/dev/null
run icskit categories --set-color Release "#B07AA1"

say "The week: series marked ⟳ (the moved stand-up: ⟳ changed), alarms ⏰, a workshop over two days"
run icskit agenda "${week[@]}"

say "Todos, and one ticked off by name"
run icskit todo --tz Europe/Berlin
run icskit done "birthday present"

say "The week on the terminal, and one day on one screen"
run icskit week --week 2026-W48 --tz Europe/Berlin --width 120 --color never
run icskit today --tz Europe/Berlin --now 2026-11-26T09:00:00Z

say "A change made here: the design review moves to another room (the next merge keeps it: Work did not change it)"
run icskit edit "Design review" --location "Room Turing"

say "Work exported again after a week of changes elsewhere: what a merge would do, by name, then doing it"
run icskit merge "$fixtures/demo/work-changed.ics" --into Work --dry-run
run icskit merge "$fixtures/demo/work-changed.ics" --into Work
run icskit agenda --from 2026-11-24 --to +1d --tz Europe/Berlin --calendar Work --no-ids

say "An invitation arrives by mail: it waits for your answer; you accept (the REPLY mail to send is printed)"
lunch=(--from 2026-11-27 --to +1d --tz Europe/Berlin --calendar Invitations --no-ids)
run icskit config me ana@example.org
run icskit invite "$fixtures/mail/invite.eml"
run icskit agenda "${lunch[@]}"
run icskit reply "Déjeuner" --accept --comment "Avec plaisir" --mime
say "The organizer moves the lunch (SEQUENCE 1: your answer is asked again), then cancels it"
run icskit invite "$fixtures/itip/lunch-update.ics"
run icskit agenda "${lunch[@]}"
run icskit invite "$fixtures/itip/lunch-cancel.ics"
run icskit agenda "${lunch[@]}"

say "The week as one HTML page (and the month), and as a picture"
run icskit export --format html "${week[@]}" -o "$dir/week.html"
run icskit export --format html --month 2026-11 --tz Europe/Berlin -o "$dir/month.html"
chromium=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$chromium" ]; then
    echo "headless Chromium is not installed (apt-get install chromium), so no PNG; open $dir/week.html"
    exit 1
fi
printf '$ chromium --headless --screenshot=%s %s\n' "$dir/week.png" "$dir/week.html"
# A browser that hangs must not hang the demo; its chatter goes to a log.
timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1400,1320 \
    --screenshot="$dir/week.png" "file://$dir/week.html" >"$dir/chromium.log" 2>&1
echo "to print it: chromium --headless --no-pdf-header-footer --print-to-pdf=week.pdf $dir/week.html (A4 landscape)"
echo "The week as a picture: $dir/week.png"
