import Dispatch
import NavigationCore

/// The monotonic time the session's rate limits are measured with, injectable so tests advance it by hand
/// instead of sleeping.
public struct SessionClock: Sendable {
    /// Nanoseconds since an arbitrary fixed point; never decreases.
    public let nanoseconds: @Sendable () -> UInt64
    /// Wall-clock milliseconds since the Unix epoch: the deadlines of scheduled batches, which
    /// must survive a restart, are absolute.
    public let wallMilliseconds: @Sendable () -> Int64

    /// A clock reading `nanoseconds` (and `wallMilliseconds`, the system's real-time clock unless given).
    public init(
        nanoseconds: @escaping @Sendable () -> UInt64,
        wallMilliseconds: @escaping @Sendable () -> Int64 = { WallClock.now() }
    ) {
        self.nanoseconds = nanoseconds
        self.wallMilliseconds = wallMilliseconds
    }

    /// The system's monotonic clock (unaffected by changes of the wall-clock time).
    public static let monotonic = SessionClock(nanoseconds: { DispatchTime.now().uptimeNanoseconds })
}
