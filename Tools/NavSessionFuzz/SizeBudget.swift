/// How many more bytes one call's body may take, so no message reaches dbus-daemon's 32 MiB limit
/// (a larger message would get the fuzzer's own connection dropped, not test the daemon), and how many file
/// descriptors it may carry (dbus-daemon's per-message limit).
///
/// Generators charge an upper bound of each value's wire size (lengths, padding and alignment included)
/// before they build it, and fall back to something small when the budget is spent.
struct SizeBudget {
    private(set) var remaining: Int
    /// How many more file descriptors the call may carry.
    private(set) var descriptors: Int
    /// Set for calls with a large budget: the next string made takes a large part of it (once).
    var wantsLongString = false

    init(bytes: Int, descriptors: Int) {
        remaining = bytes
        self.descriptors = descriptors
    }

    /// Counts one descriptor; returns whether one was still allowed.
    @discardableResult
    mutating func takeDescriptor() -> Bool {
        descriptors -= 1
        return descriptors >= 0
    }

    /// Takes `bytes` when that many are left; returns whether it did.
    mutating func take(_ bytes: Int) -> Bool {
        guard bytes <= remaining else { return false }
        remaining -= bytes
        return true
    }

    /// The wire-size upper bound of a string of `byteCount` UTF-8 bytes: length, bytes, NUL, padding.
    static func string(_ byteCount: Int) -> Int { byteCount + 12 }

    /// The per-element overhead charged for any value (alignment and container framing).
    static let element = 16
}
