internal import CProcessShims

/// The number of glibc malloc arenas, for short-lived tools.
///
/// glibc gives each new thread that allocates an arena of its own: a 64 MiB reservation, the mprotect calls
/// that grow it, page faults on fresh pages, and the unmapping at exit. A tool that lives a few milliseconds
/// with a handful of threads pays that bookkeeping on every run and gains nothing from the lower contention.
package enum MallocArenas {
    /// Allows at most `count` arenas. Call it before the process starts a thread; arenas already made stay.
    /// - Returns: whether glibc accepted the setting.
    @discardableResult
    package static func limit(to count: Int32) -> Bool {
        CProcessShims_limit_malloc_arenas(count) == 1
    }
}
