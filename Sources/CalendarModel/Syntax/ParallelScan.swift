import Dispatch
import Foundation

/// Where a large, well-formed calendar can be cut so that its parts are scanned on every core with the same result
/// as one scan: one VCALENDAR whose properties all come before its components, every BEGIN and END line spelled in
/// capitals and matched, no component of a calendar's kind nested inside another, valid UTF-8 without control
/// characters or noncharacters (so no line-wide repair and no file-wide summary depends on other lines). Anything
/// else is scanned in one piece, as before: the plan only finds the common case, it never guesses.
struct ScanPlan {
    /// Physical line number (1-based) where the first byte of a range begins.
    struct Part {
        var range: Range<Int>
        var firstLine: Int
    }

    /// BEGIN:VCALENDAR and the calendar's properties.
    var header: Part
    /// The calendar's components, in runs of whole components.
    var parts: [Part]
    /// END:VCALENDAR and any empty lines after it.
    var trailer: Part

    /// On a machine with several cores, inputs of 1 MB and more are split into two parts per core (so that a
    /// slow part does not leave a core idle); smaller ones are scanned in one piece: splitting would cost more
    /// than it saves. Nil on one core.
    static let defaultSplitting: (minimumBytes: Int, pieces: Int)? = {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        return cores > 1 ? (1 << 20, 2 * cores) : nil
    }()

    /// Finds the cut points, or nil when the input is not of the simple shape (see the type's description).
    init?(_ buffer: UnsafeBufferPointer<UInt8>, pieces: Int) {
        var shape = CalendarShape()
        var childStarts: [(offset: Int, line: Int)] = []
        shape.feed(buffer, at: 0) { childStarts.append(($0, $1)) }
        guard shape.isComplete, let calendarEnd = shape.calendarEnd, childStarts.count >= 2 * pieces, pieces >= 2
        else { return nil }
        header = Part(range: 0..<childStarts[0].offset, firstLine: 1)
        trailer = Part(range: calendarEnd.offset..<buffer.count, firstLine: calendarEnd.line)
        // Runs of whole components of about equal size.
        let body = calendarEnd.offset - childStarts[0].offset
        parts = []
        var startIndex = 0
        for piece in 1...pieces {
            let target = childStarts[0].offset + body * piece / pieces
            var endIndex = startIndex + 1
            while endIndex < childStarts.count, childStarts[endIndex].offset < target { endIndex += 1 }
            if piece == pieces { endIndex = childStarts.count }
            guard startIndex < endIndex else { continue }
            let upper = endIndex < childStarts.count ? childStarts[endIndex].offset : calendarEnd.offset
            parts.append(
                Part(range: childStarts[startIndex].offset..<upper, firstLine: childStarts[startIndex].line))
            startIndex = endIndex
            if startIndex >= childStarts.count { break }
        }
    }
}

/// Follows the BEGIN and END lines of an input handed to it in runs of whole lines, and tells whether it has the
/// simple shape whose components can be read apart from each other: one VCALENDAR whose properties all come before
/// its components, every BEGIN and END line spelled in capitals (no continuation line after it) and matched, no
/// component of a calendar's kind nested inside another, nothing but empty lines after END:VCALENDAR, and nesting
/// below `Component.maximumDepth`. It holds only the names of the open components, so it can follow a file of any
/// size; `ScanPlan` and the streaming reader (`ICS.stream`) both ask it.
struct CalendarShape {
    /// False from the first line that breaks the shape on.
    private(set) var isSimple = true
    /// Physical lines read so far.
    private(set) var line = 0
    /// Where END:VCALENDAR stands, once read.
    private(set) var calendarEnd: (offset: Int, line: Int)?
    /// How many components the calendar has so far.
    private(set) var childCount = 0
    /// The names of the open components, innermost last.
    private var open: [[UInt8]] = []
    private var previousWasStructure = false

    private static let begin = Array("BEGIN".utf8), end = Array("END".utf8)
    private static let calendar = Array("VCALENDAR".utf8)
    private static let calendarChildren = ContentLineScanner.calendarChildren.map { Array($0.utf8) }

    /// Whether everything read so far has the shape and the calendar is closed.
    var isComplete: Bool { isSimple && calendarEnd != nil && open.isEmpty }

