import Foundation

/// Items made in code that every reader takes as they are: each has a UID and a DTSTAMP from the start (RFC 5545
/// §3.6.1 requires both), so an app never writes an item it still had to finish by hand.
extension ItemCore {
    /// A new item's shared properties: `uid` (a fresh `…@icskit` UID when nil), DTSTAMP, CREATED and
    /// LAST-MODIFIED at `now`, and the summary.
    init(newWithSummary summary: String, uid: String?, now: Date) {
        self.init()
        self.uid = uid ?? UUID().uuidString.lowercased() + "@icskit"
        let stamp = CalendarDate.utc(now)
        (self.stamp, created, lastModified) = (stamp, stamp, stamp)
        self.summary = summary
    }
}

extension Event {
    /// A new event from `start` to `end` (none: a day for a date, an instant for a time), with a UID (a fresh one
    /// unless given) and DTSTAMP `now`.
    public init(summary: String, start: CalendarDate, end: CalendarDate? = nil, uid: String? = nil, now: Date = Date())
    {
        self.init()
        core = ItemCore(newWithSummary: summary, uid: uid, now: now)
        core.start = start
        self.end = end
    }
}

extension Todo {
    /// A new todo, due at `due` when given, with a UID (a fresh one unless given) and DTSTAMP `now`.
    public init(summary: String, due: CalendarDate? = nil, uid: String? = nil, now: Date = Date()) {
        self.init()
        core = ItemCore(newWithSummary: summary, uid: uid, now: now)
        self.due = due
    }

    /// Marks the todo done at `date`: STATUS:COMPLETED, COMPLETED, PERCENT-COMPLETE:100, SEQUENCE one higher and
    /// LAST-MODIFIED `date` (what `icskit done` does; the rest stays as it was).
    public mutating func markCompleted(at date: Date = Date()) {
        let now = CalendarDate.utc(date)
        core.status = .completed
        completed = now
        percentComplete = 100
        core.sequence = ItemCore.sequence(after: core.sequence ?? 0)
        core.lastModified = now
    }
}

extension Alarm {
    /// A display alarm at a moment (an absolute TRIGGER, in UTC), whichever instance it belongs to.
    public init(displaying text: String, at date: Date) {
        self.init()
        action = .display
        description = text
        trigger = .absolute(.utc(date))
    }
}

extension Journal {
    /// A new journal entry for `date` when given, with a UID (a fresh one unless given) and DTSTAMP `now`.
    public init(summary: String, date: CalendarDate? = nil, uid: String? = nil, now: Date = Date()) {
        self.init()
        core = ItemCore(newWithSummary: summary, uid: uid, now: now)
        core.start = date
    }
}

extension CalendarDate {
    /// The UTC DATE-TIME of an instant, to the second (earlier fractions dropped): a DTSTAMP, LAST-MODIFIED or
    /// COMPLETED made now.
    package static func utc(_ date: Date) -> CalendarDate {
        LocalDateTime(wallSeconds: Int64(date.timeIntervalSince1970.rounded(.down))).calendarDate(.utc)
    }
}
