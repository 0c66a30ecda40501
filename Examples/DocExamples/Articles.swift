import CalendarModel
import Foundation

// The Swift blocks of README.md and of CalendarModel's DocC articles, each between `// doc: NAME` and `// end`,
// as they stand there (DocCodeTests checks that every block is here, word for word). `DocExamples` runs them all
// in a folder holding the files they name; the checks after each block say what it should have done.

func readingAFile() throws {
    // doc: reading
    let result = try ICS.read(contentsOf: "work.ics")
    for diagnostic in result.diagnostics where diagnostic.severity == .error {
        print(diagnostic)  // work.ics:12: error: VEVENT has no UID; it is read without one
    }
    for calendar in result.calendars {
        print(calendar.displayName ?? "untitled", calendar.events.count, "events,", calendar.todos.count, "todos")
        for event in calendar.events where event.isRecurring {
            print(event.summary ?? "", event.recurrenceRules.map(\.icsValue))
        }
    }
    let json = CalendarFormat.jcal.write(result.calendars)  // RFC 7265
    let again = CalendarFormat.jcal.read(json, file: "work.json")
    // end
    check(!result.calendars.isEmpty && again.calendars[0].events == result.calendars[0].events, "jCal round trip")
}

func expandingAWeek() throws {
    // doc: week
    let calendar = try ICS.read(contentsOf: "work.ics").calendars[0]
    var options = ExpansionOptions()
    options.viewerZone = try CalendarZone("Europe/Berlin")  // where floating times and all-day dates fall
    options.components = [.event, .todo]
    let monday = try CalendarDate(year: 2026, month: 11, day: 23).date(in: options.viewerZone)!
    let week = options.viewerZone.week(containing: monday)  // Monday 00:00 to Monday 00:00, 167 to 169 hours
    let expansion = calendar.occurrences(from: week.start, to: week.end, options: options)
    for occurrence in expansion.occurrences {
        let start = CalendarDate(occurrence.interval.start, in: options.viewerZone)
        print(start, occurrence.summary ?? "", occurrence.isOverride ? "(moved)" : "")
    }
    // end
    check(!expansion.occurrences.isEmpty, "the demo week has instances")
    check(expansion.occurrences.allSatisfy { week.intersects($0.interval) }, "instances in the week")
}

func makingItems() throws {
    // doc: making
    let berlin = try CalendarZone("Europe/Berlin")
    let nine = try CalendarDate(
        year: 2026, month: 11, day: 23, hour: 9, minute: 0, second: 0, form: .zoned(tzid: TimeZoneID(berlin)))
    var standup = Event(summary: "Standup", start: nine)  // UID and DTSTAMP filled in
    standup.duration = CalendarDuration(minutes: 15)
    standup.recurrenceRules = [try RecurrenceRule.parse("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR").get()]
    standup.alarms = [Alarm(displaying: "Standup in 5 minutes", before: CalendarDuration(minutes: 5))]

    var report = Todo(summary: "Write the report", due: try CalendarDate(year: 2026, month: 11, day: 27))
    report.priority = 1

    var calendar = ICalendar()  // written with VERSION:2.0, a PRODID and a VTIMEZONE for Europe/Berlin
    calendar.components = [.event(standup), .todo(report)]
    report.markCompleted()
    calendar[uid: report.uid!] = .todo(report)  // the item of that UID, replaced
    let problems = calendar.validate()  // what `icskit validate` would say: nothing
    try Data(ICS.write([calendar])).write(to: URL(fileURLWithPath: "planner.ics"), options: .atomic)
    // end
    check(problems.isEmpty, "a calendar made in code is valid: \(problems)")
    let written = try ICS.read(contentsOf: "planner.ics")
    check(written.diagnostics.isEmpty && written.calendars[0].todos[0].isCompleted, "written and read back")
    check(written.calendars[0].timeZones.map(\.tzid) == ["Europe/Berlin"], "its VTIMEZONE")
}

func categoriesAndColours() throws {
    // doc: colours
    var calendar = try ICS.read(contentsOf: "work.ics").calendars[0]
    calendar.updateEvents { event in
        guard event.summary?.lowercased().contains("review") == true else { return }
        event.categories.append(Category("Reviews", color: "#D9822B"))  // a colour for the category
        event.color = "darkorange"  // RFC 7986 COLOR: a colour for this event alone
    }
    let written = ICS.write([calendar])  // X-ICSKIT-CATEGORY-COLOR;X-CATEGORY=Reviews:#D9822B
    let reread = ICS.read(written).calendars[0]
    let reviews = reread.events.flatMap(\.categories).filter { $0.name == "Reviews" }
    // end
    check(!reviews.isEmpty && reviews.allSatisfy { $0.color == "#D9822B" }, "category colours travel")
}

