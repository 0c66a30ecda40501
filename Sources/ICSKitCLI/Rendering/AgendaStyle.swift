import ArgumentParser
import CalendarModel
import CalendarStore
import Foundation

/// `--color auto|always|never`.
enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never

    /// `--color` when given, else the config file's `color`, else `auto`.
    static func resolved(_ given: ColorChoice?) throws -> ColorChoice {
        try given ?? UserConfig.current()["color"].flatMap { ColorChoice(rawValue: $0.value) } ?? .auto
    }

    /// Whether to colour: `auto` on a terminal unless NO_COLOR is set (and not empty) or TERM is `dumb`.
    func isOn(environment: [String: String] = ProcessInfo.processInfo.environment, isTerminal: Bool) -> Bool {
        switch self {
        case .always: return true
        case .never: return false
        case .auto:
            if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
            return isTerminal && environment["TERM"] != "dumb"
        }
    }
}

/// How `agenda` prints its lines beyond the plain listing: details under each item, and colours.
struct AgendaStyle {
    /// Place, alarms, people, link and the start of the description under each item.
    var details = false
    /// The colours of items (own, category, calendar, as the page has them), when colouring.
    var colors: PageColors?
    /// Who I am, for the marks of invitations.
    var me: Identity?

    /// `#RRGGBB`, `#RGB` or a CSS colour name as red, green and blue.
    static func rgb(_ color: String) -> (Int, Int, Int)? {
        var hex = color.trimmingCharacters(in: .whitespaces)
        if hex.hasPrefix("#") {
            hex.removeFirst()
            if hex.count == 3 { hex = hex.map { "\($0)\($0)" }.joined() }
            guard hex.count == 6, let value = Int(hex, radix: 16) else { return nil }
            return (value >> 16 & 0xFF, value >> 8 & 0xFF, value & 0xFF)
        }
        return CSSColor.names.first { $0.name == hex.lowercased() }?.rgb
    }

    /// The swatch before an item's title: a coloured dot, or nothing when not colouring.
    func swatch(_ occurrence: Occurrence, calendar: String) -> [Output.Piece] {
        guard let colors, let (red, green, blue) = Self.rgb(colors.color(of: occurrence.core, calendar: calendar))
        else { return [] }
        return [.code("\u{1B}[38;2;\(red);\(green);\(blue)m"), .text("●"), .code("\u{1B}[0m"), .text(" ")]
    }

    /// What the status says beside a title: ` [cancelled]`, ` [tentative]`.
    /// The instance's status, and (`me`) whether it waits for my answer or I declined it.
    static func marks(_ occurrence: Occurrence, me: Identity? = nil) -> String {
        let status =
            switch occurrence.status {
            case .some(.cancelled): " [cancelled]"
            case .some(.tentative): " [tentative]"
            default: ""
            }
        guard let me, !me.addresses.isEmpty else { return status }
        return status + me.mark(occurrence.core)
    }

    /// The detail lines of an instance: place, alarms (as times of this instance), people, link, description.
    static func details(_ occurrence: Occurrence, zone: ZoneClock) -> [String] {
        let core = occurrence.core
        var lines: [String] = []
        if let location = core.location, !location.isEmpty { lines.append("at " + location) }
        let alarms: [Alarm]
        switch occurrence.item {
        case .event(let event): alarms = event.alarms
        case .todo(let todo): alarms = todo.alarms
        case .journal: alarms = []
        }
        let times: [String] = alarms.compactMap { alarm in
            if let fires = alarm.relativeFiring(start: occurrence.startDate, end: occurrence.endDate) {
                return zone.wallClock(at: fires).minuteText
            }
            if case .absolute(let value) = alarm.trigger { return LocalDateTime(value).iso8601 }
            return nil
        }
        if !times.isEmpty { lines.append("alarm " + times.joined(separator: ", ")) }
        if !core.attendees.isEmpty {
            let names = core.attendees.prefix(4).map { $0.commonName ?? $0.email ?? $0.address }
            let more = core.attendees.count > 4 ? " and \(core.attendees.count - 4) more" : ""
            lines.append("with " + names.joined(separator: ", ") + more)
        }
        if let url = core.url, !url.isEmpty { lines.append(url) }
        if let description = core.description?.split(separator: "\n").first(where: { !$0.isEmpty }) {
            lines.append(description.count > 100 ? description.prefix(99) + "…" : String(description))
        }
        return lines
    }
}
