internal import CLibical
import Foundation

/// A time zone as libical knows it: a tzdata zone, or one built from a VTIMEZONE in the file.
///
/// Not thread-safe: libical fills a zone's table of changes lazily. Readers that may run on several threads take
/// `privateCopy` zones (their own libical objects) rather than the `builtin` ones libical shares.
final class LibicalZone {
    private let zone: OpaquePointer
    /// Zones built from a VTIMEZONE belong to us; tzdata zones belong to libical.
    private let owned: Bool
    /// The bare IANA name for tzdata zones (libical's own TZID carries a prefix).
    let ianaName: String?

    private init(zone: OpaquePointer, owned: Bool, ianaName: String?) {
        self.zone = zone
        self.owned = owned
        self.ianaName = ianaName
    }

    deinit {
        if owned { icaltimezone_free(zone, 1) }
    }

    /// Guards libical's table of built-in zones, whose first load of a zone is not thread-safe.
    private static let builtinLock = NSLock()

    /// The tzdata zone of that name (`Europe/Berlin`), if libical has it: libical's shared object, for use on one
    /// thread (its table of changes fills lazily).
    static func builtin(_ name: String) -> LibicalZone? {
        guard !name.isEmpty else { return nil }
        return builtinLock.withLock {
            guard let zone = icaltimezone_get_builtin_timezone(name) else { return nil }
            return LibicalZone(zone: zone, owned: false, ianaName: name)
        }
    }

    /// The tzdata zone of that name as a zone of its own, built from a copy of libical's definition: nothing in
    /// it is shared with other threads. UTC needs no table and is libical's own.
    static func privateCopy(_ name: String) -> LibicalZone? {
        if name == "UTC" { return utc() }
        guard !name.isEmpty else { return nil }
        let copy = clonedDefinition(name)
        guard let copy, let zone = icaltimezone_new() else {
            if let copy { icalcomponent_free(copy) }
            return nil
        }
        guard icaltimezone_set_component(zone, copy) != 0 else {
            // A rejected component is not the zone's: freeing the zone would leave it behind.
            icaltimezone_free(zone, 1)
            icalcomponent_free(copy)
            return nil
        }
        return LibicalZone(zone: zone, owned: true, ianaName: name)
    }

    static func utc() -> LibicalZone {
        LibicalZone(zone: icaltimezone_get_utc_timezone(), owned: false, ianaName: "UTC")
    }

    /// A zone from VTIMEZONE text; nil when libical cannot read it.
    static func fromVTIMEZONE(_ text: String) -> LibicalZone? {
        guard let component = icalcomponent_new_from_string(text) else { return nil }
        guard icalcomponent_isa(component) == ICAL_VTIMEZONE_COMPONENT, let zone = icaltimezone_new() else {
            icalcomponent_free(component)
            return nil
        }
        guard icaltimezone_set_component(zone, component) != 0 else {
            // libical attaches the component only when it accepts it (a TZID is needed): free it here otherwise.
            icaltimezone_free(zone, 1)
            icalcomponent_free(component)
            return nil
        }
        return LibicalZone(zone: zone, owned: true, ianaName: nil)
    }

    /// A copy of libical's VTIMEZONE for a tzdata zone, which the caller owns; nil when libical has no such zone.
    private static func clonedDefinition(_ name: String) -> OpaquePointer? {
        builtinLock.withLock {
            guard let shared = icaltimezone_get_builtin_timezone(name),
                let definition = icaltimezone_get_component(shared)
            else { return nil }
            return icalcomponent_new_clone(definition)
        }
    }

    /// Seconds to add to UTC to get the wall clock at that UTC instant.
    func offset(atUTC seconds: Int64) -> Int {
        if ianaName == "UTC" { return 0 }
        // Offsets hold for months at a time: remember them per UTC day, for days with no change inside
        // (a change day asks libical each time).
        let day = seconds.floorDivided(by: 86_400)
        let slot = Int(UInt64(bitPattern: day) % UInt64(Self.cacheSize))
        if !cachedDays.isEmpty, cachedDays[slot] == day { return Int(cachedOffsets[slot]) }
        let offset = libicalOffset(atUTC: seconds)
        if libicalOffset(atUTC: day * 86_400) == offset, libicalOffset(atUTC: day * 86_400 + 86_399) == offset {
            if cachedDays.isEmpty {
                cachedDays = [Int64](repeating: .min, count: Self.cacheSize)
                cachedOffsets = [Int32](repeating: 0, count: Self.cacheSize)
            }
            cachedDays[slot] = day
            cachedOffsets[slot] = Int32(offset)
        }
        return offset
    }

    private static let cacheSize = 4096
    /// Made on the first offset asked (48 KB): a reader builds a zone per input (a CalDAV download, per resource)
    /// and may ask it nothing, and UTC asks libical nothing.
    private var cachedDays: [Int64] = []
    private var cachedOffsets: [Int32] = []

    /// 2400-01-01T00:00:00Z, past which instants are read a whole number of 400-year cycles earlier.
    private static let foldStart = Int64(LocalDateTime(year: 2400, month: 1, day: 1).wallSeconds)
    /// 400 Gregorian years: 146,097 days, a whole number of weeks, after which every yearly, monthly, weekly or
    /// daily rule of a VTIMEZONE (tzdata's included) gives the same changes again.
    private static let cycle = Int64(146_097 * 86_400)

