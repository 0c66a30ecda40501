// DocExamples: runs the Swift blocks of README.md and the DocC articles (Articles.swift) in the current folder,
// which holds the files they read (work.ics). Exit status 1 when one of them did not do what its text says.
import Foundation

func check(_ condition: Bool, _ what: @autoclosure () -> String) {
    guard !condition else { return }
    FileHandle.standardError.write(Data("DocExamples: failed: \(what())\n".utf8))
    exit(1)
}

let examples: [(String, () throws -> Void)] = [
    ("reading", readingAFile), ("week", expandingAWeek), ("making", makingItems),
    ("colours", categoriesAndColours), ("zones", timeZones), ("readme", readmeEditLoop), ("series", editingASeries),
]
for (name, example) in examples {
    do {
        try example()
    } catch {
        check(false, "\(name): \(error)")
    }
}
print("DocExamples: \(examples.count) examples ran")
