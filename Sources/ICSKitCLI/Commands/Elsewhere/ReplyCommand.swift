import ArgumentParser
import CalendarModel
import CalendarStore
import Foundation

/// `icskit reply HANDLE --accept|--decline|--tentative`: answer an invitation in the store.
struct ReplyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reply",
        abstract: "Answer an invitation: set your answer in the store and write the REPLY to send.",
        discussion: """
            Writes an iTIP REPLY (RFC 5546) with only your ATTENDEE and its new PARTSTAT, the item's UID, SEQUENCE \
            and RECURRENCE-ID, and DTSTAMP now; your answer is set in the store in the same transaction. With \
            --mime the REPLY is a whole mail (RFC 6047: From you, To the organizer, Subject "Accepted: …", a text \
            part and the text/calendar part, which is attached again as CalConnect's iMIP guide advises), ready \
            for `sendmail -t`. Your addresses come from --me, $ICSKIT_ME or `icskit config me`.

            Examples:
              icskit reply 1e78a2 --accept
              icskit reply "Team sync" --decline --comment "On holiday"
              icskit reply 1e78a2 --tentative --mime | sendmail -t
              icskit reply standup --tentative --instance 2026-12-01
            """)

    enum Answer: String, EnumerableFlag {
        case accept, decline, tentative

        var partStatus: String {
            switch self {
            case .accept: "ACCEPTED"
            case .decline: "DECLINED"
            case .tentative: "TENTATIVE"
            }
        }

        /// `Accepted: Team sync`.
        var subjectWord: String {
            switch self {
            case .accept: "Accepted"
            case .decline: "Declined"
            case .tentative: "Tentative"
            }
        }
    }

    @Argument(help: "The invitation: its UID, a unique UID prefix, or words of its summary.")
    var handle: String

    @Flag(help: "Your answer.")
    var answer: Answer

    @Option(help: "A comment for the organizer (COMMENT).")
    var comment: String?

    @Option(help: "Answer for one instance of a series: its date, or date and time when a day has several.")
    var instance: String?

    @Flag(help: "Write a whole mail (RFC 6047 iMIP) instead of the .ics text.")
    var mime = false

    @Option(name: .shortAndLong, help: "Write to this file instead of standard output.")
    var output: String?

    @Option(help: "Only in this store calendar.", completion: CalendarCompletion.kind)
    var calendar: String?

    @OptionGroup var zoneOption: ZoneOption
    @OptionGroup var me: MeOption
    @OptionGroup var store: StoreOption

    func run() throws {
        let identity = me.identity(store: store)
        guard !identity.addresses.isEmpty else {
            throw CommandFailure("say who you are: --me ADDRESS, ICSKIT_ME, or icskit config me ADDRESS")
        }
        let opened = try store.open()
        try CalendarFiles.requireCalendar(calendar, in: opened)
        let item = try Handles.resolve(handle, in: opened, calendar: calendar, kind: nil, what: "item")
        var date: CalendarDate?
        if let instance {
            let loaded = try opened.loadItems(calendar: item.calendar, uids: [item.uid])
            let occurrence = try SeriesInstance.find(instance, of: item.uid, in: loaded, zone: try zoneOption.zone())
            guard let recurrenceID = occurrence.recurrenceID else {
                throw CommandFailure("\(item.uid) is not a series: answer without --instance")
            }
            date = recurrenceID
        }
        let reply: SchedulingReply
        do {
            reply = try opened.reply(
                uid: item.uid, calendar: item.calendar, addresses: identity.addresses, answer: answer.partStatus,
                comment: comment, instance: date)
        } catch let error as StoreError {
            throw CommandFailure(error.description)
        }
        let text = mime ? try IMIPMessage.reply(reply, subject: answer.subjectWord, comment: comment) : reply.text
        try IMIPMessage.write(text, to: output ?? "-")
    }
}

/// An iTIP message as a mail (iMIP, RFC 6047).
enum IMIPMessage {
    /// A REPLY as a mail: From the attendee, To the organizer, `Subject: Accepted: Title`.
    static func reply(
        _ reply: SchedulingReply, subject word: String, comment: String?, now: Date = Date()
    ) throws -> String {
        let title = reply.summary ?? "(no title)"
        var said = "\(reply.attendee) has \(word == "Tentative" ? "tentatively accepted" : word.lowercased())"
        said += " the invitation \"\(title)\"."
        if let comment { said += "\n\n" + comment }
        return try mail(
            from: reply.attendee, to: [reply.organizer ?? ""], subject: word + ": " + title, text: said,
            calendar: reply.text, method: "REPLY", now: now)
    }

    /// An organizer's REQUEST or CANCEL as a mail to the attendees: `Invitation: Title`, `Cancelled: Title`.
    static func request(_ request: SchedulingRequest, now: Date = Date()) throws -> String {
        let title = request.summary ?? "(no title)"
        let cancelled = request.method == "CANCEL"
        return try mail(
            from: request.organizer, to: request.recipients,
            subject: (cancelled ? "Cancelled: " : "Invitation: ") + title,
            text: "\(request.organizer) \(cancelled ? "cancelled" : "invites you to") \"\(title)\".",
            calendar: request.text, method: request.method, now: now)
    }

    /// The mail (`IMIPMail.mail`); an address that is not one mailbox fails with what was wrong.
    static func mail(
        from: String, to: [String], subject: String, text: String, calendar: String, method: String, now: Date
    ) throws -> String {
        do {
            return try IMIPMail.mail(
                from: from, to: to, subject: subject, text: text, calendar: calendar, method: method, now: now)
        } catch let error as IMIPMail.NotAMailbox {
            throw CommandFailure(
                "\"\(TerminalText.safe(error.address, keepingLineBreaks: false))\" is not one mail address; no mail was "
                    + "written")
        }
    }

    /// Writes a message to a file (whole or not at all) or, for `-`, to standard output.
    static func write(_ text: String, to destination: String) throws {
        let sink = try Output.Sink(destination)
        try sink.write(Array(text.utf8))
        try sink.commit()
    }
}
