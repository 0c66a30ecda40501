/// VALARM as a JSCalendar Alert (RFC 8984 §4.5.2) and back: TRIGGER as an `OffsetTrigger` (a duration, RELATED=END
/// as `relativeTo: "end"`) or an `AbsoluteTrigger` (a UTC time), ACTION DISPLAY or EMAIL as `action`; the alarm's
/// other properties (DESCRIPTION, SUMMARY, REPEAT, ATTENDEE …) in its `iCalComponent`. Other actions (AUDIO,
/// PROCEDURE) have no Alert: such an alarm stays a VALARM in the item's escape hatch.
enum JSCalendarAlerts {
    static func alert(_ alarm: Component) -> JSONValue? {
        guard alarm.components.isEmpty, alarm.properties(named: "TRIGGER").count == 1,
            alarm.properties(named: "ACTION").count == 1, let trigger = alarm.property("TRIGGER"),
            let action = alarm.property("ACTION"), ["DISPLAY", "EMAIL"].contains(action.value),
            action.parameters.isEmpty
        else { return nil }
        var members: [(key: String, value: JSONValue)] = [("@type", .string("Alert"))]
        if trigger["VALUE"] == "DATE-TIME", trigger.parameters.count == 1,
            let when = JSCalendarValues.utc(trigger.value)
        {
            members.append(("trigger", .object([("@type", .string("AbsoluteTrigger")), ("when", .string(when))])))
        } else if trigger["VALUE"] == nil, trigger.parameters.allSatisfy({ $0.name == "RELATED" }),
            case .success(let offset) = CalendarDuration.parse(trigger.value), offset.icsValue == trigger.value
        {
            var object: [(key: String, value: JSONValue)] = [
                ("@type", .string("OffsetTrigger")), ("offset", .string(trigger.value)),
            ]
            switch trigger["RELATED"] {
            case nil: break
            case "END": object.append(("relativeTo", .string("end")))
            default: return nil
            }
            members.append(("trigger", .object(object)))
        } else {
            return nil
        }
        members.append(("action", .string(action.value.lowercased())))
        let rest = alarm.properties.filter { !["TRIGGER", "ACTION"].contains($0.name) }
        if let hatch = JSCalendarWriter.hatch(name: "valarm", raw: rest, components: [], converted: []) {
            members.append(("iCalComponent", hatch))
        }
        return .object(members)
    }

    /// An Alert as a VALARM; refused, at its place, when it is not one.
    static func alarm(_ json: JSONValue, path: String) throws(JSCalendarReader.Failure) -> Component {
        guard case .object = json, json["@type"]?.stringValue ?? "Alert" == "Alert" else {
            throw .jscalendar(path, "an Alert object")
        }
        var alarm = Component("VALARM")
        let action = json["action"]?.stringValue ?? "display"
        guard ["display", "email"].contains(action) else {
            throw .jscalendar(path + "/action", "\"display\" or \"email\"")
        }
        alarm.properties.append(Property("ACTION", value: action.uppercased()))
        guard let trigger = json["trigger"], case .object = trigger else {
            throw .jscalendar(path + "/trigger", "an OffsetTrigger or AbsoluteTrigger object")
        }
        switch trigger["@type"]?.stringValue {
        case "AbsoluteTrigger":
            guard let when = trigger["when"]?.stringValue, let value = JSCalendarValues.ics(utc: when) else {
                throw .jscalendar(path + "/trigger/when", "a UTCDateTime (2026-01-05T09:00:00Z)")
            }
            alarm.properties.append(Property("TRIGGER", parameters: [Parameter("VALUE", "DATE-TIME")], value: value))
        case "OffsetTrigger", nil:
            guard let offset = trigger["offset"]?.stringValue, case .success = CalendarDuration.parse(offset) else {
                throw .jscalendar(path + "/trigger/offset", "a SignedDuration (-PT15M)")
            }
            let related: [Parameter]
            switch trigger["relativeTo"]?.stringValue {
            case nil, "start": related = []
            case "end": related = [Parameter("RELATED", "END")]
            default: throw .jscalendar(path + "/trigger/relativeTo", "\"start\" or \"end\"")
            }
            alarm.properties.append(Property("TRIGGER", parameters: related, value: offset))
        default:
            throw .jscalendar(path + "/trigger/@type", "\"OffsetTrigger\" or \"AbsoluteTrigger\"")
        }
        if let hatch = json["iCalComponent"] {
            let (properties, components) = try JSCalendarReader.hatch(hatch, path: path + "/iCalComponent")
            alarm.properties += properties
            alarm.components += components
        }
        return alarm
    }
}
