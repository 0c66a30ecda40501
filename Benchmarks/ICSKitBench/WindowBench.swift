import CalendarModel
import Foundation

/// What a widget asks again and again: one week's instances, against the cost of the year around it (issue 62).
/// In-process, `ICalendar.occurrences(from:to:)`, the week and the year measured in turns.
enum WindowBench {
    /// A planner's calendar: long series with COUNT (weekly on three days, daily, monthly, yearly), series without
    /// an end, and series started years before the week looked at, in Berlin's zone.
    static func plannerCalendar(series: Int) -> ICalendar {
        let shapes = [
            "FREQ=WEEKLY;BYDAY=MO,WE,FR;COUNT=2000", "FREQ=DAILY;COUNT=5000", "FREQ=MONTHLY;BYMONTHDAY=15;COUNT=400",
            "FREQ=YEARLY;COUNT=100", "FREQ=WEEKLY;BYDAY=TU,TH", "FREQ=DAILY;INTERVAL=2",
            "FREQ=MONTHLY;BYDAY=1MO;COUNT=300", "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR;COUNT=1000",
        ]
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//ICSKit//WindowBench//EN"]
        for index in 0..<series {
            let year = 2012 + index % 12, month = 1 + index % 12, day = 1 + index % 28
            let start = String(format: "%04d%02d%02dT%02d%02d00", year, month, day, 7 + index % 10, index % 4 * 15)
            lines += [
                "BEGIN:VEVENT", "UID:window-\(index)@bench", "DTSTAMP:20260101T000000Z",
                "DTSTART;TZID=Europe/Berlin:\(start)", "DURATION:PT45M", "SUMMARY:Series \(index)",
                "RRULE:\(shapes[index % shapes.count])", "END:VEVENT",
            ]
        }
        lines.append("END:VCALENDAR")
        return ICS.read(Array((lines.joined(separator: "\r\n") + "\r\n").utf8)).calendars[0]
    }

    static func run(input: String, runs: Int, command: String) throws -> String {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: input)))
        let cases: [(name: String, calendar: ICalendar, week: Date)] = [
            ("planner: 800 series, 8 shapes, begun 2012–2023", plannerCalendar(series: 800), date(2030, 6, 3)),
            ("gen_ics.py 20000", ICS.read(bytes, file: input).calendars[0], date(2026, 6, 1)),
        ]
        let zone = try CalendarZone("Europe/Berlin")
        var rows: [String] = []
        var worst = 0.0
        for (name, calendar, monday) in cases {
            let week = zone.week(containing: monday)
            let year = DateInterval(start: date(2030, 1, 1), end: date(2031, 1, 1))
            let yearOfCase =
                monday < date(2027, 1, 1) ? DateInterval(start: date(2026, 1, 1), end: date(2027, 1, 1)) : year
            var weekSeconds: [Double] = [], yearSeconds: [Double] = []
            var counts = (week: 0, year: 0)
            for _ in 0..<max(runs, 5) {
                var start = Measure.now()
                counts.week = calendar.occurrences(from: week.start, to: week.end).occurrences.count
                weekSeconds.append(Measure.now() - start)
                start = Measure.now()
                counts.year = calendar.occurrences(from: yearOfCase.start, to: yearOfCase.end).occurrences.count
                yearSeconds.append(Measure.now() - start)
            }
            let (weekMedian, yearMedian) = (median(weekSeconds), median(yearSeconds))
            worst = max(worst, weekMedian / yearMedian)
            rows.append(
                "| \(name) | \(counts.week) | \(String(format: "%.4f", weekMedian)) | \(counts.year) | "
                    + "\(String(format: "%.4f", yearMedian)) | \(Report.ratio(weekMedian, yearMedian)) | ≤ 0.10× | "
                    + "\(weekMedian / yearMedian <= 0.10 ? "met" : "**NOT met**") |")
        }
        return [
            "### Window: a week's instances against the year's", "",
            "- date: \(ISO8601DateFormatter().string(from: Date()))",
            "- machine: \(Report.machine)",
            "- command: `\(command)`; in-process `ICalendar.occurrences(from:to:)`, zone Europe/Berlin, the week and "
                + "the year taken in turns, median of \(max(runs, 5))", "",
            "| calendar | week instances | week s | year instances | year s | week / year | goal | |",
            "|---|---:|---:|---:|---:|---:|---:|---|",
        ].joined(separator: "\n") + "\n" + rows.joined(separator: "\n") + "\n\n"
            + "- Rules walk from the period before the window, not from DTSTART; a rule with COUNT whose periods "
            + "hold the same number of instances counts the periods it passes (RecurrenceEngine.skip, "
            + "CountSkipPropertyTests). Worst week / year: \(Report.format(worst))×.\n"
            + "- What a call costs whatever its window is per item, not per instance: grouping every component "
            + "into series (a copy of each item) and comparing the file's VTIMEZONEs with tzdata at the times the "
            + "calendar uses. On gen_ics.py 20000 (20,000 items, most of them single events) that is most of the "
            + "week's time; it is the ground of issue 63's year and week figures, not a walk from DTSTART."
    }

    static func date(_ year: Int, _ month: Int, _ day: Int) -> Date {
        var components = DateComponents(year: year, month: month, day: day)
        components.timeZone = TimeZone(identifier: "UTC")
        return Calendar(identifier: .gregorian).date(from: components)!
    }

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
}
