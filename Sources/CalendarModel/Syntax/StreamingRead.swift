import Foundation

extension ICS {
    /// What a streamed read gave besides its components: the calendar's own properties and every diagnostic.
    package struct StreamedRead: Sendable {
        /// The calendar with its own properties and no components (those went through `transform` and `consume`).
        package var calendar: ICalendar
        /// What was wrong and what was done about it, in line order: the same as `ICS.read` of the whole file.
        package var diagnostics: [Diagnostic]

        /// Whether any diagnostic is an error.
        package var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
    }

    /// Reads a file a run of components at a time, in memory bounded by the runs in flight rather than by the file:
    /// `opening` hears the calendar's own properties first; then each run of components is decoded and handed to
    /// `transform` on every core (with the run's number, from 0), and what `transform` made goes to `consume` in
    /// input order. The components, model and diagnostics are those `ICS.read` gives for the whole file.
    ///
    /// Streaming takes the common shape only (one VCALENDAR, its properties first, BEGIN and END in capitals and
    /// matched: `CalendarShape`), which a first pass over the file checks in the same bounded memory. Anything else
    /// (and a file that cannot be opened, or is not a regular file) returns nil before `opening` is called: read it
    /// whole. Throws when a read fails, when the file changes between the passes, and what `opening` or `consume`
    /// throws.
    package static func stream<Run: Sendable>(
        contentsOf path: String, file: String? = nil,
        opening: (ICalendar) throws -> Void,
        transform: @escaping @Sendable (_ components: [CalendarComponent], _ run: Int) -> Run,
        consume: (Run) throws -> Void
    ) throws -> StreamedRead? {
        try stream(
            contentsOf: path, file: file, runBytes: StreamingReader.runBytes, opening: opening,
            transform: transform, consume: consume)
    }

    /// `stream` with the size of the runs given (tests cut small files into runs of a few components).
    package static func stream<Run: Sendable>(
        contentsOf path: String, file: String?, runBytes: Int,
        opening: (ICalendar) throws -> Void,
        transform: @escaping @Sendable (_ components: [CalendarComponent], _ run: Int) -> Run,
        consume: (Run) throws -> Void
    ) throws -> StreamedRead? {
        // A file that cannot be opened is left to the whole-file reading, which reports it as it always has.
        guard let reader = try? StreamingReader(path: path, file: file ?? path, runBytes: runBytes) else { return nil }
        return try reader.read(opening: opening, transform: transform, consume: consume)
    }
}

/// The reading behind `ICS.stream`: a file descriptor read in blocks, cut at the BEGIN lines of the calendar's
/// components into runs of about `runBytes`; a round of runs (four per core) is scanned, decoded and transformed in
/// parallel while nothing else of the file is held.
struct StreamingReader {
    /// Runs of about 128 kB: a run's tree and model take about ten times its size, and a round holds four per core,
    /// which the cores take one after another, so that a round ends with every core busy until nearly its end (two
    /// runs of 256 kB per core left one core waiting: a streamed convert of gen_ics.py 20000 took 3–6 % longer).
    static let runBytes = 128 << 10
    /// Blocks read at a time.
    static let blockBytes = 256 << 10

    private let descriptor: FileDescriptor
    fileprivate let path: String
    fileprivate let file: String
    fileprivate let runBytes: Int
    fileprivate let runsPerRound = max(2, 4 * ProcessInfo.processInfo.activeProcessorCount)

    init(path: String, file: String, runBytes: Int) throws {
        descriptor = try FileDescriptor(path: path)
        self.path = path
        self.file = file
        self.runBytes = max(1, runBytes)
    }

    /// A run cut from the file: its bytes and the line its first byte is on.
    private struct Run: Sendable {
        var bytes: [UInt8]
        var firstLine: Int
    }

    /// What a run gave, without its components (they are let go on the thread that made them).
    private struct RunResult<Made: Sendable>: Sendable {
        var scanned: ScannedPart
        var decodeLog: DiagnosticLog
        var checks: CalendarChecks.Part
        var made: Made
    }

