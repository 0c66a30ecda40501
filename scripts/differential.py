#!/usr/bin/env python3
"""Differential testing of recurrence: random but valid calendars, expanded by `icskit agenda --json` and by
recurring-ical-events (python icalendar), compared instance by instance.

    differential.py --icskit .build/debug/icskit --seed 1 --count 5000 [--keep DIR] [--report FILE]

Every calendar is made from its own seed (`seed * 1_000_003 + index`), so a disagreement is reproduced with
`--seed S --only INDEX --keep DIR`. Each holds one to three series drawn from: RRULE with every part, RDATE and
EXDATE as DATE, DATE-TIME and PERIOD, overrides that move instances in and out of the window, orphan overrides,
RANGE=THISANDFUTURE, all-day, floating, UTC and zoned times, DST gaps and overlaps in several zones, VTIMEZONE
blocks from tzdata, none (bare IANA names), and hand-written ones under custom names.

A disagreement on a series that uses a documented deviation (docs/DEVIATIONS.md) is counted as explained; any
other is printed and makes the exit status 1. The last line of output is a JSON summary.
"""

import argparse
import datetime as dt
import json
import multiprocessing
import os
import random
import subprocess
import sys
import tempfile
import zoneinfo

import icalendar
import recurring_ical_events

WINDOW = (dt.date(2024, 1, 1), dt.date(2028, 1, 1))
ZONES = [
    "Europe/Berlin", "America/New_York", "Australia/Sydney", "Asia/Kolkata", "America/Sao_Paulo",
    "Pacific/Auckland", "Europe/London", "America/Los_Angeles",
]
# Wall-clock times that fall in a DST gap or overlap of a zone (local date, hour, minute).
DST_EDGES = {
    "Europe/Berlin": [(dt.date(2025, 3, 30), 2, 30), (dt.date(2025, 10, 26), 2, 30)],
    "America/New_York": [(dt.date(2025, 3, 9), 2, 30), (dt.date(2025, 11, 2), 1, 30)],
    "Australia/Sydney": [(dt.date(2025, 4, 6), 2, 30), (dt.date(2025, 10, 5), 2, 30)],
    "Pacific/Auckland": [(dt.date(2025, 4, 6), 2, 30), (dt.date(2025, 9, 28), 2, 30)],
    "Europe/London": [(dt.date(2025, 3, 30), 1, 30), (dt.date(2025, 10, 26), 1, 30)],
    "America/Los_Angeles": [(dt.date(2025, 3, 9), 2, 30), (dt.date(2025, 11, 2), 1, 30)],
}
# A hand-written zone under a custom name: US rules at a fixed -0330/-0230 (so it matches no IANA zone).
CUSTOM_ZONE = """BEGIN:VTIMEZONE\r
TZID:Custom Harbour Time\r
BEGIN:STANDARD\r
DTSTART:19701101T020000\r
TZOFFSETFROM:-0230\r
TZOFFSETTO:-0330\r
RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU\r
END:STANDARD\r
BEGIN:DAYLIGHT\r
DTSTART:19700308T020000\r
TZOFFSETFROM:-0330\r
TZOFFSETTO:-0230\r
RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU\r
END:DAYLIGHT\r
END:VTIMEZONE\r
"""
WEEKDAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]


class Series:
    """One generated series: its master's lines, and what is known about it."""

    def __init__(self, uid, kind, tzid):
        self.uid = uid
        self.kind = kind  # date, floating, utc, zoned
        self.tzid = tzid
        self.lines = []
        self.overrides = []  # lists of lines
        self.features = set()


def value(kind, tzid, moment):
    """(parameters, text) of a DTSTART-like value of a kind."""
    if kind == "date":
        return ";VALUE=DATE", moment.strftime("%Y%m%d")
    if kind == "floating":
        return "", moment.strftime("%Y%m%dT%H%M%S")
    if kind == "utc":
        return "", moment.strftime("%Y%m%dT%H%M%SZ")
    return f";TZID={tzid}", moment.strftime("%Y%m%dT%H%M%S")


