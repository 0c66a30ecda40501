/// Literal-form checks that libical skips (it reads `20240230` and `T250000` as valid, `INTEGER:x` as 0).
enum ValueSyntax {
    static func isDigits(_ text: Substring.UTF8View) -> Bool {
        !text.isEmpty && text.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// `YYYYMMDD`, `YYYYMMDDTHHMMSS` or `YYYYMMDDTHHMMSSZ`.
    static func isDateOrDateTime(_ text: String) -> Bool {
        let utf8 = Substring(text).utf8
        switch utf8.count {
        case 8: return isDigits(utf8)
        case 15, 16:
            let t = utf8.index(utf8.startIndex, offsetBy: 8)
            let timeEnd = utf8.index(t, offsetBy: 7)
            guard isDigits(utf8[utf8.startIndex..<t]), utf8[t] == UInt8(ascii: "T"),
                  isDigits(utf8[utf8.index(after: t)..<timeEnd]) else { return false }
            return utf8.count == 15 || utf8[timeEnd] == UInt8(ascii: "Z")
        default: return false
        }
    }

    static func isInteger(_ text: String) -> Bool {
        var utf8 = Substring(text).utf8
        if let first = utf8.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") { utf8 = utf8.dropFirst() }
        return isDigits(utf8)
    }

    /// `+HHMM` or `+HHMMSS` (RFC 5545 §3.3.14).
    static func isUTCOffset(_ text: String) -> Bool {
        let utf8 = Substring(text).utf8
        guard let sign = utf8.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"),
              utf8.count == 5 || utf8.count == 7 else { return false }
        return isDigits(utf8.dropFirst())
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
