/// Application limits applied to incoming method calls before handlers see them.
///
/// A call over a limit gets `org.freedesktop.DBus.Error.LimitsExceeded`; the connection stays up (unlike
/// libdbus's max-message-size, which would drop our own link to the bus).
public struct IncomingLimits: Sendable, Hashable {
    /// The most elements any one array or dictionary in a call may have.
    public var maximumArrayLength: Int

    /// Creates limits; the default allows 65,536 elements per array.
    public init(maximumArrayLength: Int = 65_536) {
        self.maximumArrayLength = maximumArrayLength
    }
}