def random_rule(rng, kind, start):
    """An RFC 5545-valid RRULE value for a start, drawing on every part."""
    freq = rng.choice(["DAILY", "WEEKLY", "WEEKLY", "MONTHLY", "MONTHLY", "YEARLY"] + ([] if kind == "date" else ["HOURLY"]))
    parts = [f"FREQ={freq}"]
    if rng.random() < 0.4:
        parts.append(f"INTERVAL={rng.randint(2, 4)}")
    if freq == "HOURLY":
        parts.append(f"COUNT={rng.randint(2, 30)}")
        if rng.random() < 0.3:
            parts.append("BYHOUR=" + ",".join(str(h) for h in sorted(rng.sample(range(24), 3))))
        return ";".join(parts)
    if freq == "DAILY":
        if rng.random() < 0.3:
            parts.append("BYDAY=" + ",".join(rng.sample(WEEKDAYS, rng.randint(1, 4))))
        if rng.random() < 0.2:
            parts.append("BYMONTH=" + ",".join(str(m) for m in sorted(rng.sample(range(1, 13), 3))))
        if kind != "date" and rng.random() < 0.2:
            parts.append("BYHOUR=" + ",".join(str(h) for h in sorted(rng.sample(range(6, 22), 2))))
            parts.append("BYMINUTE=" + ",".join(str(m) for m in sorted(rng.sample([0, 15, 30, 45], 2))))
    elif freq == "WEEKLY":
        if rng.random() < 0.6:
            parts.append("BYDAY=" + ",".join(rng.sample(WEEKDAYS, rng.randint(1, 3))))
        if rng.random() < 0.3:
            parts.append("WKST=" + rng.choice(WEEKDAYS))
    elif freq == "MONTHLY":
        choice = rng.random()
        if choice < 0.3:
            parts.append("BYMONTHDAY=" + ",".join(str(d) for d in rng.sample([1, 5, 15, 28, 29, 30, 31, -1, -2], 2)))
        elif choice < 0.6:
            ordinal = rng.choice(["1", "2", "3", "4", "-1", "-2"])
            parts.append(f"BYDAY={ordinal}{rng.choice(WEEKDAYS)}")
        elif choice < 0.8:
            parts.append("BYDAY=" + ",".join(rng.sample(WEEKDAYS[:5], rng.randint(2, 5))))
            parts.append(f"BYSETPOS={rng.choice(['1', '-1', '2', '1,-1'])}")
        if rng.random() < 0.15:
            parts.append("BYMONTH=" + ",".join(str(m) for m in sorted(rng.sample(range(1, 13), 4))))
    else:  # YEARLY
        choice = rng.random()
        if choice < 0.25:
            parts.append("BYMONTH=" + ",".join(str(m) for m in sorted(rng.sample(range(1, 13), 2))))
            if rng.random() < 0.5:
                parts.append(f"BYDAY={rng.choice(['1', '2', '-1'])}{rng.choice(WEEKDAYS)}")
        elif choice < 0.45:
            parts.append("BYYEARDAY=" + ",".join(str(d) for d in rng.sample([1, 50, 100, 200, 365, -1, -100], 2)))
        elif choice < 0.65:
            parts.append("BYWEEKNO=" + ",".join(str(w) for w in rng.sample([1, 10, 20, 52, 53, -1], 2)))
            parts.append("BYDAY=" + rng.choice(WEEKDAYS))
        elif choice < 0.75:
            parts.append(f"BYMONTH={start.month}")
            parts.append(f"BYMONTHDAY={rng.choice([1, 10, -1])}")
    end = rng.random()
    if end < 0.45:
        parts.append(f"COUNT={rng.randint(1, 40)}")
    elif end < 0.8:
        until = start + dt.timedelta(days=rng.randint(0, 900))
        if kind == "date":
            parts.append("UNTIL=" + until.strftime("%Y%m%d"))
        elif kind == "floating":
            parts.append("UNTIL=" + until.strftime("%Y%m%dT%H%M%S"))
        else:
            parts.append("UNTIL=" + until.strftime("%Y%m%dT235959Z"))
    else:
        if freq in ("DAILY",) and "INTERVAL" not in ";".join(parts) and rng.random() < 0.5:
            parts.append(f"COUNT={rng.randint(50, 200)}")
    return ";".join(parts)


