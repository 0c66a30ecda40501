/// Time zones made fit for other apps: every TZID a bare IANA name (`Europe/Berlin`, never libical's
/// `/freeassociation.sourceforge.net/…`, Mozilla's prefixes or Windows names) with a VTIMEZONE from tzdata, trimmed
/// to the years in use. Outlook needs a VTIMEZONE for every TZID; Google ignores names it does not know.
extension ICalendar {
    /// This calendar with its time zones normalised; what could not be normalised is reported and left as it was.
    public func normalizingTimeZones(file: String? = nil) -> (calendar: ICalendar, diagnostics: [Diagnostic]) {
        var log = DiagnosticLog(file: file)
        let (order, firstYear, firstLine) = tzidsInUse()
        var rename: [String: String] = [:]
        var ianaFirstYear: [String: Int] = [:]
        var ianaOrder: [String] = []
        for tzid in order {
            guard let iana = TimeZoneResolver.ianaName(for: tzid)?.iana else {
                if timeZones.contains(where: { $0.tzid == tzid }) { continue }  // a custom zone the file defines
                log.warning(
                    firstLine[tzid] ?? 0, "TZID \"\(tzid)\" names no known zone and has no VTIMEZONE; left as it is",
                    code: "tzid-unknown")
                continue
            }
            // A Windows or Outlook name whose VTIMEZONE the reader uses: renamed only when that VTIMEZONE gives the
            // IANA zone's times, else its times would move.
            if iana != tzid, !TimeZoneResolver.fileZone(of: tzid, in: self, agreesWith: iana) {
                log.warning(
                    firstLine[tzid] ?? 0,
                    "TZID \"\(tzid)\" names \(iana), but its VTIMEZONE gives other times on the dates in use, and "
                        + "ICSKit reads them by that VTIMEZONE; left as it is", code: "vtimezone-differs")
                continue
            }
            if iana != tzid { rename[tzid] = iana }
            if ianaFirstYear[iana] == nil { ianaOrder.append(iana) }
            ianaFirstYear[iana] = min(ianaFirstYear[iana] ?? 9999, firstYear[tzid] ?? 9999)
        }
        var result = self
        var context = DecodeContext(log: DiagnosticLog(file: file))
        result.components = components.compactMap { component -> CalendarComponent? in
            if case .timeZone(let zone) = component, let tzid = zone.tzid,
                rename[tzid] != nil || ianaFirstYear[tzid] != nil || firstYear[tzid] == nil
            {
                return nil  // replaced by the tzdata definition below, or used by nothing
            }
            guard !rename.isEmpty, component.name != "VTIMEZONE" else { return component }
            var changed = false
            let renamed = Self.renamingTZIDs(component.asRead, rename, &changed)
            return changed ? CalendarComponent(decoding: renamed, &context) : component
        }
        let definitions = ianaOrder.compactMap { iana -> CalendarComponent? in
            guard let zone = Self.vtimezone(iana: iana, fromYear: ianaFirstYear[iana] ?? 1970) else {
                log.warning(0, "no tzdata VTIMEZONE could be made for \(iana)", code: "no-tzdata-vtimezone")
                return nil
            }
            return .timeZone(TimeZoneDefinition(zone))
        }
        result.components = definitions + result.components
        return (result, log.entries)
    }

    /// Each TZID the items use, in the order first met, with the earliest year and the first line it is used in.
    private func tzidsInUse() -> (order: [String], firstYear: [String: Int], firstLine: [String: Int]) {
        var firstYear: [String: Int] = [:]
        var firstLine: [String: Int] = [:]
        var order: [String] = []
        for component in components where component.name != "VTIMEZONE" {
            component.asRead.forEach { nested in
                for property in nested.properties where !property.parameters.isEmpty {
                    guard let tzid = property["TZID"] else { continue }
                    let year = Int(property.value.prefix(4)) ?? 9999
                    if firstYear[tzid] == nil {
                        order.append(tzid)
                        firstLine[tzid] = property.line
                    }
                    firstYear[tzid] = min(firstYear[tzid] ?? year, year)
                }
            }
        }
        return (order, firstYear, firstLine)
    }

    /// The calendar as written, each Windows, Outlook or prefixed TZID of its items (not of its VTIMEZONEs) given
    /// as its IANA name where the file's VTIMEZONE, if it has one, gives that zone's times: what a format that names
    /// zones by IANA name only needs (JSCalendar's `timeZone`, RFC 8984 §4.7.2). Other TZIDs stay as they are.
    package func encodedNamingZonesByIANA() -> Component {
        var root = isImplicit ? Component("VCALENDAR", components: encodeChildren()) : encoded()
        var rename: [String: String] = [:]
        var checked: Set<String> = []
        func collect(_ component: Component) {
            for property in component.properties {
                guard let tzid = property["TZID"], checked.insert(tzid).inserted,
                    let iana = TimeZoneResolver.ianaName(for: tzid)?.iana, iana != tzid,
                    TimeZoneResolver.fileZone(of: tzid, in: self, agreesWith: iana)
                else { continue }
                rename[tzid] = iana
            }
            component.components.forEach(collect)
        }
        for child in root.components where child.name != "VTIMEZONE" { collect(child) }
        guard !rename.isEmpty else { return root }
        var changed = false
        root.components = root.components.map {
            $0.name == "VTIMEZONE" ? $0 : Self.renamingTZIDs($0, rename, &changed)
        }
        return root
    }

