import CalendarMerge
import XCTest

/// A file's digest tells the same bytes from any others: a changed byte anywhere, in either half of a large file, a
/// byte added or removed, or bytes swapped within a word.
final class SourceDigestTests: XCTestCase {
    func testOneChangedByteAnywhereChangesTheDigest() {
        for size in [0, 1, 7, 8, 9, 1000, (1 << 20) + 13] {
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            let digest = SourceDigest.of(bytes)
            XCTAssertEqual(SourceDigest.of(bytes), digest, "the same bytes, the same digest")
            XCTAssertTrue(digest.hasSuffix("-\(size)"))
            for position in Set([0, size / 3, size / 2, size / 2 + 1, size - 1]) where position >= 0 && position < size
            {
                var changed = bytes
                changed[position] ^= 0x20
                XCTAssertNotEqual(SourceDigest.of(changed), digest, "size \(size), byte \(position)")
            }
            if size >= 2 {
                var swapped = bytes
                swapped.swapAt(0, 1)
                if swapped != bytes { XCTAssertNotEqual(SourceDigest.of(swapped), digest) }
            }
            XCTAssertNotEqual(SourceDigest.of(bytes + [0]), digest, "a byte more")
        }
    }
}
