#!/usr/bin/env python3
"""A second CalDAV client for the sync tests (python caldav): changes a collection between two ICSKit syncs.

    scripts/caldav_peer.py URL USER PASSWORD list
    scripts/caldav_peer.py URL USER PASSWORD summary UID NEW-SUMMARY
    scripts/caldav_peer.py URL USER PASSWORD delete UID
    scripts/caldav_peer.py URL USER PASSWORD create UID SUMMARY START
    scripts/caldav_peer.py URL USER PASSWORD create-at NAME UID SUMMARY START   (PUT to that resource name)
    scripts/caldav_peer.py URL USER PASSWORD names                   (the resource names, decoded, one a line)
    scripts/caldav_peer.py URL USER PASSWORD masters-only UID        (its overrides removed)

URL is a calendar collection. `list` prints `UID SUMMARY` for every VEVENT and VTODO (masters first), one a line.
"""
import sys
import urllib.parse

import caldav
import icalendar


def main():
    url, user, password, command, *rest = sys.argv[1:]
    client = caldav.DAVClient(url=url, username=user, password=password)
    calendar = client.calendar(url=url)
    # events(), todos() and journals() list what is there now (objects() can include what a sync token saw go).
    objects = []
    for item in calendar.events() + calendar.todos(include_completed=True) + calendar.journals():
        item.load()
        objects.append(item)
    if command == "list":
        lines = []
        for item in objects:
            for component in icalendar.Calendar.from_ical(item.data).walk():
                if component.name in ("VEVENT", "VTODO", "VJOURNAL"):
                    lines.append(f"{component.get('UID')} {component.get('SUMMARY', '')}")
        print("\n".join(sorted(lines)))
        return
    if command == "names":
        names = [urllib.parse.unquote(str(item.url).rstrip("/").rsplit("/", 1)[-1]) for item in objects]
        print("\n".join(sorted(names)))
        return
    if command == "create-at":
        name, uid, summary, start = rest
        body = (
            f"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//caldav peer//EN\r\nBEGIN:VEVENT\r\nUID:{uid}\r\n"
            f"DTSTAMP:20261101T000000Z\r\nDTSTART:{start}\r\nSUMMARY:{summary}\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")
        target = url.rstrip("/") + "/" + urllib.parse.quote(name, safe="")
        answer = client.put(target, body, {"Content-Type": "text/calendar; charset=utf-8", "If-None-Match": "*"})
        if answer.status not in (201, 204):
            sys.exit(f"PUT {target}: {answer.status}")
        return
    if command == "create":
        uid, summary, start = rest
        calendar.save_event(
            f"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//caldav peer//EN\r\nBEGIN:VEVENT\r\nUID:{uid}\r\n"
            f"DTSTAMP:20261101T000000Z\r\nDTSTART:{start}\r\nSUMMARY:{summary}\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")
        return
    uid = rest[0]
    matches = [item for item in objects if f"UID:{uid}" in item.data]
    if not matches:
        sys.exit(f"no object with UID {uid}")
    item = matches[0]
    if command == "delete":
        item.delete()
    elif command == "summary":
        parsed = icalendar.Calendar.from_ical(item.data)
        for component in parsed.walk():
            if component.name in ("VEVENT", "VTODO", "VJOURNAL") and str(component.get("UID")) == uid:
                component["SUMMARY"] = rest[1]
                component["SEQUENCE"] = int(component.get("SEQUENCE", 0)) + 1
        item.data = parsed.to_ical().decode()
        item.save()
    elif command == "masters-only":
        parsed = icalendar.Calendar.from_ical(item.data)
        parsed.subcomponents = [c for c in parsed.subcomponents if "RECURRENCE-ID" not in c]
        item.data = parsed.to_ical().decode()
        item.save()
    else:
        sys.exit(f"unknown command {command}")


if __name__ == "__main__":
    main()
