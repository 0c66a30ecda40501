/// Reads jCal (RFC 7265) into components, the inverse of `JCalWriter`.
package enum JCalReader {
    /// Why jCal could not be read: the JSON is broken, or its shape is not jCal's.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        /// The line of the error: of a JSON syntax error, or of the array a shape error is in.
        package var line: Int
        /// The column (in characters) of a JSON syntax error.
        package var column: Int?
        /// What is wrong.
        package var message: String
        /// The JSON Pointer of the value at fault, for a shape error: `read` turns it into a line and column.
        var path: String?

        init(line: Int, column: Int?, message: String, path: String? = nil) {
            (self.line, self.column, self.message, self.path) = (line, column, message, path)
        }
        /// The message.
        package var description: String { message }
    }

    /// Parses jCal bytes: one component array, or an array of them. Components and properties carry the line
    /// their array starts on, so diagnostics name it.
    package static func read(_ bytes: [UInt8]) throws(Failure) -> [Component] {
        let json: JSONValue
        let arrays: [String: (line: Int, column: Int)]
        do {
            (json, arrays) = try JSONValue.parseLocating(bytes)
        } catch {
            throw Failure(line: error.line, column: error.column, message: "not valid JSON: \(error.message)")
        }
        // The line and column of the innermost array at or above a path.
        func position(_ path: String) -> (line: Int, column: Int)? {
            var path = path
            while true {
                if let found = arrays[path] { return found }
                guard let slash = path.lastIndex(of: "/") else { return nil }
                path = String(path[..<slash])
            }
        }
        var components: [Component]
        do throws(Failure) {
            guard case .array(let items) = json else { throw shape("/", "a jCal component array") }
            if case .string = items.first {
                components = [try component(json, path: "", depth: 1)]
            } else {
                components = try items.enumerated().map { index, item throws(Failure) in
                    try component(item, path: "/\(index)", depth: 1)
                }
            }
        } catch var failure {
            if let path = failure.path, let found = position(path == "/" ? "" : path) {
                (failure.line, failure.column) = (found.line, found.column)
            }
            throw failure
        }
        let single = components.count == 1 && json.arrayValue?.first?.stringValue != nil
        for index in components.indices {
            locate(&components[index], path: single ? "" : "/\(index)", position)
        }
        return components
    }

    /// Gives a component, its properties and its components the lines their arrays start on.
    static func locate(
        _ component: inout Component, path: String, _ position: (String) -> (line: Int, column: Int)?
    ) {
        if let found = position(path) { component.line = found.line }
        for index in component.properties.indices {
            if let found = position("\(path)/1/\(index)") { component.properties[index].line = found.line }
        }
        for index in component.components.indices {
            locate(&component.components[index], path: "\(path)/2/\(index)", position)
        }
    }

    static func shape(_ path: String, _ expected: String) -> Failure {
        Failure(
            line: 0, column: nil, message: "jCal at \(path.isEmpty ? "/" : path): expected \(expected)", path: path)
    }

    static func component(_ json: JSONValue, path: String, depth: Int) throws(Failure) -> Component {
        guard case .array(let parts) = json, parts.count == 3, case .string(let name) = parts[0],
            case .array(let properties) = parts[1], case .array(let children) = parts[2]
        else {
            throw shape(path, "[name, [properties], [components]]")
        }
        guard depth <= Component.maximumDepth else {
            throw Failure(
                line: 0, column: nil,
                message: "jCal at \(path): components nest deeper than \(Component.maximumDepth) "
                    + "levels", path: path)
        }
        try checkName(name, .component, path: path + "/0")
        var component = Component(name)
        for (index, item) in properties.enumerated() {
            component.properties.append(try property(item, path: "\(path)/1/\(index)"))
        }
        for (index, item) in children.enumerated() {
            component.components.append(try self.component(item, path: "\(path)/2/\(index)", depth: depth + 1))
        }
        return component
    }

    static func property(_ json: JSONValue, path: String) throws(Failure) -> Property {
        guard case .array(let parts) = json, parts.count >= 4, case .string(let name) = parts[0],
            case .object(let parameterMembers) = parts[1], case .string(let typeName) = parts[2]
        else {
            throw shape(path, "[name, {parameters}, type, value…]")
        }
        try checkName(name, .property, path: path + "/0")
        var parameters: [Parameter] = []
        for (key, value) in parameterMembers {
            try checkName(key, .parameter, path: path + "/1/" + key)
            switch value {
            case .string(let text): parameters.append(Parameter(key, text))
            case .array(let items): parameters.append(Parameter(key, items.map { scalarText($0) }))
            default: parameters.append(Parameter(key, scalarText(value)))
            }
        }
        var property = Property(name, parameters: parameters, value: "")
        let type = ValueType(rawValue: typeName) ?? .unknown
        if type != .unknown, type != (PropertyDesign.table[property.name]?.type ?? .unknown), property["VALUE"] == nil {
            property.parameters.insert(Parameter("VALUE", typeName.uppercased()), at: 0)
        }
        property.value = try text(Array(parts[3...]), type: type, name: property.name, path: path)
        return property
    }

    /// Refuses a name that could not be written as iCalendar and read back as itself.
    static func checkName(_ name: String, _ rule: NameRule, path: String) throws(Failure) {
        if let problem = rule.problem(in: name) {
            throw Failure(
                line: 0, column: nil,
                message: "jCal at \(path): the name \"\(name.debugDescription.dropFirst().dropLast())\" "
                    + problem, path: path)
        }
    }

    /// The iCalendar text of jCal values.
    static func text(_ values: [JSONValue], type: ValueType, name: String, path: String) throws(Failure) -> String {
        switch type {
        case .text:
            return values.map { TextEscaping.escape(scalarText($0)) }.joined(separator: ",")
        case .date, .dateTime:
            return values.map { icsDate(scalarText($0)) }.joined(separator: ",")
        case .period:
            return values.map { value in
                scalarText(value).split(separator: "/", maxSplits: 1).map { icsDate(String($0)) }.joined(separator: "/")
            }.joined(separator: ",")
        case .utcOffset: return values.map { scalarText($0).replacingColons }.joined(separator: ",")
        case .boolean: return values.map { scalarText($0).uppercased() }.joined(separator: ",")
        case .float where name == "GEO":
            guard case .array(let pair) = values.first else { throw shape(path, "GEO as [latitude, longitude]") }
            return pair.map(scalarText).joined(separator: ";")
        case .recur:
            guard case .object(let members) = values.first else { throw shape(path, "a recurrence object") }
            return members.map { key, value in
                let items = value.arrayValue ?? [value]
                let text = items.map { key == "until" ? icsDate(scalarText($0)) : scalarText($0) }
                return key.uppercased() + "=" + text.joined(separator: ",")
            }.joined(separator: ";")
        case .time: return values.map { scalarText($0).replacingColons }.joined(separator: ",")
        default: return values.map(scalarText).joined(separator: ",")
        }
    }

    /// `2024-01-01T09:00:00Z` → `20240101T090000Z`.
    static func icsDate(_ text: String) -> String {
        String(text.unicodeScalars.filter { $0 != "-" && $0 != ":" }.map(Character.init))
    }

    static func scalarText(_ value: JSONValue) -> String {
        switch value {
        case .string(let text), .number(let text): return text
        case .bool(let flag): return flag ? "TRUE" : "FALSE"
        case .null: return ""
        case .array, .object: return value.serialized()
        }
    }
}

extension String {
    var replacingColons: String { String(unicodeScalars.filter { $0 != ":" }.map(Character.init)) }
}
