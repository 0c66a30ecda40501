import ArgumentParser
import CalendarModel
import CalendarStore
import Foundation

/// Calendars read from the files a command was given, each with the name it is shown under.
struct CalendarFiles {
    /// The files that held no calendar at all (garbage, an empty file, JSON that is not jCal), as named.
    var withoutCalendars: [String] = []

    struct Source {
        var name: String
        var path: String
        var calendars: [ICalendar]
        /// For a mail: the address its `From:` names (nil inside: it names none); nil for a calendar file.
        var mailSender: String?? = nil

        /// Where its scheduling messages came from; `trusted`: the user vouches for a mail's sender.
        func origin(trusted: Bool) -> SchedulingOrigin {
            guard let mailSender else { return .file }
            return .mail(sender: mailSender, trusted: trusted)
        }
    }

    var sources: [Source] = []
    var diagnostics: [Diagnostic] = []
    /// Whether some file ended before it was complete (a missing END, a cut-off download).
    var isTruncated = false
    /// Read from the store, and it holds no items at all (what to show is a hint, not only "nothing").
    var storeIsEmpty = false

    /// Reads every path (`-` for standard input); a file that cannot be read is a usage error (exit 2).
    /// A directory is read as a vdir (khal's, todoman's, vdirsyncer's): its `.ics` files as one calendar, named by
    /// its `displayname` file, else by the directory.
    /// `reading` hears each path before it is read (a progress line).
    static func read(
        _ paths: [String], csv: CSVOptions = CSVOptions(), reading: (String) -> Void = { _ in }
    ) throws -> CalendarFiles {
        var files = CalendarFiles()
        for path in paths {
            reading(path)
            if path != "-", FileManager.default.isFolder(path) {
                try files.addDirectory(path)
            } else {
                files.add(try bytes(of: path), path: path, csv: csv)
            }
        }
        return files
    }

