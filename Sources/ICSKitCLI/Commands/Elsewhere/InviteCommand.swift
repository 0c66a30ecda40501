import ArgumentParser
import CalendarModel
import CalendarStore
import Foundation

/// `icskit invite FILE|-`: scheduling messages (iTIP) received by mail or saved from one, applied to the store.
struct InviteCommand: ParsableCommand, ChecksWhatIsGiven {
    static let configuration = CommandConfiguration(
        commandName: "invite",
        abstract:
            "Apply invitations, updates, cancellations and answers (iTIP) from a file or a saved mail; or invite people.",
        discussion: """
            Reads .ics files or whole mails (.eml, or a mail client's pipe on standard input) and applies each \
            message by RFC 5546: a REQUEST adds or updates the item (only when newer by SEQUENCE, then DTSTAMP; \
            an older one is ignored with a message), a CANCEL cancels the series or removes one instance, an ADD \
            adds instances, a REPLY sets that attendee's answer in your copy; COUNTER and DECLINECOUNTER are shown, \
            not applied; a REFRESH is answered with the current REQUEST (printed). The item is what all messages \
            received for its UID make, so receiving the same messages again, or in another order, gives the same \
            store. Everything a run receives is one transaction (undo takes it back).

            Only an item's organizer changes it: a REQUEST, ADD or CANCEL whose ORGANIZER is not the item's, any \
            message for an item you made here (it has no organizer), and a REPLY from someone the item does not \
            list are not applied but kept aside (--held lists them; an answer counts once you invite its sender). \
            A REPLY answers for one ATTENDEE, for an instance the series has. No message changes an item you \
            organize (--me). From a mail (anything that starts with header lines: .eml, an mbox message, a plain \
            mail), the sender (From:, comments ignored) must be the ORGANIZER (for a REPLY, the ATTENDEE) or whom \
            your copy of the item says sends for them (SENT-BY); a mail whose sender cannot be read is \
            unverified; --trust-sender applies such a mail. A message not applied makes the exit status 1.

            With --to, the argument is an item of yours and icskit writes the REQUEST that invites these people: \
            you become its ORGANIZER, each address an ATTENDEE (RSVP=TRUE), and SEQUENCE goes up when the time, the \
            rule or the place changed since the last REQUEST; --mime writes the whole mail. Their replies, given to \
            `icskit invite`, set their answers in your copy.

            Examples:
              icskit invite invitation.eml
              icskit invite - --calendar Work < message.eml
              icskit invite review --to priya@example.com,jo@example.net > request.ics
              icskit invite review --to priya@example.com --mime | sendmail -t
              icskit invite --held
            """
    )

    @Argument(help: "Files with scheduling messages (.ics, or mails); - reads standard input. With --to: the item.")
    var files: [String] = []

    @Option(help: "Invite these people (comma-separated addresses) to the item the argument names.")
    var to: String?

    @Flag(help: "With --to: write a whole mail (RFC 6047 iMIP) instead of the .ics text.")
    var mime = false

    @Option(name: .shortAndLong, help: "With --to: write to this file instead of standard output.")
    var output: String?

    @Option(help: "The store calendar new items go to (an item the store has stays in its calendar).")
    var calendar = "Invitations"

    @Flag(help: "Apply mails whose sender (From:) is not the organizer or attendee they speak for.")
    var trustSender = false

    @Flag(help: "List the messages kept aside, not applied, and why.")
    var held = false

    @Flag(help: "Print one JSON array, an object per message.")
    var json = false

    @OptionGroup var store: StoreOption
    @OptionGroup var me: MeOption

    func validate() throws {
        if to != nil, files.count != 1 { throw ValidationError("--to invites people to one item: give its handle") }
    }

    func checkGiven() throws {
        if held { return }
        if files.isEmpty { throw ValidationError("give a file with an invitation (- reads standard input)") }
    }

    func run() throws {
        if let to { return try invitePeople(Identity.addresses(in: to)) }
        if held { return try listHeld() }
        let input = try CalendarFiles.read(files)
        CalendarFiles.report(input.diagnostics.filter { $0.severity == .error }, quiet: false)
        if !input.withoutCalendars.isEmpty {
            throw CommandFailure("no calendar data in " + input.withoutCalendars.joined(separator: ", "))
        }
        let opened = try store.open()
        let outcomes = try opened.receiveScheduling(
            input.sources.flatMap { source in source.calendars.map { ($0, source.origin(trusted: trustSender)) } },
            calendar: calendar, me: me.identity(store: store, opened: opened).addresses)
        if json {
            try Self.printJSON(outcomes)
        } else {
            if outcomes.isEmpty { Output.print("no event or todo in " + files.joined(separator: ", ")) }
            try Self.printOutcomes(outcomes, store: opened, me: me.identity(store: store))
        }
        let refused = outcomes.filter { $0.kind == .refused }.count
        Self.sayNotApplied(refused)
        if refused > 0 { throw ExitCode(1) }
    }

