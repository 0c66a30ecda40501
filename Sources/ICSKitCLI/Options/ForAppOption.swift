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

    /// Each calendar as `app` takes it (`ICalendar.adapted(for:zone:file:)`), from the parts `--repair` starts
    /// from, every change reported.
    static func adapt(_ read: inout ICS.ReadResult, for app: TargetApp, zone: CalendarZone, name: String) {
        ConvertCommand.eachPart(&read, name: name) { $0.adapted(for: app, zone: zone, file: name) }
    }
}

extension TargetApp: ExpressibleByArgument {}
