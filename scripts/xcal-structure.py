#!/usr/bin/env python3
"""Checks xCal files against the structure of RFC 6321's schema (Appendix A), with Python's own XML parser.

usage: xcal-structure.py FILE...   prints one line per violation, exits 1 if there is any.

What is checked: the root and namespace; components holding <properties> then <components>, and only the
children the schema allows (VALARM in VEVENT/VTODO, STANDARD/DAYLIGHT in VTIMEZONE); each RFC 5545 property's
value elements (type, count, text pattern); <parameters> first, each parameter holding typed values; GEO,
REQUEST-STATUS and RECUR in their element forms, RECUR's parts in the schema's order. Extension properties
(x- and RFC 7986 ones) may hold any single value type, as RFC 6321 section 5 allows.
"""
import re
import sys
import xml.etree.ElementTree as ET

NS = "urn:ietf:params:xml:ns:icalendar-2.0"
DATE = r"\d{4}-\d{2}-\d{2}"
DATE_TIME = r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z?"
DURATION = r"[+-]?P(\d+W|(\d+D)?(T(\d+H)?(\d+M)?(\d+S)?)?)"
PATTERNS = {
    "date": DATE,
    "date-time": DATE_TIME,
    "duration": DURATION,
    "utc-offset": r"[+-]\d{2}:\d{2}(:\d{2})?",
    "integer": r"[+-]?\d+",
    "float": r"[+-]?\d+(\.\d+)?",
    "boolean": r"true|false",
    "time": r"\d{2}:\d{2}:\d{2}Z?",
}
TEXT, SINGLE, MULTI = "text", False, True
# property: (allowed value element names, several values allowed)
PROPERTIES = {
    "calscale": ({"text"}, SINGLE), "method": ({"text"}, SINGLE), "prodid": ({"text"}, SINGLE),
    "version": ({"text"}, SINGLE),
    "attach": ({"uri", "binary"}, SINGLE), "categories": ({"text"}, MULTI), "class": ({"text"}, SINGLE),
    "comment": ({"text"}, SINGLE), "description": ({"text"}, SINGLE), "location": ({"text"}, SINGLE),
    "percent-complete": ({"integer"}, SINGLE), "priority": ({"integer"}, SINGLE),
    "resources": ({"text"}, MULTI), "status": ({"text"}, SINGLE), "summary": ({"text"}, SINGLE),
    "completed": ({"date-time"}, SINGLE), "dtend": ({"date-time", "date"}, SINGLE),
    "due": ({"date-time", "date"}, SINGLE), "dtstart": ({"date-time", "date"}, SINGLE),
    "duration": ({"duration"}, SINGLE), "freebusy": ({"period"}, MULTI), "transp": ({"text"}, SINGLE),
    "tzid": ({"text"}, SINGLE), "tzname": ({"text"}, SINGLE), "tzoffsetfrom": ({"utc-offset"}, SINGLE),
    "tzoffsetto": ({"utc-offset"}, SINGLE), "tzurl": ({"uri"}, SINGLE),
    "attendee": ({"cal-address"}, SINGLE), "contact": ({"text"}, SINGLE), "organizer": ({"cal-address"}, SINGLE),
    "recurrence-id": ({"date-time", "date"}, SINGLE), "related-to": ({"text"}, SINGLE), "url": ({"uri"}, SINGLE),
    "uid": ({"text"}, SINGLE),
    "exdate": ({"date-time", "date"}, MULTI), "rdate": ({"date-time", "date", "period"}, MULTI),
    "rrule": ({"recur"}, SINGLE), "exrule": ({"recur"}, SINGLE),
    "action": ({"text"}, SINGLE), "repeat": ({"integer"}, SINGLE), "trigger": ({"duration", "date-time"}, SINGLE),
    "created": ({"date-time"}, SINGLE), "dtstamp": ({"date-time"}, SINGLE), "last-modified": ({"date-time"}, SINGLE),
    "sequence": ({"integer"}, SINGLE),
}
PARAMETERS = {
    "altrep": "uri", "dir": "uri", "delegated-from": "cal-address", "delegated-to": "cal-address",
    "member": "cal-address", "sent-by": "cal-address", "rsvp": "boolean",
}
VALUE_TYPES = {"binary", "boolean", "cal-address", "date", "date-time", "duration", "float", "integer", "period",
               "recur", "text", "time", "uri", "utc-offset", "unknown"}
RECUR_ORDER = ["freq", "until", "count", "interval", "bysecond", "byminute", "byhour", "byday", "bymonthday",
               "byyearday", "byweekno", "bymonth", "bysetpos", "wkst"]
