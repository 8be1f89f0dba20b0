/// A token bucket: refills at ``RateLimit/perSecond`` up to ``RateLimit/burst``; taking more than it holds
/// is refused and takes nothing.
struct TokenBucket {
    let limit: RateLimit
    private var tokens: Double
    private var refilledAt: UInt64

    /// A full bucket at time `now` (nanoseconds).
    init(_ limit: RateLimit, now: UInt64) {
        self.limit = limit
        tokens = Double(limit.burst)
        refilledAt = now
    }

    /// Whether `amount` tokens are available at `now` (nanoseconds), after refilling.
    mutating func allows(_ amount: Int, at now: UInt64) -> Bool {
        refill(at: now)
        return Double(amount) <= tokens
    }

    /// Takes `amount` tokens; call after ``allows(_:at:)`` said yes at the same time.
    mutating func take(_ amount: Int) {
        tokens -= Double(amount)
    }

    /// The tokens spent and not yet refilled at `now` (0 for a full bucket).
    mutating func spent(at now: UInt64) -> Int {
        refill(at: now)
        return max(0, limit.burst - Int(tokens))
    }

    private mutating func refill(at now: UInt64) {
        // A clock that went backwards refills nothing rather than trapping on the subtraction.
        let elapsed = now > refilledAt ? Double(now - refilledAt) / 1e9 : 0
        tokens = min(Double(limit.burst), tokens + elapsed * Double(limit.perSecond))
        refilledAt = max(now, refilledAt)
    }
}