    func read<Made: Sendable>(
        opening: (ICalendar) throws -> Void,
        transform: @escaping @Sendable ([CalendarComponent], Int) -> Made,
        consume: (Made) throws -> Void
    ) throws -> ICS.StreamedRead? {
        // A pipe or device cannot be read twice.
        guard let size = try descriptor.regularFileSize(), let components = try componentsIfSimpleShape() else {
            return nil
        }
        try descriptor.rewind()
        var shape = CalendarShape()
        var gathering = Gathering(reader: self, components: components, transform: transform)
        var atEnd = false
        while !atEnd {
            atEnd = try descriptor.append(upTo: Self.blockBytes, to: &gathering.carry) == 0
            let start = gathering.fed
            let whole = gathering.carry.withUnsafeBufferPointer {
                CalendarShape.wholeLines(
                    in: UnsafeBufferPointer(rebasing: $0[start...]), isEnd: atEnd, searched: gathering.searched)
            }
            var starts: [(offset: Int, line: Int)] = []
            gathering.carry.withUnsafeBufferPointer {
                shape.feed(
                    UnsafeBufferPointer(rebasing: $0[start..<(start + whole)]), at: gathering.carryOffset + start
                ) {
                    starts.append(($0, $1))
                }
            }
            gathering.fed += whole
            gathering.searched = gathering.carry.count - gathering.fed
            guard shape.isSimple else { throw StreamingError.changed(path) }
            for child in starts where gathering.scanner == nil || child.offset - gathering.runStart.offset >= runBytes {
                try gathering.cut(at: child.offset, line: child.line, opening: opening, consume: consume)
            }
            if let end = shape.calendarEnd {
                try gathering.cut(at: end.offset, line: end.line, opening: opening, consume: consume)
                gathering.dropCut()
                while try descriptor.append(upTo: Self.blockBytes, to: &gathering.carry) > 0 {}
                break
            }
            gathering.dropCut()
        }
        try gathering.processRound(consume)
        guard shape.isComplete, gathering.carryOffset + gathering.carry.count == size, var scanner = gathering.scanner
        else {
            throw StreamingError.changed(path)
        }
        gathering.carry.withUnsafeBufferPointer { scanner.finishTrailer($0, firstLine: gathering.runStart.line) }
        var log = scanner.log
        log.append(gathering.headerLog)
        log.append(gathering.decodeLog)
        gathering.checks.report(&log)
        return ICS.StreamedRead(calendar: gathering.calendar, diagnostics: log.sortedByLine)
    }

    /// What a streamed read holds between blocks: the bytes from `carryOffset` on (the run being gathered and what
    /// follows it), the header once read, the round of runs waiting to be decoded, and what the decoded ones said.
    private struct Gathering<Made: Sendable> {
        let reader: StreamingReader
        let transform: @Sendable ([CalendarComponent], Int) -> Made
        var carry: [UInt8] = []
        var carryOffset = 0
        var fed = 0
        /// How many bytes from `fed` on were searched for a line start and hold none (`wholeLines`'s `searched`).
        var searched = 0
        var scanner: ContentLineScanner?
        var calendar = ICalendar()
        var headerLog: DiagnosticLog
        var runStart = (offset: 0, line: 1)
        var round: [Run] = []
        var runIndex = 0
        var decodeLog: DiagnosticLog
        var checks = CalendarChecks(method: nil)
        let components: Int

        init(
            reader: StreamingReader, components: Int, transform: @escaping @Sendable ([CalendarComponent], Int) -> Made
        ) {
            self.reader = reader
            self.components = components
            self.transform = transform
            headerLog = DiagnosticLog(file: reader.file)
            decodeLog = DiagnosticLog(file: reader.file)
            carry.reserveCapacity(reader.runBytes + StreamingReader.blockBytes)
        }

        /// Scans, decodes and transforms the round's runs on every core, and consumes what they made in order.
        mutating func processRound(_ consume: (Made) throws -> Void) throws {
            guard !round.isEmpty else { return }
            let runs = round, first = runIndex, file = reader.file, transform = self.transform
            let colors = calendar.propertyCategoryColors
            round = []
            runIndex += runs.count
            let results = ParallelParts.run(runs.count) { index -> RunResult<Made> in
                var scanned = runs[index].bytes.withUnsafeBufferPointer {
                    ContentLineScanner.scanPart($0, firstLine: runs[index].firstLine, file: file)
                }
                var context = DecodeContext(log: DiagnosticLog(file: file))
                var components = scanned.components.map { CalendarComponent(decoding: $0, &context) }
                scanned.components = []
                // The header's category colours, as a whole read gives them (`ICalendar.didDecode`).
                if !colors.isEmpty { components.indices.forEach { components[$0].fillCategoryColors(colors) } }
                let checks = CalendarChecks.Part(components)
                return RunResult(
                    scanned: scanned, decodeLog: context.log, checks: checks,
                    made: transform(components, first + index))
            }
            for result in results {
                scanner?.absorb(result.scanned)
                decodeLog.append(result.decodeLog)
                checks.add(result.checks)
                try consume(result.made)
            }
            ProcessMemory.returnFreed()
        }