func timeZones() throws {
    // doc: zones
    let berlin = try CalendarZone("Europe/Berlin")
    let sameZone = try CalendarZone("W. Europe Standard Time")  // Outlook's name: Europe/Berlin
    let typo = try? CalendarZone("Europe/Berln")  // nil: a name no zone has is an error, never UTC

    let instant = Date(timeIntervalSince1970: 1_795_420_800)  // 2026-11-23T08:00:00Z
    let nineInBerlin = CalendarDate(instant, in: berlin)  // 20261123T090000, TZID=Europe/Berlin
    let eightUTC = CalendarDate(instant, in: .utc)  // 20261123T080000Z
    let back = nineInBerlin.date()  // the same instant
    let sorted = [nineInBerlin, eightUTC].sorted()  // by instant: equal, so as given
    let wallFirst = eightUTC.isWallClockBefore(nineInBerlin)  // 08:00 is before 09:00 on the wall
    let foundation: TimeZone = berlin.timeZone
    // end
    check(sameZone == berlin && typo == nil && back == instant && wallFirst, "zones")
    check(sorted == [nineInBerlin, eightUTC] && nineInBerlin.icsValue == "20261123T090000", "instants")
    check(foundation.identifier == "Europe/Berlin", "Foundation's zone")

    let calendar = try ICS.read(contentsOf: "work.ics").calendars[0]
    // doc: zoneids
    let nine = try CalendarDate(
        year: 2026, month: 11, day: 23, hour: 9, minute: 0, second: 0, form: .zoned(tzid: TimeZoneID(berlin)))
    let outlook = try TimeZoneID("W. Europe Standard Time")  // name kept, zone Europe/Berlin
    let office = try? TimeZoneID("Office Time", definedIn: calendar)  // nil unless a VTIMEZONE defines it
    // end
    check(nine == nineInBerlin && outlook.zone == berlin && office == nil, "checked zone names")
}

func readmeEditLoop() throws {
    // doc: readme
    let result = try ICS.read(contentsOf: "work.ics")
    for diagnostic in result.diagnostics { print(diagnostic) }  // work.ics:12: warning: …

    var calendar = result.calendars[0]
    calendar.updateEvents { event in  // in place: the calendar changes
        guard event.summary == "Stand-up" else { return }
        event.location = "Room 4"
        event.categories.append(Category("Team", color: "#3366FF"))
    }
    let bytes = ICS.write([calendar])  // unchanged events come back line for line
    let json = CalendarFormat.jcal.write([calendar])  // RFC 7265
    let xml = CalendarFormat.xcal.write([calendar])  // RFC 6321
    let csv = CalendarFormat.csv.write([calendar])  // Google Calendar's CSV layout
    // end
    check(!bytes.isEmpty && !json.isEmpty && !xml.isEmpty && !csv.isEmpty, "every format written")
    let standups = ICS.read(bytes).calendars[0].events.filter { $0.summary == "Stand-up" }
    check(!standups.isEmpty && standups.allSatisfy { $0.location == "Room 4" }, "the edit is in the calendar")
}

func editingASeries() throws {
    // doc: series
    var calendar = try ICS.read(contentsOf: "work.ics").calendars[0]
    let berlin = try CalendarZone("Europe/Berlin")
    let instance = try CalendarDate(
        year: 2026, month: 11, day: 30, hour: 9, minute: 15, second: 0,
        form: .zoned(tzid: TimeZoneID(berlin))
    ).date(in: berlin)!
    try calendar.editSeries(uid: "standup-7f3a@google.com", instance: instance, scope: .thisInstance) { item in
        item.core?.location = "Room 4"  // Monday 30 November only
    }
    let week = berlin.week(containing: instance)
    for time in calendar.alarmTimes(from: week.start, to: week.end, zone: berlin) {
        print(CalendarDate(time.fires, in: berlin), time.alarm.description ?? "", time.uid ?? "")
    }
    // end
    check(
        calendar[uid: "standup-7f3a@google.com", recurrenceID: "20261130T081500Z"]?.core?.location == "Room 4",
        "the instance's override holds the change")
    check(calendar[uid: "standup-7f3a@google.com"]?.core?.location != "Room 4", "the series is not changed")
    check(
        (try? calendar.editSeries(uid: "standup-7f3a@google.com", instance: instance + 60, scope: .thisInstance) { _ in
        }) == nil, "a minute later is no instance")
}