    private func libicalOffset(atUTC seconds: Int64) -> Int {
        // libical expands a zone's changes year by year up to the year asked (through ICU), which takes seconds for
        // the year 9999 a calendar may name; the same instant 400·k years earlier has the same offset.
        var seconds = seconds
        if seconds >= Self.foldStart { seconds -= ((seconds - Self.foldStart) / Self.cycle + 1) * Self.cycle }
        var time = Self.icalTime(LocalDateTime(wallSeconds: seconds), isDate: false)
        time.zone = icaltimezone_get_utc_timezone()
        var isDaylight: Int32 = 0
        return Int(icaltimezone_get_utc_offset_of_utc_time(zone, &time, &isDaylight))
    }

    /// The UTC instant of a wall-clock time (RFC 5545 §3.3.5): in an overlap the first occurrence, in a gap the
    /// offset from before the gap.
    func utcSeconds(of local: LocalDateTime) -> Int64 {
        let wall = local.wallSeconds
        let before = Int64(offset(atUTC: wall - 86_400))
        let after = Int64(offset(atUTC: wall + 86_400))
        if before == after, Int64(offset(atUTC: wall - before)) == before { return wall - before }  // no change near
        let early = wall - before, late = wall - after
        let earlyValid = Int64(offset(atUTC: early)) == before
        let lateValid = Int64(offset(atUTC: late)) == after
        switch (earlyValid, lateValid) {
        case (true, true): return min(early, late)
        case (false, true): return late
        default: return early  // valid before, or a gap: the offset from before the gap
        }
    }

    /// The wall clock at a UTC instant.
    func local(atUTC seconds: Int64) -> LocalDateTime {
        LocalDateTime(wallSeconds: seconds + Int64(offset(atUTC: seconds)))
    }

    /// The VTIMEZONE text libical has for a tzdata zone, from the start of `fromYear` on (its TZID still carries
    /// libical's prefix; the caller renames it).
    static func vtimezoneText(iana name: String, fromYear: Int) -> String? {
        guard let copy = clonedDefinition(name) else { return nil }
        defer { icalcomponent_free(copy) }
        var start = icaltime_null_time()
        (start.year, start.month, start.day) = (Int32(fromYear), 1, 1)
        start.zone = icaltimezone_get_utc_timezone()
        icaltimezone_truncate_vtimezone(copy, start, icaltime_null_time(), 0)
        guard let text = icalcomponent_as_ical_string_r(copy) else { return nil }
        defer { icalmemory_free_buffer(text) }
        return String(cString: text)
    }

    /// Every tzdata zone name libical knows.
    static var builtinNames: [String] {
        guard let zones = icaltimezone_get_builtin_timezones() else { return [] }
        return (0..<zones.pointee.num_elements).compactMap { index in
            let zone = OpaquePointer(icalarray_element_at(zones, index))
            return icaltimezone_get_location(zone).map { String(cString: $0) }
        }
    }

    static func icalTime(_ local: LocalDateTime, isDate: Bool) -> icaltimetype {
        var time = icaltime_null_time()
        (time.year, time.month, time.day) = (Int32(local.year), Int32(local.month), Int32(local.day))
        if isDate {
            time.is_date = 1
        } else {
            (time.hour, time.minute, time.second) = (Int32(local.hour), Int32(local.minute), Int32(local.second))
        }
        return time
    }
}

/// libical's RRULE iterator over wall-clock times (zones are applied afterwards, per instance).
final class LibicalRecurrenceIterator {
    private let iterator: OpaquePointer
    /// The RSCALE name `icalrecurrencetype_from_string` duplicated: ours to free (libical 3.0 hands the rule over
    /// by value and never frees it), after the iterator that copied the rule.
    private let scale: UnsafeMutablePointer<CChar>?

    /// nil when libical rejects the rule (unknown RSCALE, BYWEEKNO with BYMONTH …).
    init?(rule: String, start: LocalDateTime, isDate: Bool) {
        let recurrence = icalrecurrencetype_from_string(rule)
        guard recurrence.freq != ICAL_NO_RECURRENCE,
            let iterator = icalrecur_iterator_new(recurrence, LibicalZone.icalTime(start, isDate: isDate))
        else {
            free(recurrence.rscale)
            return nil
        }
        self.iterator = iterator
        scale = recurrence.rscale
    }

    deinit {
        icalrecur_iterator_free(iterator)
        free(scale)
    }

    /// Jumps ahead to the first instance at or after `start`; false when the rule has COUNT (libical cannot).
    func skip(to start: LocalDateTime, isDate: Bool) -> Bool {
        icalrecur_iterator_set_start(iterator, LibicalZone.icalTime(start, isDate: isDate)) != 0
    }

    func next() -> LocalDateTime? {
        let time = icalrecur_iterator_next(iterator)
        if icaltime_is_null_time(time) != 0 { return nil }
        return LocalDateTime(
            year: Int(time.year), month: Int(time.month), day: Int(time.day), hour: Int(time.hour),
            minute: Int(time.minute), second: Int(time.second))
    }
}
