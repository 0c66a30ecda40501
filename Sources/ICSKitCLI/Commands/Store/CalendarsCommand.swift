import ArgumentParser
import CalendarModel
import CalendarStore
import Foundation

/// `icskit calendars`: the store's calendars, and their colour, name and removal.
struct CalendarsCommand: ParsableCommand, ChecksWhatIsGiven {
    static let configuration = CommandConfiguration(
        commandName: "calendars", abstract: "List the store's calendars; set a colour, rename or remove one.",
        discussion: """
            The list shows each calendar's items, colour (its own, or the one the store gives it: distinct \
            among calendars without one), and where its items come from: the file it was imported from, the web \
            calendar it follows, what it syncs with. Removing a calendar removes its items, merge bases, \
            subscription and sync state; on a terminal icskit asks first, elsewhere it needs --yes.

            Examples:
              icskit calendars
              icskit calendars Work --set-color "#3366FF"
              icskit calendars Work --rename Job
              icskit calendars Old --remove --yes
            """)

    @Argument(help: "The calendar to change (none: list them all).", completion: CalendarCompletion.kind)
    var name: String?

    @Option(help: ArgumentHelp("Give it this colour (#RRGGBB), or none.", valueName: "COLOR"))
    var setColor: String?

    @Option(help: ArgumentHelp("Give it this name.", valueName: "NEW-NAME"))
    var rename: String?

    @Flag(help: "Remove it with everything it holds.")
    var remove = false

    @Flag(help: "Remove without asking.")
    var yes = false

    @Flag(help: "List as JSON.")
    var json = false

    @OptionGroup var store: StoreOption

    func validate() throws {
        let actions = [setColor != nil, rename != nil, remove].filter { $0 }.count
        if actions > 1 { throw ValidationError("give one of --set-color, --rename and --remove") }
        if actions == 1, name == nil { throw ValidationError("name the calendar to change") }
        if let setColor, setColor.lowercased() != "none", !CategoryColor.isHex(setColor) {
            throw ValidationError("--set-color takes #RRGGBB or none, not \(setColor)")
        }
        if let rename, rename.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--rename needs a name")
        }
    }

    func checkGiven() throws {
        if [setColor != nil, rename != nil, remove].allSatisfy({ !$0 }), let name {
            throw ValidationError("say what to do with \(name): --set-color, --rename or --remove")
        }
    }

    func run() throws {
        guard let name else { return try list() }
        let opened = try store.open()
        try CalendarFiles.requireCalendar(name, in: opened)
        if let setColor {
            let color = setColor.lowercased() == "none" ? nil : setColor.uppercased()
            try opened.setColor(color, ofCalendar: name)
            Output.line("\(name): colour \(color ?? "none (the store gives it one)")")
        } else if let rename {
            do { try opened.renameCalendar(name, to: rename) } catch let error as StoreError {
                throw CommandFailure(error.description)
            }
            Output.line("renamed: \(name) → \(rename)")
        } else if remove {
            let items = try opened.calendarOverview().first { $0.name == name }?.items ?? 0
            try Confirmation.ask("Remove the calendar \"\(name)\" and its \(items.counted("item"))?", yes: yes)
            let removed = try opened.removeCalendar(name)
            Output.line("removed: the calendar \(name) with \(removed.counted("item"))")
        }
    }

    private func list() throws {
        let opened = try store.open(.readOnly)
        let calendars = try opened.calendarOverview()
        let defaults = PageColors.calendarDefaults(calendars.map { ($0.name, $0.color) })
        if json {
            var writer = JSONWriter(pretty: true)
            writer.beginArray()
            for calendar in calendars {
                writer.beginObject()
                writer.key("name"); writer.string(calendar.name)
                writer.key("items"); writer.int(calendar.items)
                writer.key("color"); writer.string(calendar.color ?? defaults[calendar.name])
                writer.key("color_is_default"); writer.bool(calendar.color == nil)
                writer.key("source"); writer.string(calendar.source.map(URLUserInfo.redacting))
                writer.key("subscription"); writer.string(calendar.subscription.map(URLUserInfo.redacting))
                writer.key("sync"); writer.beginArray()
                for partner in calendar.partners { writer.string(URLUserInfo.redacting(partner)) }
                writer.endArray()
                writer.endObject()
            }
            writer.endArray()
            try Output.writeStandardOutput(writer.takeBytes() + [0x0A])
            return
        }
        guard !calendars.isEmpty else {
            Output.print(CalendarFiles.emptyStoreHint(opened.path))
            return
        }
        let width = calendars.map(\.name.count).max() ?? 0
        let countWidth = calendars.map { $0.items.counted("item").count }.max() ?? 0
        for calendar in calendars {
            let color = (calendar.color?.uppercased() ?? ((defaults[calendar.name] ?? "") + " (given)"))
                .padding(toLength: 15, withPad: " ", startingAt: 0)
            var origin: [String] = calendar.partners.map { "syncs with " + URLUserInfo.redacting($0) }
            if let feed = calendar.subscription { origin.append("follows " + URLUserInfo.redacting(feed)) }
            if origin.isEmpty, let source = calendar.source { origin.append("from " + URLUserInfo.redacting(source)) }
            Output.line(
                calendar.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                    + calendar.items.counted("item").padding(toLength: countWidth, withPad: " ", startingAt: 0)
                    + "  \(color)  " + origin.joined(separator: "; "))
        }
    }
}

/// The question a destructive command asks before it acts.
enum Confirmation {
    /// Asks on a terminal; elsewhere (a script, a pipe) the change needs --yes, and without it nothing is done.
    static func ask(_ question: String, yes: Bool) throws {
        guard !yes else { return }
        guard isatty(STDIN_FILENO) == 1 else {
            throw CommandFailure("\(question) Not done: add --yes to confirm (standard input is not a terminal)")
        }
        try Output.flushStandardOutput()
        FileHandle.standardError.write(Data("\(question) [y/N] ".utf8))
        guard let answer = readLine(), ["y", "yes"].contains(answer.lowercased()) else {
            throw CommandFailure("not done")
        }
    }
}