def make_series(rng, uid, custom_zone):
    kind = rng.choice(["date", "floating", "utc", "zoned", "zoned", "zoned"])
    tzid = None
    if kind == "zoned":
        tzid = "Custom Harbour Time" if custom_zone and rng.random() < 0.3 else rng.choice(ZONES)
    series = Series(uid, kind, tzid)
    if tzid in DST_EDGES and rng.random() < 0.35:
        day, hour, minute = rng.choice(DST_EDGES[tzid])
        start = dt.datetime(day.year, day.month, day.day, hour, minute)
        series.features.add("dst-edge")
    else:
        start = dt.datetime(2024, 1, 1) + dt.timedelta(days=rng.randint(-60, 1400), hours=rng.randint(0, 23),
                                                       minutes=rng.choice([0, 15, 30, 45]))
    if kind == "date":
        start = dt.datetime(start.year, start.month, start.day)
    series.start = start
    params, text = value(kind, tzid, start)
    series.lines += [f"UID:{uid}", "DTSTAMP:20240101T000000Z", f"SUMMARY:{uid}", f"DTSTART{params}:{text}"]
    if kind == "date":
        days = rng.choice([1, 1, 1, 2, 3])
        if rng.random() < 0.5:
            end = start + dt.timedelta(days=days)
            series.lines.append("DTEND;VALUE=DATE:" + end.strftime("%Y%m%d"))
        else:
            series.lines.append(f"DURATION:P{days}D")
    else:
        minutes = rng.choice([15, 30, 60, 90, 24 * 60 + 60])
        if rng.random() < 0.5:
            series.lines.append(f"DURATION:PT{minutes}M")
        else:
            end_params, end_text = value(kind, tzid, start + dt.timedelta(minutes=minutes))
            series.lines.append(f"DTEND{end_params}:{end_text}")
    if rng.random() < 0.85:
        series.rule = random_rule(rng, kind, start)
        series.lines.append("RRULE:" + series.rule)
    else:
        series.rule = None
    if rng.random() < 0.3 or series.rule is None:
        dates = [start + dt.timedelta(days=rng.randint(1, 500), hours=rng.choice([0, 0, 3])) for _ in range(rng.randint(1, 3))]
        if kind == "date":
            series.lines.append("RDATE;VALUE=DATE:" + ",".join(d.strftime("%Y%m%d") for d in dates))
        elif kind != "floating" and rng.random() < 0.3:
            # PERIOD values: their own length.
            params, _ = value(kind, tzid, start)
            series.lines.append(
                f"RDATE;VALUE=PERIOD{params}:" + ",".join(value(kind, tzid, d)[1] + "/PT45M" for d in dates))
            series.features.add("rdate-period")
        else:
            params, _ = value(kind, tzid, start)
            series.lines.append(f"RDATE{params}:" + ",".join(value(kind, tzid, d)[1] for d in dates))
    return series


def instances_of(master_text):
    """Instance starts of a master alone (to pick EXDATEs and overrides from)."""
    calendar = icalendar.Calendar.from_ical(master_text)
    found = []
    for item in recurring_ical_events.of(calendar).between(WINDOW[0] - dt.timedelta(days=400), WINDOW[1]):
        found.append(item["DTSTART"].dt)
        if len(found) > 300:
            break
    return found


def calendar_text(lines):
    return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//ICSKit//differential//EN\r\n" + "".join(
        line + "\r\n" for line in lines) + "END:VCALENDAR\r\n"


