import CalendarModel
import Foundation

/// A speed trick (BENCHMARKS.md, "Speed tricks"): `agenda --json` written in pieces on every core.
extension ListedRows {
    /// How many instances one piece of `printJSON` writes.
    static let jsonPiece = 4_096

    /// The instances as one indented JSON array on standard output (`InstanceFormat.write`), in pieces of
    /// `jsonPiece` written on every core, each with a clock of its own (a clock serves one thread), and printed in
    /// order as each round of pieces (four per core, so that a round ends with every core busy until nearly its
    /// end) is done: the output is the same as one writer's, its memory a round's. A piece's own `[` is printed as
    /// the `,` before its elements (or not at all for the first), so its bytes go out without a copy.
    func printJSON(zone: String) throws {
        let (segments, places) = (segments, order)
        let pieces = stride(from: 0, to: places.count, by: Self.jsonPiece).map {
            $0..<Swift.min($0 + Self.jsonPiece, places.count)
        }
        let perRound = 4 * Swift.max(1, ProcessInfo.processInfo.activeProcessorCount)
        var wrote = false
        try Output.writeStandardOutput([UInt8(ascii: "[")])
        for round in stride(from: 0, to: pieces.count, by: perRound) {
            let pieces = Array(pieces[round..<Swift.min(round + perRound, pieces.count)])
            let written = ParallelParts.run(pieces.count) { piece -> [UInt8] in
                // The name is a zone's that was found: it is found again.
                let format = InstanceFormat(zone: ZoneClock(identifier: zone) ?? ZoneClock(identifier: "UTC")!)
                var writer = JSONWriter(pretty: true)
                writer.beginArray()
                for (segment, index) in places[pieces[piece]] {
                    format.write(segments[segment].occurrences[index], calendar: segments[segment].name, to: &writer)
                }
                return writer.bytes  // the piece's own `[`, then its elements
            }
            for var bytes in written where bytes.count > 1 {
                if wrote {
                    bytes[0] = UInt8(ascii: ",")
                    try Output.writeStandardOutput(bytes)
                } else {
                    try Output.writeStandardOutput(bytes[1...])
                }
                wrote = true
            }
        }
        try Output.writeStandardOutput(Array((wrote ? "\n]\n" : "]\n").utf8))
    }
}
