import Foundation

extension ICalendar {
    /// A calendar with several METHOD properties as strict readers take it (`icskit convert --repair`): RFC 5545
    /// allows one, and an iTIP message is one method. Values that agree (case aside) are one METHOD; values that
    /// differ split the calendar into one VCALENDAR per method, each item going with the METHOD written before it
    /// (as two iTIP bodies pasted into one calendar read), every VTIMEZONE with each. When nothing tells which item
    /// goes with which method (every METHOD before every item), the calendar is written without METHOD: a plain
    /// calendar keeps every item, where any one method would misstate some. One warning says what was done.
    package func splittingMethods(file: String? = nil) -> (calendars: [ICalendar], diagnostics: [Diagnostic]) {
        let root = encoded()
        let methods = root.properties.filter { $0.name == "METHOD" }
        guard methods.count > 1 else { return ([self], []) }
        var log = DiagnosticLog(file: file)
        let values = methods.map { $0.value.trimmingCharacters(in: .whitespaces).uppercased() }
        let distinct = values.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        var own = root
        own.components = []
        own.properties.removeAll { $0.name == "METHOD" }
        func calendar(method: String?, _ components: [Component]) -> ICalendar {
            var part = own
            if let method {
                let at = part.properties.firstIndex { !["VERSION", "PRODID", "CALSCALE"].contains($0.name) }
                part.properties.insert(Property("METHOD", value: method), at: at ?? part.properties.count)
            }
            part.components = components
            // Decoded from the components themselves, so that what is repaired next is reported at the lines read.
            return ICS.calendars(from: [part], file: file).calendars.first ?? ICalendar()
        }
        if distinct.count == 1 {
            log.warning(
                methods[1].line, "repaired: METHOD \(distinct[0]) written \(methods.count) times; written once",
                code: "repair-repeated-method")
            return ([calendar(method: distinct[0], root.components)], log.sortedByLine)
        }
        // Each item with the last METHOD before it; items before every METHOD with the first.
        let zones = root.components.filter { $0.name == "VTIMEZONE" }
        var groups: [String: [Component]] = [:]
        for component in root.components where component.name != "VTIMEZONE" {
            let method = methods.indices.last { methods[$0].line < component.line }.map { values[$0] } ?? values[0]
            groups[method, default: []].append(component)
        }
        let named = distinct.joined(separator: ", ")
        guard groups.count > 1 else {
            log.warning(
                methods[1].line,
                "repaired: METHOD \(named) in one VCALENDAR, every one before every item, so nothing says which "
                    + "item each is for; written without METHOD (a plain calendar)", code: "repair-methods-dropped")
            return ([calendar(method: nil, root.components)], log.sortedByLine)
        }
        let parts = distinct.compactMap { method in groups[method].map { calendar(method: method, zones + $0) } }
        log.warning(
            methods[1].line,
            "repaired: METHOD \(named) in one VCALENDAR; split into \(parts.count) VCALENDARs, each item with the "
                + "METHOD written before it", code: "repair-methods-split")
        return (parts, log.sortedByLine)
    }

    /// RFC 7986 IMAGE with inline data (`VALUE=BINARY;ENCODING=BASE64`) as the same data in a `data:` URI
    /// (`VALUE=URI`, RFC 2397), which RFC 7986 allows too: servers that store the text of a property (Radicale 3.9
    /// fails on the binary form) and readers of URIs take it; FMTTYPE, DISPLAY and ALTREP stay.
    static func imagesAsDataURIs(_ component: inout Component, _ log: inout DiagnosticLog) {
        for index in component.properties.indices {
            let property = component.properties[index]
            guard property.name == "IMAGE", property["VALUE"]?.uppercased() == "BINARY",
                property["ENCODING"]?.uppercased() == "BASE64"
            else { continue }
            let type = property["FMTTYPE"] ?? "application/octet-stream"
            var image = property
            image.setParameter("ENCODING", nil)
            image.setParameter("VALUE", "URI")
            image.value = "data:\(type);base64," + property.value.filter { !$0.isWhitespace }
            component.properties[index] = image
            log.warning(
                property.line,
                "repaired: IMAGE with inline data written as a data: URI (VALUE=URI), which servers store as text",
                code: "repair-inline-image")
        }
    }
}

extension ICalendar {
    /// One VERSION, PRODID and CALSCALE in the VCALENDAR, VERSION 2.0: strict readers refuse a second one or
    /// another version. The first of each is kept; a version other than 2.0 is written as 2.0 (what ICSKit read the
    /// file as). METHOD is `splittingMethods`' matter.
    static func oneHeaderOfEach(_ root: inout Component, _ log: inout DiagnosticLog) {
        var seen: Set<String> = []
        root.properties = root.properties.compactMap { property in
            guard ["VERSION", "PRODID", "CALSCALE"].contains(property.name) else { return property }
            guard seen.insert(property.name).inserted else {
                log.warning(
                    property.line, "repaired: a second \(property.name) (\(property.value)) in one VCALENDAR; left out",
                    code: "repair-repeated-header")
                return nil
            }
            guard property.name == "VERSION", property.value.trimmingCharacters(in: .whitespaces) != "2.0" else {
                return property
            }
            log.warning(
                property.line, "repaired: VERSION \(property.value) written as 2.0, as the file was read",
                code: "repair-version")
            return Property("VERSION", value: "2.0")
        }
    }
}