    /// `components` with a tzdata VTIMEZONE first for each IANA TZID they use and do not define, from the first
    /// year in use: what a calendar made in code needs to be complete. Other TZIDs are left to the caller.
    static func completingZones(_ components: [Component]) -> [Component] {
        var use = ZoneUse()
        use.add(components)
        return use.missingDefinitions() + components
    }

    /// The TZIDs components use (in the order first used, with the earliest year of each) and the VTIMEZONEs they
    /// define, gathered a run of components at a time.
    struct ZoneUse {
        private var defined: Set<String> = []
        private var firstYear: [String: Int] = [:]
        private var order: [String] = []

        mutating func add(_ components: [Component]) {
            for component in components {
                if component.name == "VTIMEZONE" {
                    if let tzid = component.property("TZID")?.value { defined.insert(tzid) }
                    continue
                }
                component.forEach { nested in
                    for property in nested.properties {
                        guard let tzid = property["TZID"] else { continue }
                        let year = Int(property.value.prefix(4)) ?? 9999
                        if firstYear[tzid] == nil { order.append(tzid) }
                        firstYear[tzid] = min(firstYear[tzid] ?? year, year)
                    }
                }
            }
        }

        /// A tzdata VTIMEZONE for each IANA name used and not defined, from its earliest year on.
        func missingDefinitions() -> [Component] {
            let missing = order.filter { !defined.contains($0) && TimeZoneResolver.ianaName(for: $0)?.iana == $0 }
            return missing.compactMap { vtimezone(iana: $0, fromYear: firstYear[$0] ?? 1970) }
        }
    }

    static func renamingTZIDs(
        _ component: Component, _ rename: [String: String],
        _ changed: inout Bool
    ) -> Component {
        var component = component
        for index in component.properties.indices {
            guard let tzid = component.properties[index]["TZID"], let iana = rename[tzid] else { continue }
            component.properties[index].setParameter("TZID", iana)
            changed = true
        }
        component.components = component.components.map { renamingTZIDs($0, rename, &changed) }
        return component
    }

    /// tzdata's VTIMEZONE for a zone from the start of `fromYear`, with the bare IANA name as its TZID.
    static func vtimezone(iana: String, fromYear: Int) -> Component? {
        if iana == "UTC" {
            let standard = Component(
                "STANDARD",
                properties: [
                    Property("DTSTART", value: "19700101T000000"), Property("TZOFFSETFROM", value: "+0000"),
                    Property("TZOFFSETTO", value: "+0000"), Property("TZNAME", value: "UTC"),
                ])
            return Component("VTIMEZONE", properties: [Property("TZID", value: "UTC")], components: [standard])
        }
        guard let text = LibicalZone.vtimezoneText(iana: iana, fromYear: fromYear),
            var zone = ContentLineScanner.components(of: text).first(where: { $0.name == "VTIMEZONE" })
        else {
            return nil
        }
        for index in zone.properties.indices where zone.properties[index].name == "TZID" {
            zone.properties[index].value = iana
        }
        return zone
    }
}

extension ContentLineScanner {
    /// The components of trusted text (libical's own output), diagnostics dropped.
    static func components(of text: String) -> [Component] {
        var log = DiagnosticLog(file: nil)
        return scan(Array(text.utf8), log: &log).components
    }
}

extension ICalendar {
    /// This calendar with X-WR-TIMEZONE resolved into its events, as the x-wr-timezone tool does: UTC and
    /// floating times become times in that zone, and the property goes. Apps that ignore X-WR-TIMEZONE then show
    /// the same times as Google does. Unchanged when there is no (known) X-WR-TIMEZONE.
    /// A large calendar is resolved in parts on every core, each with its own copy of the zone.
    package func resolvingWRTimeZone() -> ICalendar {
        guard let name = wrTimeZone?.name, let iana = TimeZoneResolver.ianaName(for: name)?.iana,
            LibicalZone.privateCopy(iana) != nil
        else { return self }
        let components = self.components
        let ranges = ParallelParts.ranges(components.count, from: 4096)
        let resolvedParts = ParallelParts.run(ranges.count) { part -> [CalendarComponent] in
            guard let zone = LibicalZone.privateCopy(iana) else { return Array(components[ranges[part]]) }
            return components[ranges[part]].map { component in
                guard case .event(let event) = component, let moved = Expander.applying(iana, zone, to: event)
                else { return component }
                return .event(moved)
            }
        }
        var result = self
        result.wrTimeZone = nil
        result.components = Array(resolvedParts.joined())
        return result
    }
}