    /// Reads the whole lines in `buffer`, which holds the input's bytes from `offset` on (the first run starts at
    /// offset 0, where a byte order mark is skipped). A run must end where a line ends, and not between the CR and
    /// LF of one line end (`wholeLines(in:)` finds such a place). `childStart` hears the offset and line of each
    /// BEGIN of a calendar component.
    mutating func feed(
        _ buffer: UnsafeBufferPointer<UInt8>, at offset: Int, childStart: (_ offset: Int, _ line: Int) -> Void
    ) {
        let count = buffer.count
        var index = 0
        if offset == 0, count >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF { index = 3 }

        func startsCaseInsensitively(_ word: [UInt8], at start: Int, before stop: Int) -> Bool {
            guard stop - start >= word.count else { return false }
            for offset in 0..<word.count where buffer[start + offset] | 0x20 != word[offset] | 0x20 { return false }
            return true
        }

        while index < count, isSimple {
            line += 1
            let (lineEnd, next) = ContentLineScanner.lineEnd(buffer, from: index)
            defer { index = next }
            guard index < lineEnd else { continue }  // an empty line: the scanner warns about it where it is
            let first = buffer[index]
            if first == 0x20 || first == 0x09 {
                // A continuation of a BEGIN or END line would change its name.
                if previousWasStructure { isSimple = false }
                continue
            }
            if calendarEnd != nil { isSimple = false; return }  // anything but empty lines after END:VCALENDAR
            let isBegin = startsCaseInsensitively(Self.begin, at: index, before: lineEnd)
            let isEnd = !isBegin && startsCaseInsensitively(Self.end, at: index, before: lineEnd)
            previousWasStructure = isBegin || isEnd
            guard isBegin || isEnd else {
                // A property: of the calendar only before its first component.
                if open.isEmpty || (open.count == 1 && childCount > 0) { isSimple = false }
                continue
            }
            guard structureLine(buffer, index..<lineEnd, isBegin: isBegin, at: offset, childStart: childStart) else {
                isSimple = false
                return
            }
        }
    }

    /// A BEGIN or END line in `range` of `buffer` (which starts at `offset` of the input), in the canonical
    /// spelling (`BEGIN:` upper case, a name of capitals, digits and '-'): opened or closed; false when the line is
    /// spelt otherwise or closes what is not open.
    private mutating func structureLine(
        _ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, isBegin: Bool, at offset: Int,
        childStart: (_ offset: Int, _ line: Int) -> Void
    ) -> Bool {
        let word = isBegin ? Self.begin : Self.end
        let index = range.lowerBound
        guard range.count > word.count + 1, buffer[index + word.count] == UInt8(ascii: ":") else { return false }
        for position in 0..<word.count where buffer[index + position] != word[position] { return false }
        let name = buffer[(index + word.count + 1)..<range.upperBound]
        let isName = name.allSatisfy {
            ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
                || $0 == UInt8(ascii: "-")
        }
        guard isName else { return false }
        if isBegin {
            begin(name, at: offset + index, childStart: childStart)
        } else {
            guard let innermost = open.last, innermost.elementsEqual(name) else { return false }
            open.removeLast()
            if open.isEmpty { calendarEnd = (offset + index, line) }
        }
        return true
    }

    /// A BEGIN line at `offset`: the calendar at the top, its components one level down (heard by `childStart`),
    /// anything but another calendar or calendar component below them.
    private mutating func begin(
        _ name: Slice<UnsafeBufferPointer<UInt8>>, at offset: Int, childStart: (_ offset: Int, _ line: Int) -> Void
    ) {
        switch open.count {
        case 0: if !name.elementsEqual(Self.calendar) { isSimple = false }
        case 1:
            if name.elementsEqual(Self.calendar) { isSimple = false }
            childCount += 1
            childStart(offset, line)
        default:
            if name.elementsEqual(Self.calendar) || Self.calendarChildren.contains(where: { name.elementsEqual($0) }) {
                isSimple = false
            }
        }
        open.append(Array(name))
        if open.count >= Component.maximumDepth { isSimple = false }
    }

    /// How much of `buffer` is whole lines that can be fed: up to the start of its last line that begins with
    /// something other than a line end (so no CR LF is cut in two), or all of it at the end of the input.
    /// `searched`: how many bytes at the front a call before found no such start in, which are not looked at again
    /// (a line of many blocks would otherwise be searched again with every block: quadratic time).
    static func wholeLines(in buffer: UnsafeBufferPointer<UInt8>, isEnd: Bool, searched: Int = 0) -> Int {
        if isEnd { return buffer.count }
        var index = buffer.count - 1
        while index > max(0, searched - 1) {
            let byte = buffer[index], before = buffer[index - 1]
            if byte != 0x0A, byte != 0x0D, before == 0x0A || before == 0x0D { return index }
            index -= 1
        }
        return 0
    }
}

/// A read-only view of an input buffer handed to the threads that scan its parts. `@unchecked Sendable`: the
/// buffer outlives the parallel run (the caller's `withUnsafeBufferPointer` encloses it) and nobody writes to it.
struct UnsafeSendableBuffer: @unchecked Sendable {
    let buffer: UnsafeBufferPointer<UInt8>
    init(_ buffer: UnsafeBufferPointer<UInt8>) { self.buffer = buffer }
}
