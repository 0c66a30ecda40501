internal import CLibical

/// The C allocator's side of memory use.
enum ProcessMemory {
    /// Freed bytes the allocator may hold before they are handed back: about three rounds of a streamed read.
    static let heldLimit = 32 << 20

    /// Hands memory freed on worker threads back to the system once the allocator holds more than `heldLimit` of
    /// it. glibc keeps what a thread frees in that thread's arena, where work on other threads may not reuse it: a
    /// streamed read, whose rounds run on whichever threads are free, could otherwise grow in resident size with
    /// the file though what is live does not. `malloc_trim` walks every arena and returns its pages one by one, so
    /// it runs only when there is that much to return (after every round it cost 10–18 % of a streamed convert of
    /// gen_ics.py 200000, and its peak was the same without it on 2 cores).
    static func returnFreed() {
        #if canImport(Glibc)
        guard mallinfo2().fordblks > heldLimit else { return }
        _ = malloc_trim(0)
        #endif
    }
}
