/// Writes components as RFC 5545 text: CRLF line ends, lines folded at 75 octets without splitting a UTF-8
/// sequence, name and parameters as read while unchanged.
struct ICSWriter {
    private(set) var bytes: [UInt8] = []
    /// Octets on the current physical line.
    private var column = 0

    init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    mutating func write(_ component: Component) {
        if let layout = component.sourceLayout, layout.count == component.components.count,
            zip(layout, layout.dropFirst()).allSatisfy({ $0 <= $1 }), (layout.last ?? 0) <= component.properties.count
        {
            // Properties and children interleaved as they were read.
            contentLine("BEGIN:" + (component.sourceName ?? component.name))
            var written = 0
            for (child, before) in zip(component.components, layout) {
                for property in component.properties[written..<before] { write(property) }
                written = before
                write(child)
            }
            for property in component.properties[written...] { write(property) }
        } else {
            writeOpening(component)
            for child in component.components { write(child) }
        }
        writeClosing(component)
    }

    /// BEGIN and the component's properties: what comes before its children.
    mutating func writeOpening(_ component: Component) {
        contentLine("BEGIN:" + (component.sourceName ?? component.name))
        for property in component.properties { write(property) }
    }

    /// The END line.
    mutating func writeClosing(_ component: Component) {
        contentLine("END:" + (component.sourceEndName ?? component.sourceName ?? component.name))
    }

    mutating func write(_ property: Property) {
        append(property.sourcePrefix ?? property.canonicalPrefix)
        append(":")
        append(property.value)
        endLine()
    }

    /// Appends one unfolded content line, folded and terminated with CRLF.
    mutating func contentLine(_ line: String) {
        append(line)
        endLine()
    }

    private mutating func endLine() {
        bytes.append(contentsOf: [0x0D, 0x0A])
        column = 0
    }

    /// Appends text to the current line, folding before the 76th octet of a physical line.
    private mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            var start = 0
            while utf8.count - start > 75 - column {
                var cut = start + (75 - column)
                // Never fold inside a multi-byte character: step back over continuation bytes.
                while cut > start, utf8[cut] & 0xC0 == 0x80 { cut -= 1 }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<cut]))
                bytes.append(contentsOf: [0x0D, 0x0A, 0x20])
                column = 1
                start = cut
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
            column += utf8.count - start
        }
    }
}
