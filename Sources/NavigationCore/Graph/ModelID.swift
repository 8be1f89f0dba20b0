/// The identity of one model in a window's graph.
///
/// Ids are allocated by the window from a monotonically increasing counter that is part of the
/// snapshot, so an id is unique in its window and never reused, even after a restore.
/// In JSON an id is a plain integer.
public struct ModelID: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByIntegerLiteral
{
    /// The integer value; the first model of a window gets 1.
    public var rawValue: Int

    /// Wraps an integer; no validation happens here because the window rejects unknown ids.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Wraps an integer literal, mostly for tests and examples (`let id: ModelID = 3`).
    public init(integerLiteral value: Int) { self.rawValue = value }

    public static func < (lhs: ModelID, rhs: ModelID) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { "#\(rawValue)" }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(Int.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