def make_calendar(seed):
    rng = random.Random(seed)
    custom_zone = rng.random() < 0.25
    blocks = []
    all_series = []
    for number in range(rng.randint(1, 3)):
        series = make_series(rng, f"s{seed}-{number}", custom_zone)
        master = ["BEGIN:VEVENT"] + series.lines + ["END:VEVENT"]
        zone_text = CUSTOM_ZONE if custom_zone else ""
        starts = []
        if series.rule:
            try:
                starts = instances_of(("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\n" + zone_text + "".join(
                    line + "\r\n" for line in master) + "END:VCALENDAR\r\n").encode())
            except Exception:
                starts = []
        extra = []
        if starts and rng.random() < 0.4:
            excluded = rng.sample(starts, min(len(starts), rng.randint(1, 3)))
            texts = [value(series.kind, series.tzid, s.replace(tzinfo=None) if isinstance(s, dt.datetime) and series.kind != "utc"
                           else s.astimezone(dt.timezone.utc).replace(tzinfo=None) if isinstance(s, dt.datetime) else
                           dt.datetime(s.year, s.month, s.day)) for s in excluded]
            extra.append(f"EXDATE{texts[0][0]}:" + ",".join(t[1] for t in texts))
            series.features.add("exdate")
        master = ["BEGIN:VEVENT"] + series.lines + extra + ["END:VEVENT"]
        blocks += master
        if starts and rng.random() < 0.5:
            for index, original in enumerate(rng.sample(starts, min(len(starts), rng.randint(1, 3)))):
                wall = original.replace(tzinfo=None) if isinstance(original, dt.datetime) and series.kind != "utc" else (
                    original.astimezone(dt.timezone.utc).replace(tzinfo=None) if isinstance(original, dt.datetime)
                    else dt.datetime(original.year, original.month, original.day))
                id_params, id_text = value(series.kind, series.tzid, wall)
                range_part = ""
                if series.rule and rng.random() < 0.1:
                    range_part = ";RANGE=THISANDFUTURE"
                    series.features.add("thisandfuture")
                # Moved by hours or days, sometimes far out of the window.
                shift = rng.choice([dt.timedelta(hours=2), dt.timedelta(days=1), dt.timedelta(days=-3),
                                    dt.timedelta(days=3000), dt.timedelta(hours=-5)])
                moved = wall + (shift if series.kind != "date" else dt.timedelta(days=shift.days or 1))
                start_params, start_text = value(series.kind, series.tzid, moved)
                blocks += ["BEGIN:VEVENT", f"UID:{series.uid}", "DTSTAMP:20240101T000000Z",
                           f"RECURRENCE-ID{id_params}{range_part}:{id_text}", f"SUMMARY:{series.uid} moved {index}",
                           f"DTSTART{start_params}:{start_text}",
                           "DURATION:P1D" if series.kind == "date" else "DURATION:PT50M", "END:VEVENT"]
                series.features.add("override")
        if rng.random() < 0.1:
            # An orphan override: its RECURRENCE-ID names no instance.
            orphan = series.start + dt.timedelta(days=rng.randint(1, 40), hours=0 if series.kind == "date" else 1, minutes=7)
            if series.kind == "date":
                orphan = dt.datetime(orphan.year, orphan.month, orphan.day)
            id_params, id_text = value(series.kind, series.tzid, orphan)
            start_params, start_text = value(series.kind, series.tzid, orphan + dt.timedelta(days=1))
            blocks += ["BEGIN:VEVENT", f"UID:{series.uid}", "DTSTAMP:20240101T000000Z",
                       f"RECURRENCE-ID{id_params}:{id_text}", f"SUMMARY:{series.uid} orphan",
                       f"DTSTART{start_params}:{start_text}",
                       "DURATION:P1D" if series.kind == "date" else "DURATION:PT20M", "END:VEVENT"]
            series.features.add("orphan")
        all_series.append(series)
    text = calendar_text(blocks)
    calendar = icalendar.Calendar.from_ical(text.encode())
    if not custom_zone and rng.random() < 0.6:
        calendar.add_missing_timezones()  # VTIMEZONE blocks from tzdata
    data = calendar.to_ical()
    if custom_zone:
        data = data.replace(b"BEGIN:VEVENT", CUSTOM_ZONE.encode() + b"BEGIN:VEVENT", 1)
    return data, all_series


def normalized(moment):
    if isinstance(moment, dt.datetime):
        if moment.tzinfo is None:
            return moment.strftime("%Y-%m-%dT%H:%M:%S")
        return moment.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    return moment.isoformat()


# Instances are compared when they start well inside the window: at its edges the two read the window differently
# (recurring-ical-events in each event's own zone, icskit in --tz).
COMPARED = (dt.date(2024, 1, 4).isoformat(), dt.date(2027, 12, 28).isoformat())


def inside(row):
    return COMPARED[0] <= row[1][:10] <= COMPARED[1]


def reference(data):
    """recurring-ical-events' instances, and those whose end it puts before their start (swapped, see
    docs/DEVIATIONS.md: a DTSTART in a DST gap with a DTEND just after it)."""
    calendar = icalendar.Calendar.from_ical(data)
    rows, swapped = set(), set()
    for item in recurring_ical_events.of(calendar).between(*WINDOW):
        start, end = normalized(item["DTSTART"].dt), normalized(item["DTEND"].dt)
        uid, summary = str(item["UID"]), str(item["SUMMARY"])
        if end < start and len(start) == len(end):
            swapped.add(uid)
            start, end = end, start
        rows.add((uid, start, end, summary))
    return {row for row in rows if inside(row)}, swapped


