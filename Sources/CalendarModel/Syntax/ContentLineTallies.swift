extension ContentLineScanner {
    /// Lines repaired or flagged while scanning, summed up at the end of the input. Only the first few of each kind
    /// are kept with their lines, the rest counted, so a file with a problem on every line does not hold every line
    /// number.
    struct Tallies: Sendable {
        /// How many lines of a kind the summary names one by one (and one more, whose line the "more" note gets).
        static let listed = 20

        var nonUTF8 = LineTally<Void>(keeping: 1)
        /// UTF-8 lines with a few bytes that are not: how many were read as Windows-1252, how many replaced.
        var repaired = LineTally<(windows1252: Int, replaced: Int)>(keeping: listed + 1)
        var controls = LineTally<Void>(keeping: 1)
        /// Lines whose values were padded with NUL bytes (removed).
        var nulPadding = LineTally<Void>(keeping: 1)
        /// Continuation lines that begin inside a UTF-8 character.
        var splitFolds = LineTally<Void>(keeping: 1)
        /// Lines holding a noncharacter, with the first one found.
        var noncharacters = LineTally<Unicode.Scalar>(keeping: listed + 1)

        /// Adds the tallies of the input's next part.
        mutating func add(_ other: Tallies) {
            nonUTF8.add(other.nonUTF8)
            repaired.add(other.repaired)
            controls.add(other.controls)
            nulPadding.add(other.nulPadding)
            splitFolds.add(other.splitFolds)
            noncharacters.add(other.noncharacters)
        }
    }

    /// Lines with one kind of problem, in input order: the first `keeping` with what was found there, all counted.
    struct LineTally<Detail: Sendable>: Sendable {
        private(set) var first: [(line: Int, detail: Detail)] = []
        private(set) var count = 0
        let keeping: Int

        init(keeping: Int) { self.keeping = keeping }

        mutating func add(_ line: Int, _ detail: Detail) {
            count += 1
            if first.count < keeping { first.append((line, detail)) }
        }

        mutating func add(_ other: LineTally) {
            first += other.first.prefix(keeping - first.count)
            count += other.count
        }
    }
}
