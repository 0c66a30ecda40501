/// Why a property value could not be read; the property keeps its raw text.
public struct ValueError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the value.
    public var description: String
    /// An error that says what is wrong.
    package init(_ description: String) { self.description = description }
}
