import Foundation

/// Busy time (RFC 5545 §3.6.4, §3.2.9 FBTYPE) and the free time between.
///
/// ```swift
/// let busy = calendar.busyTime(from: monday, to: sunday)
/// let slots = FreeBusy.freeSlots(busy: busy.map(\.range), from: monday, to: sunday,
///                                within: (9 * 60, 18 * 60), zone: berlin, minimum: 3600)
/// ```
package enum FreeBusy {
    /// FBTYPE of a busy period.
    package enum Kind: String, Sendable, Hashable, Comparable {
        /// Busy (an opaque, confirmed or unconfirmed item).
        case busy = "BUSY"
        /// Tentatively busy (a TENTATIVE event).
        case tentative = "BUSY-TENTATIVE"

        /// Orders kinds by name.
        package static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// One stretch of busy time (a VFREEBUSY's FREEBUSY period with its FBTYPE, placed on the timeline).
    package struct BusyTime: Sendable, Hashable {
        /// When.
        package var range: Range<Date>
        /// Busy, tentative or unavailable.
        package var kind: Kind

        /// A period of one kind.
        package init(_ range: Range<Date>, kind: Kind) {
            self.range = range
            self.kind = kind
        }
    }

    /// Overlapping and touching ranges joined, in order.
    package static func union(_ ranges: [Range<Date>]) -> [Range<Date>] {
        var merged: [Range<Date>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, range.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }

    /// The free stretches of at least `minimum` seconds in [from, to) outside every busy range: on each day, only
    /// between the wall-clock minutes `within` (e.g. 09:00–18:00 as 540…1080) of `zone`, so a DST change moves the
    /// hours with the clock. Without `within`, the whole window counts.
    package static func freeSlots(
        busy: [Range<Date>], from: Date, to: Date, within: (start: Int, end: Int)?,
        zone: ZoneClock, minimum: TimeInterval
    ) -> [Range<Date>] {
        var open: [Range<Date>] = []
        if let within {
            var day = zone.wallClock(at: from)
            day = LocalDateTime(year: day.year, month: day.month, day: day.day)
            while zone.date(of: day) < to {
                let start = max(from, zone.date(of: day.adding(seconds: Int64(within.start) * 60)))
                let end = min(to, zone.date(of: day.adding(seconds: Int64(within.end) * 60)))
                if start < end { open.append(start..<end) }
                day = day.adding(days: 1)
            }
        } else if from < to {
            open = [from..<to]
        }
        let blocked = union(busy)
        var free: [Range<Date>] = []
        for window in open {
            var cursor = window.lowerBound
            for range in blocked where range.upperBound > cursor && range.lowerBound < window.upperBound {
                if range.lowerBound > cursor { free.append(cursor..<range.lowerBound) }
                cursor = max(cursor, range.upperBound)
            }
            if cursor < window.upperBound { free.append(cursor..<window.upperBound) }
        }
        return free.filter { $0.upperBound.timeIntervalSince($0.lowerBound) >= minimum }
    }
}

extension ICalendar {
    /// The calendar's busy time in [from, to): every instance of an event that blocks time (not TRANSP:TRANSPARENT,
    /// not STATUS:CANCELLED), TENTATIVE ones as BUSY-TENTATIVE, clipped to the window and joined per kind. Floating
    /// times and dates are placed in `options.viewerZone`.
    package func busyTime(
        from: Date, to: Date, options: ExpansionOptions = ExpansionOptions(),
        file: String? = nil
    ) -> (periods: [FreeBusy.BusyTime], diagnostics: [Diagnostic]) {
        var options = options
        options.components = [.event]
        let expansion = occurrences(from: from, to: to, options: options, file: file)
        var byKind: [FreeBusy.Kind: [Range<Date>]] = [:]
        for occurrence in expansion.occurrences {
            guard case .event(let event) = occurrence.item, event.transparency != .transparent,
                event.status != .cancelled
            else { continue }
            let start = max(from, occurrence.startDate), end = min(to, occurrence.endDate)
            guard start < end else { continue }
            byKind[event.status == .tentative ? .tentative : .busy, default: []].append(start..<end)
        }
        let periods = byKind.keys.sorted().flatMap { kind in
            FreeBusy.union(byKind[kind] ?? []).map { FreeBusy.BusyTime($0, kind: kind) }
        }.sorted { ($0.range.lowerBound, $0.kind) < ($1.range.lowerBound, $1.kind) }
        return (periods, expansion.diagnostics)
    }
}
