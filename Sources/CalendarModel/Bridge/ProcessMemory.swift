internal import CLibical

/// The C allocator's side of memory use.
enum ProcessMemory {
    /// Hands memory freed on worker threads back to the system. glibc keeps what a thread frees in that thread's
    /// arena, where work on other threads may not reuse it: a streamed read, whose rounds run on whichever threads
    /// are free, would otherwise grow in resident size with the file though what is live does not.
    static func returnFreed() {
        #if canImport(Glibc)
        _ = malloc_trim(0)
        #endif
    }
}