    /// Every `.ics` file of a directory, in name order, as one source.
    mutating func addDirectory(_ path: String) throws {
        let directory = URL(fileURLWithPath: path)
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: path)
                .filter { $0.hasSuffix(".ics") && !$0.hasPrefix(".") }.sorted()
        } catch {
            throw ValidationError(ErrorText.line(error, subject: path, doing: "read"))
        }
        let displayName = (try? String(contentsOf: directory.appendingPathComponent("displayname"), encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
        guard !names.isEmpty else {
            withoutCalendars.append(path + " (a folder without .ics files)")
            return
        }
        var source = Source(
            name: displayName.flatMap { $0.isEmpty ? nil : $0 } ?? directory.standardizedFileURL.lastPathComponent,
            path: path, calendars: [])
        for name in names {
            let file = directory.appendingPathComponent(name).path
            let result = ICS.read(try Self.bytes(of: file), file: file)
            diagnostics += result.diagnostics
            isTruncated = isTruncated || result.isTruncated
            source.calendars += result.calendars
        }
        sources.append(source)
    }

    /// The bytes of a path (`-` for standard input); a file that cannot be read is a usage error (exit 2).
    static func bytes(of path: String) throws -> [UInt8] {
        do {
            return try Output.readInput(path)
        } catch {
            throw ValidationError(ErrorText.line(error, subject: path == "-" ? "<stdin>" : path, doing: "read"))
        }
    }

    /// Parses the bytes of one file (ICS, jCal, xCal or CSV, by extension or content) and adds its calendars.
    mutating func add(_ bytes: [UInt8], path: String, csv: CSVOptions = CSVOptions()) {
        let name = path == "-" ? "<stdin>" : path
        let format = CalendarFormat(pathExtension: path) ?? CalendarFormat(sniffing: bytes)
        let result = format.read(bytes, file: name, csv: csv)
        diagnostics += result.diagnostics
        isTruncated = isTruncated || result.isTruncated
        // No VCALENDAR, or only components read as if one were around them that are no calendar data (a vCard,
        // BEGIN:FOO): nothing to import.
        let noCalendarData = result.calendars.allSatisfy { calendar in
            calendar.isImplicit && !calendar.components.contains { $0.isItem || $0.name == "VTIMEZONE" }
        }
        if noCalendarData {
            withoutCalendars.append(name)
            return
        }
        let fallback = URL(fileURLWithPath: name).deletingPathExtension().lastPathComponent
        let sender: String?? = format == .ics && MIMEMessage.isMessage(bytes) ? .some(MIMEMessage.sender(bytes)) : nil
        // Calendars of one file under one name (an iTIP stream is a series of VCALENDARs) go together, so the
        // newest version of an item among them is the one that counts.
        for calendar in result.calendars {
            let shownAs = calendar.displayName.map(Self.calendarName).flatMap { $0.isEmpty ? nil : $0 } ?? fallback
            if let last = sources.last, last.path == name, last.name == shownAs {
                sources[sources.count - 1].calendars.append(calendar)
            } else {
                sources.append(Source(name: shownAs, path: name, calendars: [calendar], mailSender: sender))
            }
        }
    }

    /// A calendar name from a file (X-WR-CALNAME, NAME) as a store calendar's name: line breaks, tabs and other
    /// control characters become single spaces, so that no name prints as lines of its own or moves the cursor.
    static func calendarName(_ text: String) -> String {
        var out = ""
        var space = false
        for scalar in text.unicodeScalars {
            if scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}"
                || scalar == " "
            {
                space = !out.isEmpty
            } else {
                if space { out += " " }
                space = false
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The files given, or the store's calendars when there are none (limited to what can touch `window`).
    static func readOrStore(
        _ paths: [String], store: StoreOption, calendars: [String],
        window: Range<Date>?
    ) throws -> CalendarFiles {
        guard paths.isEmpty else { return try read(paths) }
        let opened = try store.open(.readOnly)
        for name in calendars { try requireCalendar(name, in: opened) }
        var files = CalendarFiles()
        // No name: every calendar; several: each of them once (a repeated --calendar is a union).
        let names: [String?] = calendars.isEmpty ? [nil] : Set(calendars).sorted()
        for name in names {
            files.sources += try opened.loadCalendars(named: name, window: window).map {
                Source(name: $0.name, path: opened.path, calendars: [$0.calendar])
            }
        }
        files.storeIsEmpty = try opened.calendars().allSatisfy { $0.itemCount == 0 }
        return files
    }

    /// The store's instances `query` asks for, through its instance index (`CalendarStore.indexedInstances`), as an
    /// expansion of the calendars would list them: nil when the index cannot serve (the store is missing or cannot
    /// be written, which keeping the index needs, or `ICSKIT_INSTANCE_INDEX=0`), and the command expands the
    /// calendars itself.
    static func indexedInstances(
        store: StoreOption, _ query: InstanceQuery
    ) throws -> (found: IndexedInstances, store: CalendarStore)? {
        let path = try store.resolvedPath()
        guard ProcessInfo.processInfo.environment["ICSKIT_INSTANCE_INDEX"] != "0",
            query.options.limitPerSeries == ExpansionOptions().limitPerSeries,
            FileManager.default.isWritableFile(atPath: path),
            FileManager.default.isWritableFile(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path),
            // An empty file is no store yet: a listing does not make it one.
            FileManager.default.size(path) > 0,
            let opened = try? CalendarStore(path: path, access: .readWriteAlone, changeLabel: "listing")
        else { return nil }
        for name in query.calendars { try requireCalendar(name, in: opened) }
        // The index is derived data: when it cannot be used (a full disk, a store another program locked down),
        // the listing is made from the items, read only, and the reason is said. Reading never needs to write.
        do {
            guard let found = try opened.indexedInstances(query) else { return nil }
            return (found, opened)
        } catch {
            Output.standardError(
                "icskit: the store's instance index could not be used (\(ErrorText.line(error, subject: path))); "
                    + "listed from the items instead")
            return nil
        }
    }

    /// What to say where a store has nothing to show: that it is empty, where it is, and how to fill it.
    static func emptyStoreHint(_ path: String) -> String {
        "the store \(path) holds no items yet: icskit import FILE --calendar NAME adds a file's, "
            + "icskit subscribe URL a web calendar's, icskit sync NAME --caldav URL a CalDAV calendar's"
    }

    /// Fails when `--calendar` names a calendar the store does not have (a typo must not read as an empty week).
    static func requireCalendar(_ name: String?, in store: CalendarStore) throws {
        guard let name, try !store.hasCalendar(named: name) else { return }
        let known = try store.calendars().map(\.name)
        throw CommandFailure(
            "no calendar \"\(name)\" in the store \(store.path)"
                + (known.isEmpty ? " (it has none yet)" : "; it has: " + known.joined(separator: ", ")))
    }

    /// Prints warnings and errors found while reading or expanding, unless `quiet`.
    /// What the store keeps was reported when it was read: its findings about time zones (a VTIMEZONE that
    /// disagrees with tzdata …) are left out of listings `fromStore` (`check-store` lists them).
    static func report(_ diagnostics: [Diagnostic], quiet: Bool, fromStore: Bool = false) {
        guard !quiet else { return }
        for diagnostic in diagnostics where !(fromStore && diagnostic.isAboutZones) {
            Output.standardError(diagnostic.description)
        }
    }

    /// The findings about time zones in what was read (said once, at import; the store keeps the data as read).
    static func zoneFindings(of sources: [Source]) -> [Diagnostic] {
        sources.flatMap { source in
            source.calendars.flatMap { calendar in
                CalendarTime(calendar: calendar, viewerZone: "UTC", file: source.path).everyZoneFinding()
                    .filter(\.isAboutZones)
            }
        }
    }

    /// `zoneFindings(of:)` found on another thread while the import writes, said once (`say`) where the import
    /// said them before it began. The comparison looks up every time the items use, on one core; the import's
    /// writing leaves the other core idle for about half its length.
    /// `@unchecked Sendable`: `findings` is written once before `group` is left and read only after waiting for it.
    final class ZoneFindingsAhead: @unchecked Sendable {
        private let group = DispatchGroup()
        private var findings: [Diagnostic] = []
        private var said = false

        init(_ sources: [Source]) {
            group.enter()
            DispatchQueue.global().async {
                self.findings = CalendarFiles.zoneFindings(of: sources)
                self.group.leave()
            }
        }

        /// Prints the findings (waiting for them) the first time it is called, unless `quiet`.
        func say(quiet: Bool) {
            group.wait()
            guard !said else { return }
            said = true
            CalendarFiles.report(findings, quiet: quiet)
        }
    }
}

extension FileManager {
    /// Whether `path` is a folder.
    func isFolder(_ path: String) -> Bool {
        var isFolder: ObjCBool = false
        return fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
    }

    /// The size of the file at `path` in bytes (for a link, of the file it names: a link to an empty file is no
    /// store either); 0 when there is none (or it cannot be read).
    func size(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }
}

/// The files a batch command (`validate`, `convert`) was given, a folder standing for every `.ics` file below it.
struct BatchInputs {
    struct Input {
        /// The path to read (`-` for standard input).
        var path: String
        /// For a file found in a folder: its path below that folder (`sub/a.ics`), which `--out-dir` keeps.
        var relative: String?
    }

    var inputs: [Input] = []
    /// Folders given that hold no `.ics` file at all.
    var emptyFolders: [String] = []

    /// Each folder in `paths` replaced by the `.ics` files below it, recursively, in name order; hidden files and
    /// folders are left out. Files stay as given.
    init(_ paths: [String]) throws {
        for path in paths {
            guard path != "-", FileManager.default.isFolder(path) else {
                inputs.append(Input(path: path))
                continue
            }
            guard let walker = FileManager.default.enumerator(atPath: path) else {
                throw CommandFailure("cannot read the folder \(path): permission denied")
            }
            var found: [String] = []
            while let relative = walker.nextObject() as? String {
                let name = (relative as NSString).lastPathComponent
                if name.hasPrefix(".") {
                    walker.skipDescendants()
                    continue
                }
                let full = (path as NSString).appendingPathComponent(relative)
                if name.lowercased().hasSuffix(".ics"), !FileManager.default.isFolder(full) { found.append(relative) }
            }
            if found.isEmpty { emptyFolders.append(path) }
            for relative in found.sorted() {
                inputs.append(Input(path: (path as NSString).appendingPathComponent(relative), relative: relative))
            }
        }
    }
}
