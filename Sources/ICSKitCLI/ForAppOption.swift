import ArgumentParser
import CalendarModel

/// `--for outlook|google|apple`: check or write a calendar for that app's import (docs/APPS.md lists its rules).
struct ForAppOption: ParsableArguments {
    @Option(
        name: .customLong("for"),
        help: ArgumentHelp(
            "Check or write for this app's import: outlook, google or apple (its rules: docs/APPS.md).",
            valueName: "app"))
    var app: TargetApp?

    /// Each calendar as `app` takes it (`ICalendar.adapted(for:zone:file:)`): several VCALENDARs of one file as
    /// one where they are one calendar, one METHOD each, every change reported.
    static func adapt(_ read: inout ICS.ReadResult, for app: TargetApp, zone: CalendarZone, name: String) {
        if read.calendars.count > 1, let one = ICalendar.combiningForPeers(read.calendars) {
            read.calendars = [one]
            read.diagnostics.append(
                Diagnostic(
                    .warning, file: name, line: 1, "repaired: several VCALENDARs written as one",
                    code: "repair-calendars-joined"))
        }
        var calendars: [ICalendar] = []
        for calendar in read.calendars {
            let split = calendar.splittingMethods(file: name)
            read.diagnostics += split.diagnostics
            for part in split.calendars {
                let adapted = part.adapted(for: app, zone: zone, file: name)
                read.diagnostics += adapted.diagnostics
                calendars.append(adapted.calendar)
            }
        }
        read.calendars = calendars
    }
}

extension TargetApp: ExpressibleByArgument {}