def near_custom_transition(row):
    """Whether an instance starts or ends within a day of a change of the hand-written zone (second Sunday of
    March, first Sunday of November)."""
    def changes(year):
        march = dt.date(year, 3, 1)
        november = dt.date(year, 11, 1)
        return [march + dt.timedelta(days=(6 - march.weekday()) % 7 + 7),
                november + dt.timedelta(days=(6 - november.weekday()) % 7)]
    for text in (row[1], row[2]):
        day = dt.date.fromisoformat(text[:10])
        if any(abs((day - change).days) <= 1 for change in changes(day.year)):
            return True
    return False


def override_ids(data, uid):
    """Each override's RECURRENCE-ID as a row would carry it (by its SUMMARY): an override is dropped by
    recurring-ical-events when its RECURRENCE-ID collides with an EXDATE (`rie-wall-utc-collision`)."""
    ids = {}
    for event in icalendar.Calendar.from_ical(data).walk("VEVENT"):
        if str(event["UID"]) == uid and "RECURRENCE-ID" in event:
            ids[str(event["SUMMARY"])] = (uid, normalized(event["RECURRENCE-ID"].dt), "", str(event["SUMMARY"]))
    return ids


def duplicate_override(data, uid):
    """Whether two overrides of a series name the same instance (invalid in RFC 5545: ICSKit keeps both, with a
    warning when it reads them; recurring-ical-events keeps one)."""
    seen = set()
    for event in icalendar.Calendar.from_ical(data).walk("VEVENT"):
        if str(event["UID"]) == uid and "RECURRENCE-ID" in event:
            key = normalized(event["RECURRENCE-ID"].dt)
            if key in seen:
                return True
            seen.add(key)
    return False


def compact(moment):
    return moment.strftime("%Y%m%dT%H%M%S")


def zoned_keys(data, uid):
    """The wall-clock and the UTC times (`YYYYMMDDTHHMMSS`) of the zoned RECURRENCE-ID, RDATE and EXDATE values of a
    series: recurring-ical-events matches instances by both, so an instance whose UTC time reads as one of their
    wall times, or whose wall time reads as one of their UTC times, is taken for it (docs/DEVIATIONS.md)."""
    walls, utcs = set(), set()

    def add(moment):
        if isinstance(moment, tuple):
            moment = moment[0]
        if isinstance(moment, dt.datetime) and moment.tzinfo is not None and moment.utcoffset() != dt.timedelta(0):
            walls.add(compact(moment))
            utcs.add(compact(moment.astimezone(dt.timezone.utc)))

    for event in icalendar.Calendar.from_ical(data).walk("VEVENT"):
        if str(event["UID"]) != uid:
            continue
        if "RECURRENCE-ID" in event:
            add(event["RECURRENCE-ID"].dt)
        for name in ("RDATE", "EXDATE"):
            values = event.get(name)
            for entry in values if isinstance(values, list) else ([values] if values is not None else []):
                for moment in entry.dts:
                    add(moment.dt)
    return walls, utcs


def collides(row, tzid, keys):
    """Whether an instance is one recurring-ical-events confuses with a zoned value of its series."""
    walls, utcs = keys
    if not row[1].endswith("Z"):
        return False
    utc = dt.datetime.strptime(row[1], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=dt.timezone.utc)
    if compact(utc) in walls:
        return True
    if tzid is None:
        return False
    zone = custom_zone() if tzid == "Custom Harbour Time" else zoneinfo.ZoneInfo(tzid)
    return compact(utc.astimezone(zone)) in utcs


_custom_zone = []


def custom_zone():
    """The hand-written zone as a tzinfo (python icalendar builds it from the VTIMEZONE)."""
    if not _custom_zone:
        text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\n" + CUSTOM_ZONE + "END:VCALENDAR\r\n"
        _custom_zone.append(icalendar.Calendar.from_ical(text).walk("VTIMEZONE")[0].to_tz())
    return _custom_zone[0]


