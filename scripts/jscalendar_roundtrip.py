#!/usr/bin/env python3
"""ICS -> JSCalendar -> ICS on the differential generator's calendars (scripts/differential.py): each calendar is
written as JSCalendar by `icskit convert --to jscalendar` (RFC 8984 names, or the 2.0 draft's with --version 2) and
back to iCalendar, and python icalendar and recurring-ical-events must see the same thing in both: every component
with the same properties (names, parameters, values as python icalendar reads them; VALUE aside, which jCal's form
carries in its own slot) and the same instances over the generator's window.

    jscalendar_roundtrip.py --icskit .build/debug/icskit --seed 1 --count 500 [--version 2]

Prints one line per calendar that differs and a JSON summary last; the exit status is 1 when any differs.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

import icalendar
import recurring_ical_events

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import differential  # noqa: E402


def view(data):
    """What python icalendar reads: each component's name and its properties, in any order."""
    calendar = icalendar.Calendar.from_ical(data)
    components = []
    for component in calendar.walk():
        if component.name == "VCALENDAR":
            continue
        properties = []
        for name, value in component.property_items(recursive=False):
            if name in ("BEGIN", "END"):
                continue
            params = sorted((key, str(item)) for key, item in value.params.items() if key != "VALUE") \
                if hasattr(value, "params") else []
            text = value.to_ical() if hasattr(value, "to_ical") else str(value)
            properties.append((name, tuple(params), text.decode() if isinstance(text, bytes) else text))
        components.append((component.name, tuple(sorted(properties))))
    return sorted(components)


def instances(data):
    """recurring-ical-events' instances, or the kind of error it raises (which must then be the same)."""
    calendar = icalendar.Calendar.from_ical(data)
    try:
        rows = recurring_ical_events.of(calendar).between(*differential.WINDOW)
    except Exception as error:  # the reference refusing a rule refuses it both times
        return [("error", type(error).__name__)]
    return sorted((str(row.get("UID")), str(row.get("DTSTART").dt), str(row.get("DTEND").dt if row.get("DTEND") else ""))
                  for row in rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--icskit", required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=500)
    parser.add_argument("--version", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="jscalendar-roundtrip-") as folder:
        made = os.path.join(folder, "made")
        json_folder = os.path.join(folder, "json")
        back = os.path.join(folder, "back")
        os.makedirs(made)
        for index in range(args.count):
            data, _ = differential.make_calendar(args.seed * 1_000_003 + index)
            with open(os.path.join(made, f"c{index}.ics"), "wb") as handle:
                handle.write(data)
        for source, target, extra in ((made, json_folder, ["--to", "jscalendar", "--jscalendar-version",
                                                           str(args.version)]), (json_folder, back, ["--to", "ics"])):
            names = sorted(os.listdir(source))
            run = subprocess.run([args.icskit, "convert", *[os.path.join(source, name) for name in names], *extra,
                                  "--out-dir", target, "-q"], capture_output=True, text=True)
            if run.returncode != 0:
                print(run.stderr[-2000:], file=sys.stderr)
                sys.exit(2)
        differing = []
        for index in range(args.count):
            with open(os.path.join(made, f"c{index}.ics"), "rb") as handle:
                before = handle.read()
            with open(os.path.join(back, f"c{index}.ics"), "rb") as handle:
                after = handle.read()
            if view(before) != view(after):
                differing.append((index, "properties"))
            elif instances(before) != instances(after):
                differing.append((index, "instances"))
        for index, what in differing[:10]:
            print(f"calendar {index} (seed {args.seed}): {what} differ")
        print(json.dumps({"calendars": args.count, "differing": len(differing), "version": args.version}))
        sys.exit(1 if differing else 0)


if __name__ == "__main__":
    main()
