import CalendarModel

/// What a listing shows of items, as their lines: the properties its caller declares (`agenda` declares the fields
/// its line and `--json` show, `AgendaCommand.listedProperties`), BEGIN and END, and every line of the components
/// inside an item (its alarms). The index keeps each listed item's lines (`listedItem.lines`), with the declared
/// names in `instanceState.listedProperties`, and a listing parses those with the same reader as whole items instead
/// of the whole content (a week of 100,000 items reads a quarter of the bytes: BENCHMARKS.md, "listed lines"). A
/// listing that declares other names has every kept month made again.
///
/// `InstanceCacheCLITests` compares every listing with one made from whole items (`ICSKIT_INSTANCE_CACHE=0`), so a
/// field shown but not declared fails it.
enum ListedLines {
    /// The names a key holds.
    static func properties(key: String) -> Set<String> { Set(key.split(separator: ",").map(String.init)) }

    /// The declared names as kept: sorted, comma-separated.
    static func key(_ properties: Set<String>) -> String {
        properties.map { $0.uppercased() }.sorted().joined(separator: ",")
    }

    /// A stored component's lines of `properties` (with their folded continuations), BEGIN and END, and every line
    /// of a component inside it.
    static func lines(of content: String, properties: Set<String>) -> [UInt8] {
        let (begin, end) = (Array("BEGIN".utf8), Array("END".utf8))
        let names = Set(properties.map { Array($0.uppercased().utf8) } + [begin, end])
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