def gap_exdate(data, uid):
    """Whether an EXDATE of the series names a wall time inside a DST gap, which is the same instant as the wall
    time an hour later (`gap-exdate-instant` in docs/DEVIATIONS.md)."""
    for event in icalendar.Calendar.from_ical(data).walk("VEVENT"):
        values = event.get("EXDATE") if str(event["UID"]) == uid else None
        for entry in values if isinstance(values, list) else ([values] if values is not None else []):
            for moment in (value.dt for value in entry.dts):
                if isinstance(moment, dt.datetime) and moment.tzinfo is not None:
                    back = moment.astimezone(dt.timezone.utc).astimezone(moment.tzinfo)
                    if back.replace(tzinfo=None) != moment.replace(tzinfo=None):
                        return True
    return False


def dateutil_starts(data, uid, by_instant=False):
    """The instance starts of a sub-daily series by python-dateutil (rule, RDATE, EXDATE, overrides applied by
    hand): recurring-ical-events drops instances of HOURLY series that have an EXDATE or an override
    (docs/DEVIATIONS.md), so such series are checked against this instead. dateutil excludes an EXDATE's wall
    time; `by_instant` excludes every instance at the EXDATE's instant (RFC 5545's set of start times)."""
    from dateutil.rrule import rrulestr, rruleset
    calendar = icalendar.Calendar.from_ical(data)
    events = [event for event in calendar.walk("VEVENT") if str(event["UID"]) == uid]
    master = next(event for event in events if "RECURRENCE-ID" not in event)
    start = master["DTSTART"].dt
    rules = rruleset()
    rules.rrule(rrulestr(master["RRULE"].to_ical().decode(), dtstart=start))
    rules.rdate(start)  # DTSTART is always the first instance (RFC 5545 §3.8.5.3), as in recurring-ical-events
    for rdate in master.get("RDATE", []) if isinstance(master.get("RDATE"), list) else [master.get("RDATE")]:
        for period in (rdate.dts if rdate is not None else []):
            moment = period.dt[0] if isinstance(period.dt, tuple) else period.dt
            rules.rdate(moment)
    excluded = set()
    for exdate in master.get("EXDATE", []) if isinstance(master.get("EXDATE"), list) else [master.get("EXDATE")]:
        for moment in (exdate.dts if exdate is not None else []):
            rules.exdate(moment.dt)
            excluded.add(normalized(moment.dt))
    starts = {normalized(moment) for moment in rules}
    if by_instant:
        starts -= excluded
    # An EXDATE wins over an override of the same instance (as both recurring-ical-events and icskit read it).
    overrides = [event for event in events
                 if "RECURRENCE-ID" in event and normalized(event["RECURRENCE-ID"].dt) not in excluded]
    # Every override replaces its instance (an orphan replaces none) and stands at its own start.
    starts -= {normalized(override["RECURRENCE-ID"].dt) for override in overrides}
    starts |= {normalized(override["DTSTART"].dt) for override in overrides}
    return {start for start in starts if COMPARED[0] <= start[:10] <= COMPARED[1]}


def prepare(task):
    """Makes calendar `index` of a seed, writes it, and expands it with the reference (run in a worker)."""
    seed, index, folder = task
    data, series = make_calendar(seed * 1_000_003 + index)
    name = f"c{seed}-{index}"
    with open(os.path.join(folder, name + ".ics"), "wb") as handle:
        handle.write(data)
    try:
        theirs, swapped = reference(data)
        error = None
    except Exception as failure:  # python cannot expand it: not a comparison
        theirs, swapped, error = set(), set(), str(failure)
    return name, index, data, series, theirs, swapped, error


