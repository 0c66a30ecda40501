#!/usr/bin/env python3
"""A second CalDAV client for the sync soak test (python caldav), kept running for the whole test: it reads one
command a line on standard input and answers on standard output, so a round costs no interpreter start.

    scripts/caldav_soak_peer.py URL USER PASSWORD

Commands:
    set UID PROPERTY VALUE      sets one property of the item (LAST-MODIFIED and DTSTAMP moved on); answers "ok"
    dump                        one JSON object: UID -> {PROPERTY: value} for SUMMARY, DESCRIPTION, LOCATION,
                                PRIORITY, DTSTART of every event; then a line "end"
"""
import datetime
import json
import sys

import caldav
import icalendar

FIELDS = ("SUMMARY", "DESCRIPTION", "LOCATION", "PRIORITY", "DTSTART")


def items(calendar):
    for item in calendar.events():
        item.load()
        yield item


def value(component, name):
    if name not in component:
        return None
    if name == "DTSTART":
        return component[name].to_ical().decode()
    return str(component[name])


def main():
    url, user, password = sys.argv[1:4]
    client = caldav.DAVClient(url=url, username=user, password=password)
    calendar = client.calendar(url=url)
    for line in sys.stdin:
        words = line.rstrip("\n").split(" ", 3)
        if words[0] == "dump":
            state = {}
            for item in items(calendar):
                for component in icalendar.Calendar.from_ical(item.data).walk("VEVENT"):
                    state[str(component["UID"])] = {name: value(component, name) for name in FIELDS}
            print(json.dumps(state, sort_keys=True))
            print("end", flush=True)
        elif words[0] == "set":
            uid, name, new = words[1], words[2], words[3]
            for item in items(calendar):
                parsed = icalendar.Calendar.from_ical(item.data)
                changed = False
                for component in parsed.walk("VEVENT"):
                    if str(component["UID"]) != uid:
                        continue
                    component.pop(name, None)
                    component.add(name, new)
                    now = datetime.datetime.now(datetime.timezone.utc)
                    for stamp in ("LAST-MODIFIED", "DTSTAMP"):
                        component.pop(stamp, None)
                        component.add(stamp, now)
                    changed = True
                if changed:
                    item.data = parsed.to_ical().decode()
                    item.save()
                    break
            print("ok", flush=True)
        else:
            print(f"unknown command {words[0]}", flush=True)


if __name__ == "__main__":
    main()
