import ArgumentParser
import CalendarModel
import CalendarStore
import Foundation

/// `--me a@x,b@y` (else `$ICSKIT_ME`): the addresses that are the user, compared case-insensitively
/// as mailto: URIs, aliases included; what tells an invitation waiting for the user's answer from one the user
/// organizes or answered.
struct MeOption: ParsableArguments {
    @Option(
        name: .customLong("me"),
        help: ArgumentHelp(
            "Your addresses, comma-separated (default: $ICSKIT_ME, else icskit config me): items waiting for your "
                + "answer are marked.",
            valueName: "addresses"))
    var addresses: String?

    /// `--me`, else `$ICSKIT_ME`, else the config file's `me`.
    var identity: Identity {
        let fromFile = (try? UserConfig.current())?["me"]?.value
        return Identity(addresses ?? ProcessInfo.processInfo.environment["ICSKIT_ME"] ?? fromFile ?? "")
    }

    /// `--me`, else `$ICSKIT_ME`, else what `icskit config me` kept in the store (read from `opened` when the
    /// command has the store open already).
    func identity(store: StoreOption, opened: CalendarStore? = nil) -> Identity {
        if addresses != nil || ProcessInfo.processInfo.environment["ICSKIT_ME"] != nil
            || (try? UserConfig.current()["me"]) != nil
        {
            return identity
        }
        let kept =
            (opened ?? (try? store.resolvedPath()).flatMap { try? CalendarStore(path: $0, access: .readOnly) })
            .flatMap { try? $0.myAddresses() } ?? []
        return Identity(kept.joined(separator: ","))
    }
}

/// The user's addresses, and where the user stands in an item: organizer, attendee with an answer, or neither.
struct Identity: Sendable {
    let addresses: Set<String>
    /// The first address given: the one an item the user organizes names.
    let primary: String?

    init(_ text: String) {
        let given = Self.addresses(in: text).map(CalendarUser.comparable)
        addresses = Set(given)
        primary = given.first
    }

    /// The addresses of a comma-separated list, trimmed, empty ones left out.
    static func addresses(in text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    func isMe(_ user: CalendarUser) -> Bool { addresses.contains(CalendarUser.comparable(user.address)) }

    /// My PARTSTAT in an item I am invited to (NEEDS-ACTION when the attendee line has none, as RFC 5545 says);
    /// nil when I organize it or am not among its attendees.
    func answer(in core: ItemCore) -> String? {
        guard !addresses.isEmpty, !(core.organizer.map(isMe) ?? false),
            let me = core.attendees.first(where: isMe)
        else { return nil }
        return (me.participationStatus ?? "NEEDS-ACTION").uppercased()
    }

    /// The agenda's mark for my answer: waiting for it (not for a cancelled item), or declined.
    func mark(_ core: ItemCore) -> String {
        switch core.status == .cancelled ? nil : answer(in: core) {
        case "NEEDS-ACTION": " [answer needed]"
        case "DECLINED": " [declined]"
        default: ""
        }
    }
}

extension Identity {
    /// The HTML pages' classes for an item's state: cancelled, tentative, waiting for my answer, declined by me.
    func pageClasses(_ core: ItemCore) -> [String] {
        if core.status == .cancelled { return ["cancelled"] }
        var classes = core.status == .tentative ? ["tentative"] : []
        switch answer(in: core) {
        case "NEEDS-ACTION": classes.append("needs-answer")
        case "DECLINED": classes.append("declined")
        default: break
        }
        return classes
    }

    /// ` · waiting for your answer` and ` · answers: priya@example.com accepted, jonas@example.net no answer yet`:
    /// what a page's tooltip adds for an invitation.
    func pageNote(_ core: ItemCore) -> String {
        var note = core.status != .cancelled && answer(in: core) == "NEEDS-ACTION" ? " · waiting for your answer" : ""
        let organizer = core.organizer.map { CalendarUser.comparable($0.address) }
        let others = core.attendees.filter { CalendarUser.comparable($0.address) != organizer }
        guard !others.isEmpty else { return note }
        note +=
            " · answers: "
            + others.map { attendee in
                let status = attendee.participationStatus?.lowercased() ?? "needs-action"
                return CalendarUser.comparable(attendee.address) + " "
                    + (status == "needs-action" ? "no answer yet" : status)
            }.joined(separator: ", ")
        return note
    }
}