    /// How many messages were not applied, said once on standard error (nothing when none).
    static func sayNotApplied(_ count: Int) {
        guard count > 0 else { return }
        Output.standardError(
            "icskit: \(count) scheduling message\(count == 1 ? "" : "s") not applied, kept aside "
                + "(icskit invite --held lists them)")
    }

    /// `--held`: the messages kept aside, a line each (or JSON).
    private func listHeld() throws {
        let messages = try store.open().heldSchedulingMessages()
        if json {
            Output.print(
                JSONValue.array(
                    messages.map { message in
                        .object([
                            ("method", .string(message.method)), ("uid", .string(message.uid)),
                            ("recurrence_id", message.recurrenceID.isEmpty ? .null : .string(message.recurrenceID)),
                            ("summary", message.summary.map(JSONValue.string) ?? .null),
                            ("calendar", .string(message.calendar)), ("reason", .string(message.reason)),
                            ("received", .string(ISO8601DateFormatter().string(from: message.received))),
                        ])
                    }
                ).serialized(pretty: true))
            return
        }
        if messages.isEmpty { Output.print("no message is kept aside") }
        for message in messages {
            var line = "\(message.method) \(message.uid)"
            if !message.recurrenceID.isEmpty { line += " (instance \(message.recurrenceID))" }
            if let summary = message.summary { line += " \"\(summary)\"" }
            Output.line(line + " — " + message.reason)
        }
    }

    /// `--to`: the REQUEST inviting these people to the item, as the user (the item's organizer).
    private func invitePeople(_ people: [String]) throws {
        let identity = me.identity(store: store)
        guard let organizer = identity.primary else {
            throw CommandFailure("say who you are: --me ADDRESS, ICSKIT_ME, or icskit config me ADDRESS")
        }
        guard !people.isEmpty else { throw ValidationError("--to needs at least one address") }
        let opened = try store.open()
        let item = try Handles.resolve(files[0], in: opened, calendar: nil, kind: nil, what: "item")
        let request: SchedulingRequest
        do {
            // The address of mine that already organizes the item, else the first.
            let organizes = try opened.item(uid: item.uid)?.component.core?.organizer.map {
                CalendarUser.comparable($0.address)
            }
            request = try opened.organize(
                uid: item.uid, calendar: item.calendar,
                organizer: organizes.flatMap { identity.addresses.contains($0) ? $0 : nil } ?? organizer,
                inviting: people)
        } catch let error as StoreError {
            throw CommandFailure(error.description)
        }
        try IMIPMessage.write(mime ? try IMIPMessage.request(request) : request.text, to: output ?? "-")
    }

    /// The methods that make a file an invitation (PUBLISH is a plain calendar's).
    static let schedulingMethods: Set<String> = [
        "REQUEST", "CANCEL", "REPLY", "ADD", "COUNTER", "DECLINECOUNTER", "REFRESH",
    ]

    /// One line per message: `REQUEST uid: added "Title" in Invitations: your answer is needed — …`; a REFRESH's
    /// answer after its line.
    static func printOutcomes(_ outcomes: [SchedulingOutcome], store: CalendarStore, me identity: Identity) throws {
        for outcome in outcomes {
            var line = "\(outcome.method) \(outcome.uid)"
            if !outcome.recurrenceID.isEmpty { line += " (instance \(outcome.recurrenceID))" }
            line += ": \(outcome.kind.rawValue)"
            if let summary = outcome.summary { line += " \"\(summary)\"" }
            if [.added, .updated].contains(outcome.kind) {
                line += " in \(outcome.calendar)"
                if let (_, component) = try store.item(uid: outcome.uid), let core = component.core,
                    identity.mark(core) == " [answer needed]"
                {
                    line += ": your answer is needed"
                }
            }
            if !outcome.detail.isEmpty { line += " — " + outcome.detail }
            Output.line(line)
            if let reply = outcome.reply { Output.print(reply.replacingOccurrences(of: "\r\n", with: "\n")) }
        }
    }

    static func printJSON(_ outcomes: [SchedulingOutcome]) throws {
        var writer = JSONWriter(pretty: true)
        writer.beginArray()
        for outcome in outcomes {
            writer.beginObject()
            writer.key("method"); writer.string(outcome.method)
            writer.key("uid"); writer.string(outcome.uid)
            writer.key("recurrence_id"); writer.string(outcome.recurrenceID.isEmpty ? nil : outcome.recurrenceID)
            writer.key("result"); writer.string(outcome.kind.rawValue)
            writer.key("summary"); writer.string(outcome.summary)
            writer.key("calendar"); writer.string(outcome.calendar)
            writer.key("detail"); writer.string(outcome.detail)
            writer.key("reply"); writer.string(outcome.reply)
            writer.endObject()
        }
        writer.endArray()
        try Output.writeStandardOutput(writer.takeBytes() + [0x0A])
    }
}
