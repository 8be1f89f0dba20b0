import FoundationEssentials

/// The project's one JSON output: compact, keys sorted, slashes unescaped — the bytes of every journal line,
/// snapshot, signal and reply.
///
/// ``DirectJSON`` writes the same bytes for the hot paths (a journal line, a `GetState` reply) at a fraction of
/// `JSONEncoder`'s cost and falls back to ``encode(_:)`` for what it does not write; `DirectJSONDriftTests`
/// fail when the two disagree, for every type that has both.
public enum JSONOutput {
    /// A `JSONEncoder` with the project's options (`[.sortedKeys, .withoutEscapingSlashes]`).
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// `value`'s JSON bytes.
    public static func encode(_ value: some Encodable) throws -> [UInt8] {
        Array(try encoder().encode(value))
    }

    /// `value`'s JSON text, or `fallback` when it cannot be encoded (a value with a non-finite number).
    public static func string(_ value: some Encodable, fallback: String = "{}") -> String {
        (try? encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? fallback
    }
}
