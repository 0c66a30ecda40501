import CalendarModel

/// What a listing shows of an item, declared once: the properties `agenda` (its line and `--json`) and `remind` read,
/// and every line of the components inside an item (its alarms). The index keeps each listed item's lines of these
/// (`listedItem.lines`), and a listing parses those with the same reader as the whole item, instead of the whole
/// content: a week of 100,000 items reads a quarter of the bytes (BENCHMARKS.md, "listed lines": 0.30 → 0.2 s).
///
/// A field a listing starts to show is added here, in the same change; `InstanceCacheCLITests` compares every
/// listing with one made from whole items (`ICSKIT_INSTANCE_CACHE=0`) and fails when a shown field is missing.
/// `agenda --details`, which shows descriptions, links and more, reads whole items.
enum ListedLines {
    static let properties: Set<String> = [
        "UID", "DTSTAMP", "SUMMARY", "LOCATION", "STATUS", "CATEGORIES", "COLOR", "ORGANIZER", "ATTENDEE",
        "RECURRENCE-ID", "COMPLETED", "PERCENT-COMPLETE", "PRIORITY", "DTSTART", "DTEND", "DUE", "DURATION",
    ]

    private static let names: Set<[UInt8]> = Set((properties.union(["BEGIN", "END"])).map { Array($0.utf8) })

    /// A stored component's lines of `properties` (with their folded continuations), BEGIN and END, and every line
    /// of a component inside it.
    static func lines(of content: String) -> [UInt8] {
        let (begin, end) = (Array("BEGIN".utf8), Array("END".utf8))
        var kept: [UInt8] = []
        var content = content
        content.withUTF8 { text in
            kept.reserveCapacity(text.count / 3)
            var depth = 0
            var keeping = false
            var start = 0
            while start < text.count {
                var stop = start
                while stop < text.count, text[stop] != 0x0A { stop += 1 }
                let line = text[start..<min(stop + 1, text.count)]
                if let first = line.first, first == 0x20 || first == 0x09 {
                    if keeping { kept += line }
                } else {
                    var nameEnd = start
                    while nameEnd < stop, text[nameEnd] != 0x3A, text[nameEnd] != 0x3B { nameEnd += 1 }
                    let name = text[start..<nameEnd].map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }
                    if name == begin { depth += 1 }
                    keeping = depth > 1 || names.contains(name)
                    if name == end { depth -= 1 }
                    if keeping { kept += line }
                }
                start = stop + 1
            }
        }
        return kept
    }
}
