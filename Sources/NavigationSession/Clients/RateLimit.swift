/// A sustained rate with a burst: what a ``TokenBucket`` allows (per client `SendMessage`, ``SessionLimits``).
public struct RateLimit: Hashable, Sendable {
    /// Units (messages, bytes) per second, sustained.
    public var perSecond: Int
    /// Units available at once after a quiet period.
    public var burst: Int

    /// Creates a limit of `perSecond` sustained, `burst` at once.
    public init(perSecond: Int, burst: Int) {
        self.perSecond = perSecond
        self.burst = burst
    }
}
