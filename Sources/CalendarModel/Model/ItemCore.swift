import Foundation

/// The properties events, todos and journals share (RFC 5545 §3.6.1–3.6.3). `Event`, `Todo` and `Journal` expose
/// them directly: `event.summary` reads `event.core.summary`.
public struct ItemCore: Sendable, Hashable, Codable {
    /// UID: the item's identity across calendars and versions.
    public var uid: String?
    /// DTSTAMP.
    public var stamp: CalendarDate?
    /// DTSTART.
    public var start: CalendarDate?
    /// SUMMARY, unescaped: the title.
    public var summary: String?
    /// DESCRIPTION, unescaped.
    public var description: String?
    /// LOCATION, unescaped.
    public var location: String?
    /// GEO: latitude and longitude.
    public var geo: Geo?
    /// URL.
    public var url: String?
    /// STATUS (TENTATIVE, CONFIRMED, CANCELLED for events; NEEDS-ACTION, COMPLETED … for todos).
    public var status: Status?
    /// CLASS.
    public var classification: Classification?
    /// PRIORITY: 1 highest … 9 lowest, 0 undefined.
    public var priority: Int?
    /// SEQUENCE: the revision, raised by each significant change.
    public var sequence: Int?
    /// CREATED.
    public var created: CalendarDate?
    /// LAST-MODIFIED.
    public var lastModified: CalendarDate?
    /// ORGANIZER.
    public var organizer: CalendarUser?
    /// ATTENDEE, each with its parameters.
    public var attendees: [CalendarUser] = []
    /// CATEGORIES, every value of every CATEGORIES line, with colours where the file gives them.
    public var categories: [Category] = []
    /// COLOR (RFC 7986): a CSS3 colour name.
    public var color: String?
    /// RRULE; RFC 5545 allows one, older producers write several.
    public var recurrenceRules: [RecurrenceRule] = []
    /// RDATE.
    public var recurrenceDates: [RecurrenceDate] = []
    /// EXDATE.
    public var exceptionDates: [CalendarDate] = []
    /// RECURRENCE-ID: set on an override of one instance of a series.
    public var recurrenceID: RecurrenceID?
    /// RELATED-TO: parent tasks, linked items.
    public var relatedTo: [Relation] = []

    /// No properties set.
    public init() {}

    /// Whether the item has RRULE or RDATE, so it stands for a series.
    public var isRecurring: Bool { !recurrenceRules.isEmpty || !recurrenceDates.isEmpty }

    static let table = FieldTable<ItemCore>([
        .single("UID", { $0.uid }, { $0.uid = $1 }, .text),
        .single("DTSTAMP", { $0.stamp }, { $0.stamp = $1 }, .dateTime),
        .single("DTSTART", { $0.start }, { $0.start = $1 }, .dateTime),
        .single("RECURRENCE-ID", { $0.recurrenceID }, { $0.recurrenceID = $1 }, .recurrenceID),
        .single("SEQUENCE", { $0.sequence }, { $0.sequence = $1 }, .integer, recover: ValueCodec.clampedInteger),
        .single("SUMMARY", { $0.summary }, { $0.summary = $1 }, .text),
        .single("DESCRIPTION", { $0.description }, { $0.description = $1 }, .text),
        .single("LOCATION", { $0.location }, { $0.location = $1 }, .text),
        .single("GEO", { $0.geo }, { $0.geo = $1 }, .geo),
        .single("URL", { $0.url }, { $0.url = $1 }, .verbatim),
        .single("STATUS", { $0.status }, { $0.status = $1 }, .token),
        .single("CLASS", { $0.classification }, { $0.classification = $1 }, .token),
        .single("PRIORITY", { $0.priority }, { $0.priority = $1 }, .integer, recover: ValueCodec.clampedInteger),
        .single("CREATED", { $0.created }, { $0.created = $1 }, .dateTime),
        .single("LAST-MODIFIED", { $0.lastModified }, { $0.lastModified = $1 }, .dateTime),
        .single("ORGANIZER", { $0.organizer }, { $0.organizer = $1 }, .user),
        .list("ATTENDEE", { $0.attendees }, { $0.attendees += $1 }, .user),
        .list("CATEGORIES", { $0.categories }, { $0.categories += $1 }, .categories),
        .single("COLOR", { $0.color }, { $0.color = $1 }, .text),
        .list(
            "RRULE", { $0.recurrenceRules }, { $0.recurrenceRules += $1 }, .rule,
            recover: { property in
                RecurrenceRule.recovering(property.value).map {
                    (
                        [$0.rule],
                        "read as \($0.rule.icsValue), leaving out "
                            + $0.leftOut.map { "\"\($0)\"" }.joined(separator: ", ")
                    )
                }
            }),
        .list("RDATE", { $0.recurrenceDates }, { $0.recurrenceDates += $1 }, .recurrenceDates),
        .list("EXDATE", { $0.exceptionDates }, { $0.exceptionDates += $1 }, .dateTime),
        .list("RELATED-TO", { $0.relatedTo }, { $0.relatedTo += $1 }, .relation),
    ])
}

