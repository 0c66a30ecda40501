extension ICalendar {
    /// What `icskit validate` says of this calendar written as a file: the same diagnostics, each with its `code`,
    /// lines counted in the written text (`ICS.write([calendar])`), file nil. Empty for a valid calendar:
    ///
    /// ```swift
    /// let problems = calendar.validate().filter { $0.severity == .error }
    /// ```
    public func validate() -> [Diagnostic] {
        ICS.read(ICS.write([self])).diagnostics
    }
}
