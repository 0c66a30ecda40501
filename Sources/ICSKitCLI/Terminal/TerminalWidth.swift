import Foundation

/// How many columns text takes on a terminal (Unicode's East Asian Width, UAX #11, and emoji presentation, UTS #51):
/// a wide or fullwidth character (CJK, Hangul, kana, fullwidth forms) or an emoji takes two, a combining mark or a
/// joiner none, anything else one; counted per character as the user sees it (a grapheme cluster).
enum TerminalWidth {
    /// The columns of one character.
    static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.properties.generalCategory == .control { return 0 }
        if scalars.contains(where: { $0.properties.isEmojiPresentation })
            || (scalars.contains("\u{FE0F}") && first.properties.isEmoji)
        {
            return 2
        }
        if [.nonspacingMark, .enclosingMark, .format].contains(first.properties.generalCategory) { return 0 }
        return isWide(first.value) ? 2 : 1
    }

    /// The columns of a text.
    static func of(_ text: String) -> Int { text.reduce(0) { $0 + of($1) } }

    /// Wide and fullwidth ranges of UAX #11 (EastAsianWidth.txt, W and F).
    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
            0x1F200...0x1F2FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    /// `text` cut to at most `width` columns (a cut text ends with `…`) and padded with spaces to exactly `width`:
    /// a wide character that would not fit whole is left out, never split.
    static func fit(_ text: String, _ width: Int) -> String {
        guard width > 0 else { return "" }
        let total = of(text)
        if total <= width { return text + String(repeating: " ", count: width - total) }
        var out = ""
        var used = 0
        for character in text {
            let columns = of(character)
            if used + columns > width - 1 { break }
            out.append(character)
            used += columns
        }
        return out + "…" + String(repeating: " ", count: width - 1 - used)
    }

    /// The width of the terminal on standard output (its window size, else `$COLUMNS`), nil when there is none.
    static func terminalColumns() -> Int? {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init)
    }
}
