/// Reads xCal (RFC 6321) into components, the inverse of `XCalWriter`. Elements outside the xCal namespace are
/// extensions this reader does not know: they are skipped and reported.
package enum XCalReader {
    /// A document the reader refuses: where and why.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        /// The line the problem is on.
        package var line: Int
        /// The column (in characters) of an XML syntax error.
        package var column: Int? = nil
        /// What is wrong.
        package var message: String
        /// The message.
        package var description: String { message }
    }

    /// The components of an xCal document, and warnings for what was skipped.
    package static func read(_ bytes: [UInt8]) throws(Failure) -> (components: [Component], warnings: [(Int, String)]) {
        let root: XMLElement
        do {
            root = try XMLElement.parse(bytes)
        } catch {
            throw Failure(line: error.line, column: error.column, message: "cannot read the XML: \(error.message)")
        }
        guard root.name == "icalendar", root.namespace == XCalWriter.namespace else {
            throw Failure(
                line: root.line,
                message: "the root element is <\(root.name)>"
                    + (root.namespace.map { " in namespace \($0)" } ?? " in no namespace")
                    + "; xCal's is <icalendar xmlns=\"\(XCalWriter.namespace)\">")
        }
        var reader = Reading()
        let components = try reader.elements(of: root).map { element throws(Failure) in
            try reader.component(element, depth: 1)
        }
        return (components, reader.warnings)
    }

    struct Reading {
        var warnings: [(Int, String)] = []

        /// The xCal children of an element; foreign ones are reported and left out.
        mutating func elements(of element: XMLElement) -> [XMLElement] {
            element.children.filter { child in
                if child.namespace == XCalWriter.namespace { return true }
                warnings.append(
                    (
                        child.line,
                        "<\(child.name)> in namespace \(child.namespace ?? "none") is not xCal; "
                            + "skipped"
                    ))
                return false
            }
        }

        mutating func component(_ element: XMLElement, depth: Int) throws(Failure) -> Component {
            guard depth <= Component.maximumDepth else {
                throw Failure(
                    line: element.line,
                    message: "components nest deeper than \(Component.maximumDepth) "
                        + "levels")
            }
            let name =
                element.name == XCalWriter.componentElement
                ? element.attributes.first { $0.name == "name" }?.value ?? "" : element.name.uppercased()
            if let problem = NameRule.component.problem(in: name) {
                throw Failure(
                    line: element.line,
                    message: "the component name \"\(name.debugDescription.dropFirst().dropLast())\" \(problem)")
            }
            var component = Component(name)
            component.line = element.line
            for part in elements(of: element) {
                switch part.name {
                case "properties":
                    for property in elements(of: part) {
                        if property.name == XCalWriter.contentLineElement {
                            component.properties += contentLine(property)
                        } else {
                            component.properties.append(try self.property(property))
                        }
                    }
                case "components":
                    for child in elements(of: part) {
                        component.components.append(try self.component(child, depth: depth + 1))
                    }
                default:
                    throw Failure(
                        line: part.line,
                        message: "<\(part.name)> inside <\(element.name)>: a component "
                            + "holds only <properties> and <components>")
                }
            }
            return component
        }

        mutating func property(_ element: XMLElement) throws(Failure) -> Property {
            for (name, rule) in [(element.name, NameRule.property)]
                + elements(of: element)
                .filter({ $0.name == "parameters" }).flatMap({ elements(of: $0).map { ($0.name, NameRule.parameter) } })
            {
                if let problem = rule.problem(in: name) {
                    throw Failure(line: element.line, message: "the name \"\(name)\" \(problem)")
                }
            }
            var property = Property(element.name.uppercased(), parameters: [], value: "")
            property.line = element.line
            var valueElements: [XMLElement] = []
            for part in elements(of: element) {
                if part.name == "parameters" {
                    for child in elements(of: part) { property.parameters.append(parameter(child)) }
                } else {
                    valueElements.append(part)
                }
            }
            guard let first = valueElements.first else {
                throw Failure(line: element.line, message: "<\(element.name)> has no value element")
            }
            if let value = try Self.structured(property.name, valueElements, line: element.line) {
                property.value = value
                return property
            }
            guard valueElements.allSatisfy({ $0.name == first.name }) else {
                throw Failure(
                    line: element.line,
                    message: "<\(element.name)> mixes value types "
                        + valueElements.map { "<\($0.name)>" }.joined(separator: ", "))
            }
            let type = ValueType(rawValue: first.name)
            guard let type else {
                throw Failure(
                    line: first.line, message: "<\(first.name)> in <\(element.name)> is not an xCal value type")
            }
            if type != .unknown, type != (PropertyDesign.table[property.name]?.type ?? .unknown),
                property["VALUE"] == nil
            {
                property.parameters.insert(Parameter("VALUE", first.name.uppercased()), at: 0)
            }
            if type == .unknown {
                property.value = first.text
                return property
            }
            let values = try valueElements.map { value throws(Failure) in try json(value, type: type) }
            do {
                property.value = try JCalReader.text(
                    values, type: type, name: property.name, path: "line \(element.line)")
            } catch {
                throw Failure(line: element.line, message: error.message)
            }
            return property
        }

        /// A `<parameters>` element's child as a parameter: its values, or its text when it has none.
        mutating func parameter(_ element: XMLElement) -> Parameter {
            let values = elements(of: element).map { $0.name == "boolean" ? $0.text.uppercased() : $0.text }
            return Parameter(element.name.uppercased(), values.isEmpty ? [element.text] : values)
        }

        /// The value of a property whose parts are elements of their own (REQUEST-STATUS's `code`, GEO's `latitude`
        /// and `longitude`); nil for any other.
        static func structured(_ name: String, _ parts: [XMLElement], line: Int) throws(Failure) -> String? {
            if name == "REQUEST-STATUS", parts.first?.name == "code" {
                var texts = parts.map { TextEscaping.escape($0.text) }
                if texts.count == 2, texts[1].isEmpty { texts.removeLast() }
                return texts.joined(separator: ";")
            }
            guard name == "GEO", parts.first?.name == "latitude" || parts.first?.name == "longitude" else { return nil }
            guard let latitude = parts.first(where: { $0.name == "latitude" })?.text,
                let longitude = parts.first(where: { $0.name == "longitude" })?.text
            else { throw Failure(line: line, message: "<geo> needs <latitude> and <longitude>") }
            return latitude + ";" + longitude
        }

        /// A content line the writer could not give an element of its own, read back as iCalendar text.
        mutating func contentLine(_ element: XMLElement) -> [Property] {
            var log = DiagnosticLog(file: nil)
            let text = "BEGIN:X\r\n" + (element.children.first?.text ?? "") + "\r\nEND:X\r\n"
            let properties = ContentLineScanner.scan(Array(text.utf8), log: &log).components.first?.properties ?? []
            return properties.map { property in
                var property = property
                property.line = element.line
                return property
            }
        }

        /// A value element as the jCal value it corresponds to, so one conversion to iCalendar text serves both.
        func json(_ value: XMLElement, type: ValueType) throws(Failure) -> JSONValue {
            switch type {
            case .boolean: return .bool(value.text.lowercased() == "true" || value.text == "1")
            case .integer, .float: return .number(value.text)
            case .period:
                let start = value.children(named: "start").first?.text
                let end = value.children(named: "end").first?.text ?? value.children(named: "duration").first?.text
                guard let start, let end else {
                    throw Failure(line: value.line, message: "<period> needs <start> and <end> or <duration>")
                }
                return .string(start + "/" + end)
            case .recur:
                var members: [(key: String, value: JSONValue)] = []
                for part in value.children {
                    if let index = members.firstIndex(where: { $0.key == part.name }) {
                        let existing = members[index].value.arrayValue ?? [members[index].value]
                        members[index].value = .array(existing + [.string(part.text)])
                    } else {
                        members.append((part.name, .string(part.text)))
                    }
                }
                guard members.first?.key == "freq" || members.contains(where: { $0.key == "freq" }) else {
                    throw Failure(line: value.line, message: "<recur> has no <freq>")
                }
                return .object(members)
            default: return .string(value.text)
            }
        }
    }
}
