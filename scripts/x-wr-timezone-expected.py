#!/usr/bin/env python3
"""Write the instants x-wr-timezone + recurring-ical-events give for Fixtures/hand/google-x-wr-timezone.ics, for
the test that checks ICSKit reads X-WR-TIMEZONE the same way.

    pip install icalendar recurring-ical-events x-wr-timezone && python3 scripts/x-wr-timezone-expected.py
"""
import datetime, pathlib
import icalendar, recurring_ical_events

fixture = pathlib.Path(__file__).resolve().parent.parent / "Fixtures/hand/google-x-wr-timezone.ics"
calendar = icalendar.Calendar.from_ical(fixture.read_bytes())
rows = []
for event in recurring_ical_events.of(calendar).between(datetime.date(2026, 3, 1), datetime.date(2026, 5, 1)):
    start = event["DTSTART"].dt
    if isinstance(start, datetime.datetime):
        start = start.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    else:
        start = start.isoformat()
    rows.append(f"{event['UID']} {start}")
out = fixture.with_suffix(".expected.txt")
out.write_text("\n".join(sorted(rows)) + "\n")
print(f"{len(rows)} instances -> {out}")
