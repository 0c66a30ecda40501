import Foundation

/// An iTIP message as a mail (iMIP, RFC 6047): what `icskit reply`, `edit --notify` and `rm --notify` write.
package enum IMIPMail {
    /// An address of the calendar data that is not one mailbox: no mail is written.
    package struct NotAMailbox: Error {
        package var address: String
    }

    /// multipart/mixed: a multipart/alternative (text/plain, text/calendar with its method) and the calendar again
    /// as an attachment, as CalConnect's iMIP guide advises; both base64, UTF-8.
    package static func mail(
        from: String, to: [String], subject: String, text: String, calendar: String, method: String, now: Date
    ) throws -> String {
        // Addresses come from the calendar data: each must be one mailbox, or a header could name others.
        for address in [from] + to where !isMailbox(address) { throw NotAMailbox(address: address) }
        let boundary = "icskit-" + UUID().uuidString
        let inner = "icskit-alt-" + UUID().uuidString
        let encoded = Data(calendar.utf8).base64EncodedString(options: [.lineLength76Characters])
        let body = Data((text + "\n").utf8).base64EncodedString(options: [.lineLength76Characters])
        let date = DateFormatter()
        date.locale = Locale(identifier: "en_US_POSIX")
        date.timeZone = TimeZone(identifier: "UTC")
        date.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        var lines = [
            "From: \(from)",
            "To: \(to.joined(separator: ", "))",
            "Subject: \(headerText(subject))",
            "Date: \(date.string(from: now))",
            "Message-ID: <\(UUID().uuidString.lowercased())@icskit>",
            "MIME-Version: 1.0",
            "Content-Type: multipart/mixed; boundary=\"\(boundary)\"",
            "",
            "--\(boundary)",
            "Content-Type: multipart/alternative; boundary=\"\(inner)\"",
            "",
            "--\(inner)",
            "Content-Type: text/plain; charset=UTF-8",
            "Content-Transfer-Encoding: base64",
            "",
        ]
        lines += body.components(separatedBy: "\r\n")
        lines += [
            "--\(inner)",
            "Content-Type: text/calendar; charset=UTF-8; method=\(method)",
            "Content-Transfer-Encoding: base64",
            "",
        ]
        lines += encoded.components(separatedBy: "\r\n")
        lines += [
            "--\(inner)--",
            "--\(boundary)",
            "Content-Type: application/ics; name=\"\(method.lowercased()).ics\"",
            "Content-Disposition: attachment; filename=\"\(method.lowercased()).ics\"",
            "Content-Transfer-Encoding: base64",
            "",
        ]
        lines += encoded.components(separatedBy: "\r\n")
        lines.append("--\(boundary)--")
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// Whether `address` is one mailbox (`local@domain`, RFC 5322's addr-spec without quoting or comments): no
    /// comma, space, angle bracket or control character that would make a header name more than one.
    package static func isMailbox(_ address: String) -> Bool {
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasPrefix("."),
            !parts[1].hasSuffix(".")
        else { return false }
        return address.unicodeScalars.allSatisfy { scalar in
            scalar.value > 0x20 && scalar.value != 0x7F && !",;:<>()[]\\\"".unicodeScalars.contains(scalar)
        }
    }

    /// A header value, RFC 2047-encoded (UTF-8, base64) when it is not plain ASCII.
    package static func headerText(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value > 0x7E || $0.value < 0x20 }) else { return text }
        return "=?UTF-8?B?" + Data(text.utf8).base64EncodedString() + "?="
    }
}
