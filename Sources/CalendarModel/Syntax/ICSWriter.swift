/// Writes components as RFC 5545 text: CRLF line ends, lines folded at 75 octets without splitting a UTF-8
/// sequence, properties written as read while unchanged.
struct ICSWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    mutating func write(_ component: Component) {
        contentLine("BEGIN:" + (component.sourceName ?? component.name))
        if let layout = component.sourceLayout, layout.count == component.components.count,
           zip(layout, layout.dropFirst()).allSatisfy({ $0 <= $1 }), (layout.last ?? 0) <= component.properties.count {
            // Properties and children interleaved as they were read.
            var written = 0
            for (child, before) in zip(component.components, layout) {
                for property in component.properties[written..<min(before, component.properties.count)] {
                    contentLine(property.contentLine)
                }
                written = max(written, min(before, component.properties.count))
                write(child)
            }
            for property in component.properties[written...] { contentLine(property.contentLine) }
        } else {
            for property in component.properties { contentLine(property.contentLine) }
            for child in component.components { write(child) }
        }
        contentLine("END:" + (component.sourceEndName ?? component.sourceName ?? component.name))
    }

    /// Appends one unfolded content line, folded and terminated with CRLF.
    mutating func contentLine(_ line: String) {
        var line = line
        line.withUTF8 { utf8 in
            var start = 0
            var limit = 75
            while utf8.count - start > limit {
                var cut = start + limit
                // Never start a fold inside a multi-byte character: step back over continuation bytes.
                while cut > start, utf8[cut] & 0xC0 == 0x80 { cut -= 1 }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<cut]))
                bytes.append(contentsOf: [0x0D, 0x0A, 0x20])
                start = cut
                limit = 74
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
            bytes.append(contentsOf: [0x0D, 0x0A])
        }
    }
}
