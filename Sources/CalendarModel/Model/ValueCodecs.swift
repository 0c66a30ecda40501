/// The codecs behind the field tables: one per kind of value, each reading and writing whole properties.
extension ValueCodec {
    /// A codec for one value per property.
    static func one(
        _ read: @escaping @Sendable (Property) -> Result<Value, ValueError>,
        _ write: @escaping @Sendable (Value) -> (parameters: [Parameter], value: String)
    ) -> ValueCodec {
        ValueCodec(
            decode: { property in read(property).map { [$0] } }, decodeOne: read,
            encode: { name, values in
                values.map { value in
                    let (parameters, text) = write(value)
                    return Property(name, parameters: parameters, value: text)
                }
            })
    }
}

extension ValueCodec where Value == String {
    /// TEXT: escapes undone on read, applied on write.
    static var text: ValueCodec {
        .one({ .success(TextEscaping.unescape($0.value)) }, { ([], TextEscaping.escape($0)) })
    }
    /// URI and other values written without TEXT escaping.
    static var verbatim: ValueCodec { .one({ .success($0.value) }, { ([], $0) }) }
}

extension ValueCodec where Value == TimeZoneID {
    /// A zone's name as TEXT (X-WR-TIMEZONE), kept as written: the reader of the file checks it.
    static var zoneName: ValueCodec {
        .one(
            { .success(TimeZoneID(unchecked: TextEscaping.unescape($0.value))) }, { ([], TextEscaping.escape($0.name)) }
        )
    }
}

extension ValueCodec where Value == Int {
    /// INTEGER (RFC 5545 §3.3.8): a signed 32-bit number, so that no arithmetic on a value read (SEQUENCE + 1)
    /// can overflow. A longer number is refused; `clampedInteger` reads it as the nearest bound.
    static var integer: ValueCodec {
        .one(
            { property in
                guard ValueSyntax.isInteger(property.value) else {
                    return .failure(ValueError("\"\(property.value)\" is not an INTEGER"))
                }
                guard let number = Int32(property.value.trimmingPlus) else {
                    return .failure(
                        ValueError("\(property.value) is outside an INTEGER's range (\(Int32.min) to \(Int32.max))"))
                }
                return .success(Int(number))
            }, { ([], String($0)) })
    }

    /// An INTEGER beyond 32 bits, read as the bound it passes (`integer` refuses it).
    @Sendable static func clampedInteger(_ property: Property) -> (value: Int, note: String)? {
        guard ValueSyntax.isInteger(property.value) else { return nil }
        let bound = property.value.hasPrefix("-") ? Int(Int32.min) : Int(Int32.max)
        return (bound, "read as \(bound)")
    }
}

extension ValueCodec where Value: TokenValue {
    static var token: ValueCodec {
        .one({ .success(Value(rawValue: TextEscaping.unescape($0.value))) }, { ([], $0.rawValue) })
    }
}

extension ValueCodec where Value == CalendarDate {
    /// DATE / DATE-TIME, a comma-separated list in one property (EXDATE) or a single value (DTSTART).
    static var dateTime: ValueCodec {
        ValueCodec(
            decode: { property in
                let tzid = zoneParameter(property)
                if !property.value.utf8.contains(UInt8(ascii: ",")) {
                    return CalendarDate.parse(property.value, tzid: tzid).map { [$0] }
                }
                var dates: [CalendarDate] = []
                for item in ValueSyntax.split(property.value, on: ",") {
                    switch CalendarDate.parse(item, tzid: tzid) {
                    case .success(let date): dates.append(date)
                    case .failure(let error): return .failure(error)
                    }
                }
                return .success(dates)
            },
            decodeOne: { property in
                CalendarDate.parse(property.value, tzid: zoneParameter(property))
            },
            encode: { name, dates in
                groupedByForm(dates, key: { $0.form }).map { form, group in
                    Property(
                        name, parameters: dateParameters(form), value: group.map(\.icsValue).joined(separator: ","))
                }
            })
    }
}

/// The TZID a date value is read in. A DATE that carries one (Mozilla and Apple wrote all-day events so) is read as
/// midnight in that zone, as python icalendar reads it; the consistency checks warn about it.
func zoneParameter(_ property: Property) -> String? {
    property.parameters.isEmpty ? nil : property["TZID"]
}

/// TZID or VALUE=DATE for a date's form.
func dateParameters(_ form: CalendarDate.Form) -> [Parameter] {
    switch form {
    case .date: return [Parameter("VALUE", "DATE")]
    case .zoned(let tzid): return [Parameter("TZID", tzid.name)]
    case .floating, .utc: return []
    }
}