CHILDREN = {
    # RFC 7953 registers VAVAILABILITY and AVAILABLE after RFC 6321; they are allowed as registered components.
    "vcalendar": {"vevent", "vtodo", "vjournal", "vfreebusy", "vtimezone", "vavailability"},
    "vavailability": {"available"},
    "vevent": {"valarm"}, "vtodo": {"valarm"}, "vtimezone": {"standard", "daylight"},
}


def local(tag):
    if not tag.startswith("{" + NS + "}"):
        raise ValueError(f"element {tag} is outside the xCal namespace")
    return tag[len(NS) + 2:]


class Checker:
    def __init__(self, path):
        self.path = path
        self.problems = []

    def problem(self, where, message):
        self.problems.append(f"{self.path}: {where}: {message}")

    def value(self, where, element):
        name = local(element.tag)
        text = element.text or ""
        if name in PATTERNS and not re.fullmatch(PATTERNS[name], text):
            self.problem(where, f"<{name}> holds {text!r}")
        if name == "period":
            parts = [local(c.tag) for c in element]
            if parts not in (["start", "end"], ["start", "duration"]):
                self.problem(where, f"<period> holds {parts}")
        if name == "recur":
            parts = [local(c.tag) for c in element]
            known = [p for p in parts if p in RECUR_ORDER]
            if not parts or parts[0] != "freq":
                self.problem(where, "<recur> does not start with <freq>")
            if known != sorted(known, key=RECUR_ORDER.index):
                self.problem(where, f"<recur> parts out of the schema's order: {parts}")
            if "until" in parts and "count" in parts:
                self.problem(where, "<recur> has both <until> and <count>")
        if len(element) and name not in ("period", "recur"):
            self.problem(where, f"<{name}> has child elements")

    def property(self, where, element):
        name = local(element.tag)
        children = list(element)
        if children and local(children[0].tag) == "parameters":
            for parameter in children[0]:
                pname = local(parameter.tag)
                values = [local(v.tag) for v in parameter]
                allowed = {PARAMETERS.get(pname, "text"), "text", "unknown"} if pname not in PARAMETERS \
                    else {PARAMETERS[pname]}
                if not values or any(v not in allowed for v in values):
                    self.problem(where, f"parameter <{pname}> holds {values}, expected {sorted(allowed)}")
                for v in parameter:
                    self.value(f"{where}/{pname}", v)
            children = children[1:]
        names = [local(c.tag) for c in children]
        if "parameters" in names:
            self.problem(where, "<parameters> is not the first child")
        if name == "geo":
            if names != ["latitude", "longitude"]:
                self.problem(where, f"<geo> holds {names}")
            return
        if name == "request-status":
            if names not in (["code", "description"], ["code", "description", "data"]):
                self.problem(where, f"<request-status> holds {names}")
            return
        if not names:
            self.problem(where, "no value")
            return
        if name in PROPERTIES:
            allowed, several = PROPERTIES[name]
            if any(n not in allowed for n in names):
                self.problem(where, f"value types {names}, schema allows {sorted(allowed)}")
            if len(names) > 1 and not several:
                self.problem(where, f"{len(names)} values where the schema allows one")
            if len(set(names)) > 1:
                self.problem(where, f"mixed value types {names}")
        else:
            if any(n not in VALUE_TYPES for n in names) or len(set(names)) > 1:
                self.problem(where, f"extension property holds {names}")
        for child in children:
            self.value(where, child)

    def component(self, where, element):
        name = local(element.tag)
        parts = [local(c.tag) for c in element]
        if parts not in (["properties"], ["properties", "components"]):
            self.problem(where, f"<{name}> holds {parts}, expected <properties> then optional <components>")
        for part in element:
            if local(part.tag) == "properties":
                for prop in part:
                    self.property(f"{where}/{local(prop.tag)}", prop)
            elif local(part.tag) == "components":
                for child in part:
                    cname = local(child.tag)
                    if not cname.startswith("x-") and cname not in CHILDREN.get(name, set()):
                        self.problem(where, f"<{cname}> may not stand inside <{name}>")
                    self.component(f"{where}/{cname}", child)

    def run(self):
        root = ET.parse(self.path).getroot()
        if root.tag != "{" + NS + "}icalendar":
            self.problem("/", f"root is {root.tag}")
            return
        calendars = list(root)
        if not calendars:
            self.problem("/", "no <vcalendar>")
        for calendar in calendars:
            if local(calendar.tag) != "vcalendar":
                self.problem("/", f"<{local(calendar.tag)}> at the top")
            self.component("vcalendar", calendar)


def main():
    problems = []
    for path in sys.argv[1:]:
        checker = Checker(path)
        try:
            checker.run()
        except (ET.ParseError, ValueError) as error:
            checker.problem("/", str(error))
        problems += checker.problems
    for line in problems:
        print(line)
    print(f"checked {len(sys.argv) - 1} files, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
