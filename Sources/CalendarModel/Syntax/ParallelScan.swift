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
        let count = buffer.count
        var index = 0
        if count >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF { index = 3 }
        var line = 0
        var depth = 0
        // The names of the open components, innermost last.
        var open: [Slice<UnsafeBufferPointer<UInt8>>] = []
        var childStarts: [(offset: Int, line: Int)] = []
        var calendarEnd: (offset: Int, line: Int)?
        var previousWasStructure = false
        let begin = Array("BEGIN".utf8), end = Array("END".utf8)
        let calendar = Array("VCALENDAR".utf8)
        let calendarChildren = ContentLineScanner.calendarChildren.map { Array($0.utf8) }

        func startsCaseInsensitively(_ word: [UInt8], at start: Int, before stop: Int) -> Bool {
            guard stop - start >= word.count else { return false }
            for offset in 0..<word.count where buffer[start + offset] | 0x20 != word[offset] | 0x20 { return false }
            return true
        }

        while index < count {
            line += 1
            var cursor = index
            while cursor < count, buffer[cursor] != 0x0A, buffer[cursor] != 0x0D { cursor += 1 }
            let lineEnd = cursor
            var next = cursor + 1
            if cursor < count, buffer[cursor] == 0x0D {
                if cursor + 1 < count, buffer[cursor + 1] == 0x0A {
                    next = cursor + 2
                } else if cursor + 2 < count, buffer[cursor + 1] == 0x0D, buffer[cursor + 2] == 0x0A {
                    next = cursor + 3
                }
            }
            defer { index = next }
            guard index < lineEnd else { continue }  // an empty line: the scanner warns about it where it is
            let first = buffer[index]
            if first == 0x20 || first == 0x09 {
                // A continuation of a BEGIN or END line would change its name.
                if previousWasStructure { return nil }
                continue
            }
            if calendarEnd != nil { return nil }  // anything but empty lines after END:VCALENDAR
            let isBegin = startsCaseInsensitively(begin, at: index, before: lineEnd)
            let isEnd = !isBegin && startsCaseInsensitively(end, at: index, before: lineEnd)
            previousWasStructure = isBegin || isEnd
            guard isBegin || isEnd else {
                // A property: of the calendar only before its first component.
                if depth == 0 || (depth == 1 && !childStarts.isEmpty) { return nil }
                continue
            }
            let word = isBegin ? begin : end
            guard lineEnd - index > word.count + 1, buffer[index + word.count] == UInt8(ascii: ":") else { return nil }
            for offset in 0..<word.count where buffer[index + offset] != word[offset] { return nil }
            let name = buffer[(index + word.count + 1)..<lineEnd]
            let isName = name.allSatisfy {
                ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z"))
                    || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
                    || $0 == UInt8(ascii: "-")
            }
            guard isName else { return nil }
            if isBegin {
                switch depth {
                case 0: guard name.elementsEqual(calendar) else { return nil }
                case 1:
                    guard !name.elementsEqual(calendar) else { return nil }
                    childStarts.append((index, line))
                default:
                    if name.elementsEqual(calendar) || calendarChildren.contains(where: { name.elementsEqual($0) }) {
                        return nil
                    }
                }
                depth += 1
                if depth >= Component.maximumDepth { return nil }
                open.append(name)
            } else {
                guard let innermost = open.last, innermost.elementsEqual(name) else { return nil }
                open.removeLast()
                depth -= 1
                if depth == 0 { calendarEnd = (index, line) }
            }
        }
        guard let calendarEnd, childStarts.count >= 2 * pieces, pieces >= 2 else { return nil }
        header = Part(range: 0..<childStarts[0].offset, firstLine: 1)
        trailer = Part(range: calendarEnd.offset..<count, firstLine: calendarEnd.line)
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

/// A read-only view of an input buffer handed to the threads that scan its parts. `@unchecked Sendable`: the
/// buffer outlives the parallel run (the caller's `withUnsafeBufferPointer` encloses it) and nobody writes to it.
struct UnsafeSendableBuffer: @unchecked Sendable {
    let buffer: UnsafeBufferPointer<UInt8>
    init(_ buffer: UnsafeBufferPointer<UInt8>) { self.buffer = buffer }
}

/// Runs `count` independent pieces of work on every core and returns their results in order.
enum ParallelParts {
    static func run<Result: Sendable>(_ count: Int, _ work: @escaping @Sendable (Int) -> Result) -> [Result] {
        let slots = Slots<Result>(count: count)
        DispatchQueue.concurrentPerform(iterations: count) { index in slots.store(work(index), at: index) }
        return slots.results()
    }

    /// The results of one run. `@unchecked Sendable`: every access goes through `lock`.
    private final class Slots<Result: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [Result?]
        init(count: Int) { values = Array(repeating: nil, count: count) }
        func store(_ value: Result, at index: Int) { lock.withLock { values[index] = value } }
        func results() -> [Result] { lock.withLock { values.map { $0! } } }
    }
}
