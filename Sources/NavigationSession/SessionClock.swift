import Dispatch

/// The monotonic time the session's rate limits are measured with, injectable so tests advance it by hand
/// instead of sleeping.
public struct SessionClock: Sendable {
    /// Nanoseconds since an arbitrary fixed point; never decreases.
    public let nanoseconds: @Sendable () -> UInt64

    /// A clock reading `nanoseconds`.
    public init(nanoseconds: @escaping @Sendable () -> UInt64) {
        self.nanoseconds = nanoseconds
    }

    /// The system's monotonic clock (unaffected by changes of the wall-clock time).
    public static let monotonic = SessionClock { DispatchTime.now().uptimeNanoseconds }
}