def classify(item, mine, reference_rows, swapped, data):
    """None when the two agree, else the name of the documented deviation that explains it, else "unexplained"."""
    if mine == reference_rows:
        return None
    differing = mine ^ reference_rows
    if "thisandfuture" in item.features:
        return "thisandfuture"
    if item.uid in swapped and {(row[0], row[3]) for row in mine} == {(row[0], row[3]) for row in reference_rows}:
        return "end-before-start"
    if item.rule and "FREQ=HOURLY" in item.rule and ({"exdate", "override", "orphan"} & item.features):
        if {row[1] for row in mine} == dateutil_starts(data, item.uid):
            return "rie-subdaily-exdate"
        if gap_exdate(data, item.uid) and {row[1] for row in mine} == dateutil_starts(data, item.uid, True):
            return "gap-exdate-instant"
    if item.rule and "BYWEEKNO" in item.rule and any(
            row[1][5:10] >= "12-22" or row[1][5:10] <= "01-10" for row in differing) and (
            "COUNT=" in item.rule or all(row[1][5:10] >= "12-22" or row[1][5:10] <= "01-10" for row in differing)):
        return "byweekno-year-end"  # with COUNT, a year-end difference also shifts the instances after it
    if item.tzid == "Custom Harbour Time" and all(near_custom_transition(row) for row in differing):
        return "rie-custom-zone-gap"
    keys = zoned_keys(data, item.uid)
    moved = override_ids(data, item.uid)
    if all(collides(row, item.tzid, keys) or collides(moved.get(row[3], ("", "", "")), item.tzid, keys)
           for row in differing):
        return "rie-wall-utc-collision"
    if duplicate_override(data, item.uid):
        return "duplicate-override"
    return "unexplained"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--icskit", required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--only", type=int, help="just this calendar index")
    parser.add_argument("--keep", help="write the calendars into this folder (else a temporary one)")
    parser.add_argument("--batch", type=int, default=500, help="calendars per icskit run")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    parser.add_argument("--show", type=int, default=10, help="disagreements printed in full")
    parser.add_argument("--progress", action="store_true", help="the summary so far after each batch, on stderr")
    args = parser.parse_args()

    indices = [args.only] if args.only is not None else list(range(args.count))
    folder = args.keep or tempfile.mkdtemp(prefix="icskit-differential-")
    os.makedirs(folder, exist_ok=True)
    summary = {"seed": args.seed, "calendars": 0, "series": 0, "instances": 0, "agree": 0,
               "explained": 0, "explanations": {}, "unexplained": 0, "reference_failed": 0, "features": {}}
    shown = 0
    with multiprocessing.Pool(args.jobs) as pool:
        for offset in range(0, len(indices), args.batch):
            batch = indices[offset:offset + args.batch]
            made = pool.map(prepare, [(args.seed, index, folder) for index in batch], chunksize=8)
            run = subprocess.run(
                [args.icskit, "agenda", *[os.path.join(folder, entry[0] + ".ics") for entry in made], "--from",
                 WINDOW[0].isoformat(), "--to", WINDOW[1].isoformat(), "--tz", "UTC", "--json", "-q",
                 "--max-total", "100000000"], capture_output=True, text=True)
            if run.returncode != 0:
                print(run.stderr, file=sys.stderr)
                sys.exit(2)
            ours = {entry[0]: set() for entry in made}
            for row in json.loads(run.stdout):
                ours[row["calendar"]].add((row["uid"], row["start"], row["end"], row["summary"]))
            for name, index, data, series, theirs, swapped, error in made:
                summary["calendars"] += 1
                summary["series"] += len(series)
                for item in series:
                    for feature in item.features:
                        summary["features"][feature] = summary["features"].get(feature, 0) + 1
                if error is not None:
                    summary["reference_failed"] += 1
                    if shown < args.show:
                        print(f"reference failed on {name} (--only {index}): {error}")
                    continue
                summary["instances"] += len(theirs)
                for item in series:
                    mine = {row for row in ours[name] if row[0] == item.uid and inside(row)}
                    reference_rows = {row for row in theirs if row[0] == item.uid}
                    verdict = classify(item, mine, reference_rows, swapped, data)
                    if verdict is None:
                        summary["agree"] += 1
                    elif verdict != "unexplained":
                        summary["explained"] += 1
                        summary["explanations"][verdict] = summary["explanations"].get(verdict, 0) + 1
                    else:
                        summary["unexplained"] += 1
                        if shown < args.show:
                            shown += 1
                            print(f"== {name} (--only {index}) series {item.uid}: {sorted(item.features)}")
                            for row in sorted(mine - reference_rows)[:6]:
                                print("   icskit only:", row)
                            for row in sorted(reference_rows - mine)[:6]:
                                print("   recurring-ical-events only:", row)
            if args.progress:
                print(f"progress: {json.dumps(summary, sort_keys=True)}", file=sys.stderr, flush=True)
            if not args.keep:
                for entry in made:
                    os.remove(os.path.join(folder, entry[0] + ".ics"))
    if not args.keep:
        os.rmdir(folder)
    print(json.dumps(summary, sort_keys=True))
    sys.exit(1 if summary["unexplained"] else 0)


if __name__ == "__main__":
    main()
