/// Reads JSCalendar (RFC 8984 names, or the JSCalendar 2.0 draft's: both are understood wherever they differ) into
/// iCalendar components, the inverse of `JSCalendarWriter`: a Group gives a VCALENDAR, each Event a VEVENT and each
/// Task a VTODO, `recurrenceOverrides` RDATEs, EXDATEs and changed instances, `iCalComponent` what had no member.
/// Input that is not JSCalendar's shape is refused with the JSON Pointer of the value at fault, as a line and column.
package enum JSCalendarReader {
    /// Why a document could not be read: jCal's failure (the escape hatch is jCal), located the same way.
    package typealias Failure = JCalReader.Failure

    /// Whether the bytes look like JSCalendar: a JSON object (or an array of them) with a JSCalendar `@type`.
    package static func looksLikeJSCalendar(_ bytes: [UInt8]) -> Bool {
        let body = bytes.drop { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        if body.first == UInt8(ascii: "{") { return true }
        guard body.first == UInt8(ascii: "[") else { return false }
        return body.dropFirst().drop { [0x20, 0x09, 0x0A, 0x0D].contains($0) }.first == UInt8(ascii: "{")
    }

    /// The VCALENDARs of a document: a Group, an Event or Task, or an array of those.
    package static func read(_ bytes: [UInt8]) throws(Failure) -> [Component] {
        let json: JSONValue
        let places: [String: (line: Int, column: Int)]
        do {
            (json, places) = try JSONValue.parseLocating(bytes, objectsToo: true)
        } catch {
            throw Failure(line: error.line, column: error.column, message: "not valid JSON: \(error.message)")
        }
        let budget = OverrideBudget(documentBytes: bytes.count)
        do throws(Failure) {
            switch json {
            case .object:
                return [try calendar(json, path: "", places: places, budget: budget)]
            case .array(let items):
                var calendars: [Component] = []
                var loose = Component("VCALENDAR", properties: [Property("VERSION", value: "2.0")])
                for (index, item) in items.enumerated() {
                    if item["@type"]?.stringValue == "Group" {
                        calendars.append(try calendar(item, path: "/\(index)", places: places, budget: budget))
                    } else {
                        loose.components += try entry(item, path: "/\(index)", places: places, budget: budget)
                    }
                }
                return loose.components.isEmpty ? calendars : calendars + [loose]
            default:
                throw Failure.jscalendar("", "a JSCalendar Group, Event or Task object")
            }
        } catch var failure {
            var path = failure.path ?? ""
            while true {
                if let found = places[path] {
                    (failure.line, failure.column) = (found.line, found.column)
                    break
                }
                guard let slash = path.lastIndex(of: "/") else { break }
                path = String(path[..<slash])
            }
            throw failure
        }
    }

    /// A Group (or a lone Event or Task) as a VCALENDAR.
    static func calendar(
        _ json: JSONValue, path: String, places: Places = [:], budget: OverrideBudget = OverrideBudget(documentBytes: 0)
    ) throws(Failure) -> Component {
        guard case .object = json else { throw .jscalendar(path, "an object") }
        var calendar = Component("VCALENDAR")
        switch json["@type"]?.stringValue {
        case "Group":
            var properties: [Property] = []
            var components: [Component] = []
            if let hatch = json["iCalComponent"] {
                (properties, components) = try self.hatch(hatch, path: path + "/iCalComponent")
            }
            if !properties.contains(where: { $0.name == "VERSION" }) {
                properties.insert(Property("VERSION", value: "2.0"), at: 0)
            }
            var own: [Property] = []
            for (key, value) in json.objectMembers where !["@type", "entries", "iCalComponent"].contains(key) {
                guard let name = JSCalendarWriter.groupMembers.first(where: { $0.value == key })?.key else {
                    own.append(JSCalendarObjects.kept(key, value))
                    continue
                }
                guard let text = value.stringValue else { throw .jscalendar(path + "/" + key, "a string") }
                switch name {
                case "LAST-MODIFIED":
                    guard let utc = JSCalendarValues.ics(utc: text) else {
                        throw .jscalendar(path + "/" + key, "a UTCDateTime (2026-01-05T09:00:00Z)")
                    }
                    own.append(Property(name, value: utc))
                case "SOURCE": own.append(Property(name, value: text))
                default: own.append(Property(name, value: TextEscaping.escape(text)))
                }
            }
            let at = properties.firstIndex { $0.name == "VERSION" }.map { $0 + 1 } ?? 0
            properties.insert(contentsOf: own, at: at)
            calendar.properties = properties
            calendar.components = components
            guard case .array(let items) = json["entries"] ?? .array([]) else {
                throw .jscalendar(path + "/entries", "an array of Event and Task objects")
            }
            for (index, item) in items.enumerated() {
                calendar.components += try entry(
                    item, path: "\(path)/entries/\(index)", places: places, budget: budget)
            }
        case "Event", "Task":
            calendar.properties = [Property("VERSION", value: "2.0"), Property("PRODID", value: ICS.productID)]
            calendar.components = try entry(json, path: path, places: places, budget: budget)
        case let other:
            throw .jscalendar(
                path + "/@type", "\"Group\", \"Event\" or \"Task\"" + (other.map { " (not \"\($0)\")" } ?? ""))
        }
        // JSCalendar names zones by IANA name alone; iCalendar wants a VTIMEZONE for each (RFC 5545 §3.2.19). One
        // written from iCalendar carries its own in the escape hatch, so only JSCalendar from elsewhere gets tzdata's.
        if json["iCalComponent"] == nil { calendar.components = ICalendar.completingZones(calendar.components) }
        return calendar
    }

    /// An Event or Task with its changed instances.
    /// Where each object of the document starts, by its JSON Pointer.
    typealias Places = [String: (line: Int, column: Int)]

    /// Components and properties read from the object at `path` carry its line, so diagnostics name it.
    static func placed(_ component: Component, at path: String, _ places: Places) -> Component {
        guard let line = places[path]?.line else { return component }
        var placed = component
        placed.line = line
        for index in placed.properties.indices { placed.properties[index].line = line }
        return placed
    }

    /// How much of their event a document's `recurrenceOverrides` may copy: each patched override is its event
    /// with the patch applied, so a large event with many small patches would make far more iCalendar than the
    /// document holds (1 MB into hundreds). Past 16 times the document, and at least a million values' worth, the
    /// document is refused (SECURITY.md).
    final class OverrideBudget {
        private(set) var left: Int
        static let floor = 1 << 20

        init(documentBytes: Int) { left = max(Self.floor, 16 * documentBytes) }

        /// Spends one copy of an event of `weight`; false once the budget is spent.
        func spend(_ weight: Int) -> Bool {
            left -= weight
            return left >= 0
        }
    }

    static func entry(
        _ json: JSONValue, path: String, places: Places = [:], budget: OverrideBudget = OverrideBudget(documentBytes: 0)
    ) throws(Failure) -> [Component] {
        guard case .object(let members) = json else { throw .jscalendar(path, "an Event or Task object") }
        guard let type = json["@type"]?.stringValue, ["Event", "Task"].contains(type) else {
            throw .jscalendar(path + "/@type", "\"Event\" or \"Task\"")
        }
        var reader = JSCalendarItemReader(json: json, path: path, isTask: type == "Task")
        var master = try reader.item()
        var result: [Component] = []
        guard let overrides = json["recurrenceOverrides"] else { return [placed(master, at: path, places)] }
        guard case .object(let patches) = overrides else {
            throw .jscalendar(path + "/recurrenceOverrides", "an object of patches by LocalDateTime")
        }
        let base = JSONValue.object(members.filter { !JSCalendarItemReader.seriesKeys.contains($0.key) })
        let weight = base.weight
        let lines = sharedLines(patches, reader)
        let listed = Set(lines.values.joined())
        for (key, patch) in patches {
            let at = path + "/recurrenceOverrides/" + key
            guard var value = reader.frameValue(key) else { throw .jscalendar(at, "a LocalDateTime key") }
            guard case .object(let changes) = patch else { throw .jscalendar(at, "a patch object") }
            let simple = changes.isEmpty || patch["excluded"] == .bool(true)
            if simple, listed.contains(key), lines[key] == nil { continue }
            if simple, let others = lines[key] {
                value = ([value] + others.compactMap(reader.frameValue)).joined(separator: ",")
            }
            if changes.isEmpty {
                master.properties.append(reader.dated("RDATE", value))
                continue
            }
            if patch["excluded"] == .bool(true) {
                master.properties.append(reader.dated("EXDATE", value))
                continue
            }
            if reader.converted("recurrenceOverrides/" + key)?["name"]?.stringValue == "rdate" {
                master.properties.append(reader.dated("RDATE", value))
            }
            guard budget.spend(weight + patch.weight) else { throw .overridesTooLarge(at) }
            let patched = try apply(changes, to: base, path: at)
            var instance = JSCalendarItemReader(json: patched, path: at, isTask: type == "Task")
            var component = try instance.item()
            component.properties.insert(reader.dated("RECURRENCE-ID", value), at: min(1, component.properties.count))
            result.append(placed(component, at: at, places))
        }
        return [placed(master, at: path, places)] + result
    }

    /// RDATEs and EXDATEs that were one line: the first key's entry names the others (ICSKit's `with`).
    private static func sharedLines(_ patches: [(key: String, value: JSONValue)], _ reader: JSCalendarItemReader)
        -> [String: [String]]
    {
        var lines: [String: [String]] = [:]
        let keys = Set(patches.map(\.key))
        for (key, _) in patches {
            if let others = reader.converted("recurrenceOverrides/" + key)?["with"]?.arrayValue {
                lines[key] = others.compactMap(\.stringValue).filter(keys.contains)
            }
        }
        return lines
    }

    /// `base` with a patch applied (RFC 8984 §1.4.9): each key a JSON Pointer from the object's root, its value
    /// the new one (`null` removes it). A patch may not touch `@type`, `uid` or the series' own keys, nor point
    /// below a value that is not there.
    static func apply(_ changes: [(key: String, value: JSONValue)], to base: JSONValue, path: String) throws(Failure)
        -> JSONValue
    {
        var result = base
        for (pointer, value) in changes {
            let steps = pointer.split(separator: "/", omittingEmptySubsequences: false).map {
                $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            }
            guard let first = steps.first, !first.isEmpty,
                !JSCalendarItemReader.unpatchable.contains(first)
            else {
                throw .jscalendar(path + "/" + pointer, "a patch that leaves identity and series keys alone")
            }
            guard let patched = set(steps[...], value, in: result) else {
                throw .jscalendar(path + "/" + pointer, "a patch whose pointer leads to a value that is there")
            }
            result = patched
        }
        return result
    }

    private static func set(_ steps: ArraySlice<String>, _ value: JSONValue, in json: JSONValue) -> JSONValue? {
        guard let step = steps.first, case .object(var members) = json else { return nil }
        let index = members.firstIndex { $0.key == step }
        if steps.count == 1 {
            if value == .null {
                if let index { members.remove(at: index) }
            } else if let index {
                members[index].value = value
            } else {
                members.append((step, value))
            }
            return .object(members)
        }
        guard let index, let inner = set(steps.dropFirst(), value, in: members[index].value) else { return nil }
        members[index].value = inner
        return .object(members)
    }

    /// An `iCalComponent`: its properties and components (jCal's form), read as jCal reads them.
    static func hatch(_ json: JSONValue, path: String) throws(Failure) -> ([Property], [Component]) {
        guard case .object = json else { throw .jscalendar(path, "an ICalComponent object") }
        var properties: [Property] = []
        var components: [Component] = []
        if let list = json["properties"] {
            guard case .array(let items) = list else { throw .jscalendar(path + "/properties", "an array") }
            for (index, item) in items.enumerated() {
                properties.append(try JCalReader.property(item, path: "\(path)/properties/\(index)"))
            }
        }
        if let list = json["components"] {
            guard case .array(let items) = list else { throw .jscalendar(path + "/components", "an array") }
            for (index, item) in items.enumerated() {
                components.append(try JCalReader.component(item, path: "\(path)/components/\(index)", depth: 2))
            }
        }
        return (properties, components)
    }
}

extension JCalReader.Failure {
    /// The JSCalendar value at `path` is not what JSCalendar wants there.
    static func jscalendar(_ path: String, _ expected: String) -> Self {
        Self(
            line: 1, column: nil, message: "JSCalendar at \(path.isEmpty ? "/" : path): expected \(expected)",
            path: path)
    }

    /// The overrides at `path` copy their events past the document's budget (`OverrideBudget`).
    static func overridesTooLarge(_ path: String) -> Self {
        Self(
            line: 1, column: nil,
            message:
                "JSCalendar at \(path): the recurrenceOverrides of this document copy their events past "
                + "16 times its size; nothing read (a document that small cannot hold that many changed "
                + "instances of events that large)", path: path)
    }
}