/// Splits values into runs that can share one property (same TZID / VALUE), keeping their order.
func groupedByForm<Value, Key: Equatable>(_ values: [Value], key: (Value) -> Key) -> [(Key, [Value])] {
    var groups: [(Key, [Value])] = []
    for value in values {
        if let last = groups.last, last.0 == key(value) {
            groups[groups.count - 1].1.append(value)
        } else {
            groups.append((key(value), [value]))
        }
    }
    return groups
}

extension ValueCodec where Value == CalendarDuration {
    static var duration: ValueCodec { .one({ CalendarDuration.parse($0.value) }, { ([], $0.icsValue) }) }
}

extension ValueCodec where Value == Geo {
    static var geo: ValueCodec { .one({ Geo.parse($0.value) }, { ([], $0.icsValue) }) }
}

extension ValueCodec where Value == RecurrenceRule {
    static var rule: ValueCodec { .one({ RecurrenceRule.parse($0.value) }, { ([], $0.icsValue) }) }
}

extension ValueCodec where Value == CalendarUser {
    static var user: ValueCodec {
        .one({ .success(CalendarUser(address: $0.value, parameters: $0.parameters)) }, { ($0.parameters, $0.address) })
    }
}

extension ValueCodec where Value == Relation {
    static var relation: ValueCodec {
        .one(
            { .success(Relation(uid: TextEscaping.unescape($0.value), parameters: $0.parameters)) },
            { ($0.parameters, TextEscaping.escape($0.uid)) })
    }
}

extension ValueCodec where Value == Category {
    /// CATEGORIES: split on unescaped commas only, so `A\,B` stays one category (libical splits it).
    static var categories: ValueCodec {
        ValueCodec(
            decode: { property in
                .success(TextEscaping.splitList(property.value).map { Category(TextEscaping.unescape(String($0))) })
            },
            encode: { name, categories in
                [Property(name, value: categories.map { TextEscaping.escape($0.name) }.joined(separator: ","))]
            })
    }
}

extension ValueCodec where Value == RecurrenceID {
    static var recurrenceID: ValueCodec {
        .one(
            { property in
                CalendarDate.parse(property.value, tzid: zoneParameter(property)).map {
                    RecurrenceID($0, thisAndFuture: property["RANGE"]?.uppercased() == "THISANDFUTURE")
                }
            },
            { id in
                (
                    dateParameters(id.date.form) + (id.thisAndFuture ? [Parameter("RANGE", "THISANDFUTURE")] : []),
                    id.date.icsValue
                )
            })
    }
}

extension ValueCodec where Value == RecurrenceDate {
    /// RDATE: dates, date-times or periods (VALUE=PERIOD), several in one property.
    static var recurrenceDates: ValueCodec {
        ValueCodec(
            decode: { property in
                let tzid = zoneParameter(property)
                var values: [RecurrenceDate] = []
                for item in ValueSyntax.split(property.value, on: ",") {
                    let parsed: Result<RecurrenceDate, ValueError> =
                        item.contains("/")
                        ? Period.parse(item, tzid: tzid).map { .period($0) }
                        : CalendarDate.parse(item, tzid: tzid).map { .date($0) }
                    switch parsed {
                    case .success(let value): values.append(value)
                    case .failure(let error): return .failure(error)
                    }
                }
                return .success(values)
            },
            encode: { name, values in
                groupedByForm(
                    values,
                    key: { value -> [Parameter] in
                        switch value {
                        case .date(let date): return dateParameters(date.form)
                        case .period(let period):
                            return [Parameter("VALUE", "PERIOD")]
                                + dateParameters(period.start.form)
                                .filter { $0.name == "TZID" }
                        }
                    }
                ).map { parameters, group in
                    Property(
                        name, parameters: parameters,
                        value: group.map { value in
                            switch value {
                            case .date(let date): return date.icsValue
                            case .period(let period): return period.icsValue
                            }
                        }.joined(separator: ","))
                }
            })
    }
}

extension ValueCodec where Value == Trigger {
    static var trigger: ValueCodec {
        .one(
            { property in
                if property["VALUE"]?.uppercased() == "DATE-TIME" {
                    return CalendarDate.parse(property.value, tzid: nil).map { .absolute($0) }
                }
                let relatedToEnd = property["RELATED"]?.uppercased() == "END"
                return CalendarDuration.parse(property.value).map { .relative($0, relatedToEnd: relatedToEnd) }
            },
            { trigger in
                switch trigger {
                case .relative(let duration, let relatedToEnd):
                    return (relatedToEnd ? [Parameter("RELATED", "END")] : [], duration.icsValue)
                case .absolute(let date): return ([Parameter("VALUE", "DATE-TIME")], date.icsValue)
                }
            })
    }
}

extension StringProtocol {
    /// The number text without a leading `+`, which Swift's `Int(_:)` accepts but JSON does not.
    var trimmingPlus: SubSequence { hasPrefix("+") ? dropFirst() : self[...] }
}