/// An event, todo or journal: a component whose shared properties live in an `ItemCore` and read as its own
/// (`event.summary` is `event.core.summary`).
public protocol CalendarItemModel {
    /// The properties events, todos and journals share.
    var core: ItemCore { get set }
}

extension CalendarItemModel {
    /// `item.summary` for `item.core.summary`.
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<ItemCore, Value>) -> Value {
        get { core[keyPath: keyPath] }
        set { core[keyPath: keyPath] = newValue }
    }

    /// Read-only members of the core (`isRecurring`).
    public subscript<Value>(dynamicMember keyPath: KeyPath<ItemCore, Value>) -> Value { core[keyPath: keyPath] }
}

/// A model whose shared properties live in an `ItemCore`.
protocol CalendarItem: ComponentModel, CalendarItemModel {
    var core: ItemCore { get set }
    /// Checks DTEND, DUE and what else closes the item against its DTSTART.
    func checkEnd(start: CalendarDate?, line: Int, _ context: inout DecodeContext)
}

/// The rows of a calendar item's own table (DTEND, DUE …), besides the shared `ItemCore` rows.
protocol CalendarItemFields {
    associatedtype Item
    static var ownTable: FieldTable<Item> { get }
}

extension CalendarItem where Self: CalendarItemFields, Self.Item == Self {
    /// The shared rows seen through `core`, then the item's own rows: the order a canonical item is written in.
    /// Each item type keeps the result in its `fields` (lifting builds key paths, too slow to do per item).
    static func liftedFields() -> [FieldCodec<Self>] {
        ItemCore.table.fields.map { $0.lifted(\Self.core) } + ownTable.fields
    }

    /// `fields`' flags with the shared rows compared on the two cores directly: through the lifted key paths each
    /// row would copy both cores.
    func unchangedFields(since original: Self) -> [Bool] {
        let (core, originalCore) = (self.core, original.core)
        return ItemCore.table.fields.map { $0.isUnchanged(core, originalCore) }
            + Self.ownTable.fields.map { $0.isUnchanged(self, original) }
    }

    /// The shared rows are read into a local `ItemCore` first: writing each one through `\.core` would copy it.
    mutating func decodeProperties(_ properties: [Property], claims: inout [FieldClaim], _ context: inout DecodeContext)
    {
        var core = ItemCore()
        ItemCore.table.decode(properties, into: &core, claims: &claims, &context)
        self.core = core
        Self.ownTable.decode(properties, into: &self, claims: &claims, &context)
    }
}

extension ItemCore {
    /// The SEQUENCE after `sequence`: one higher, and never past the largest INTEGER (RFC 5545 §3.3.8,
    /// 2147483647); a value read from outside may be anything.
    package static func sequence(after sequence: Int) -> Int {
        sequence < Int(Int32.max) ? max(sequence, -1) + 1 : Int(Int32.max)
    }

    /// An edit made here: SEQUENCE moves on, LAST-MODIFIED and DTSTAMP become `now`.
    public mutating func recordEdit(at now: Date = Date()) {
        let stamp = CalendarDate.utc(now)
        sequence = Self.sequence(after: sequence ?? 0)
        lastModified = stamp
        self.stamp = stamp
    }
}