        /// Ends the header or the run being gathered where the next one begins.
        mutating func cut(
            at offset: Int, line: Int, opening: (ICalendar) throws -> Void, consume: (Made) throws -> Void
        ) throws {
            let bytes = Array(carry[(runStart.offset - carryOffset)..<(offset - carryOffset)])
            if scanner == nil {
                let header = bytes.withUnsafeBufferPointer { ContentLineScanner.header($0, file: reader.file) }
                guard let component = header.openCalendar else { throw StreamingError.changed(reader.path) }
                var context = DecodeContext(log: DiagnosticLog(file: reader.file), hasComponentsElsewhere: true)
                calendar = ICalendar(decoding: component, &context)
                headerLog = context.log
                checks = CalendarChecks(method: calendar.method, expectedItems: components, line: component.line)
                scanner = header
                try opening(calendar)
            } else {
                round.append(Run(bytes: bytes, firstLine: runStart.line))
                if round.count == reader.runsPerRound { try processRound(consume) }
            }
            runStart = (offset, line)
        }

        /// Lets go of the bytes before the run being gathered.
        mutating func dropCut() {
            let cut = runStart.offset - carryOffset
            carry.removeFirst(cut)
            fed -= cut
            carryOffset = runStart.offset
        }
    }

    /// Whether a line that starts with these bytes may be a BEGIN or END line (whose name the shape reads whole).
    private static func mayBeStructure(_ line: [UInt8]) -> Bool {
        let first = line.first.map { $0 | 0x20 }
        return first == UInt8(ascii: "b") || first == UInt8(ascii: "e")
    }

    /// The first pass, in blocks: how many components the calendar has if the whole file has the shape, else nil.
    private func componentsIfSimpleShape() throws -> Int? {
        var shape = CalendarShape()
        var buffer: [UInt8] = []
        buffer.reserveCapacity(Self.blockBytes * 2)
        var offset = 0, searched = 0
        var atEnd = false
        while !atEnd, shape.isSimple {
            atEnd = try descriptor.append(upTo: Self.blockBytes, to: &buffer) == 0
            let whole = buffer.withUnsafeBufferPointer {
                CalendarShape.wholeLines(in: $0, isEnd: atEnd, searched: searched)
            }
            buffer.withUnsafeBufferPointer {
                shape.feed(UnsafeBufferPointer(rebasing: $0[..<whole]), at: offset) { _, _ in }
            }
            buffer.removeFirst(whole)
            offset += whole
            searched = buffer.count  // what is left is the start of a line, with no other start in it
            // A line of many blocks: the shape needs its first bytes (is it BEGIN or END?) and its last two (a line
            // end cut in two), not its middle, and this pass counts no offsets: the middle goes.
            if buffer.count > Self.blockBytes, !Self.mayBeStructure(buffer) {
                buffer.removeSubrange(16..<(buffer.count - 2))
                searched = buffer.count
            }
        }
        return shape.isComplete ? shape.childCount : nil
    }
}

/// Why a streamed read stopped.
enum StreamingError: LocalizedError, CustomStringConvertible {
    case changed(String)
    case system(String, String)

    var description: String {
        switch self {
        case .changed(let path): return "\(path) changed while it was read; read it again"
        case .system(let path, let reason): return "cannot read \(path): \(reason)"
        }
    }

    var errorDescription: String? { description }
}

/// A file open for reading, closed with its last reference; it stays on the thread that reads.
private final class FileDescriptor {
    let path: String
    private let descriptor: Int32

    init(path: String) throws {
        self.path = path
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw StreamingError.system(path, String(cString: strerror(errno))) }
    }

    deinit { close(descriptor) }

    /// The size of a regular file; nil for anything else.
    func regularFileSize() throws -> Int? {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw StreamingError.system(path, String(cString: strerror(errno))) }
        return info.st_mode & S_IFMT == S_IFREG ? Int(info.st_size) : nil
    }

    func rewind() throws {
        guard lseek(descriptor, 0, SEEK_SET) == 0 else {
            throw StreamingError.system(path, String(cString: strerror(errno)))
        }
    }

    /// Reads up to `count` bytes onto the end of `bytes`; returns how many (0 at the end of the file).
    func append(upTo count: Int, to bytes: inout [UInt8]) throws -> Int {
        var failure: Int32?
        let block = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = 0
            while initialized < count {
                let got = Foundation.read(descriptor, buffer.baseAddress! + initialized, count - initialized)
                if got < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                if got == 0 { return }
                initialized += got
            }
        }
        if let failure { throw StreamingError.system(path, String(cString: strerror(failure))) }
        bytes += block
        return block.count
    }
}
