#!/usr/bin/env python3
"""Prints what recurring-ical-events makes of each calendar file given, 2000-2035, one instance a line, sorted:
start and end as instants in ZONE (naive times are placed in ZONE, all-day dates stay dates) and the summary; a
file it cannot read is the one line `!unreadable: ERROR`.
`app_instances.py ZONE FROM TO FILE…` (FROM and TO: YYYY-MM-DD): AppRulesCLITests compares a file's lines with
those of its `--for` output, and with ICSKit's."""
import sys
import datetime as dt
import zoneinfo

import icalendar
import recurring_ical_events

zone = zoneinfo.ZoneInfo(sys.argv[1])


def text(value):
    if isinstance(value, dt.datetime):
        value = value.replace(tzinfo=zone) if value.tzinfo is None else value.astimezone(zone)
        return value.strftime("%Y-%m-%dT%H:%M:%S%z")
    return value.isoformat()


window = [dt.date.fromisoformat(text) for text in sys.argv[2:4]]
for path in sys.argv[4:]:
    print(f"== {path}")
    try:
        calendar = icalendar.Calendar.from_ical(open(path, "rb").read())
        lines = []
        for event in recurring_ical_events.of(calendar).between(*window):
            start = event.get("DTSTART").dt
            end = event.get("DTEND").dt if event.get("DTEND") else None
            title = " ".join(str(event.get("SUMMARY", "")).split())  # one line, as --repair writes titles
            lines.append(f"{text(start)} {text(end) if end is not None else '-'} {title}")
        print("\n".join(sorted(lines)))
    except Exception as error:  # a file the reference cannot read: said, and the next one read
        print(f"!unreadable: {type(error).__name__}")
