internal import CLibical

extension ICS {
    /// Loads every libical built-in time zone once. The first load of a zone is not thread-safe in libical
    /// 3.0 (a use-after-free in `icaltimezone_load_builtin_timezone`), so call this before reading calendars
    /// on several threads. Takes well under a second and is idempotent.
    package static func prepareForConcurrentUse() {
        guard let zones = icaltimezone_get_builtin_timezones() else { return }
        for index in 0..<zones.pointee.num_elements {
            let zone = OpaquePointer(icalarray_element_at(zones, index))
            _ = icaltimezone_get_component(zone)
        }
    }
}
