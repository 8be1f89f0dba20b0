/// A string coding key for the hand-written JSON forms, which use flat objects with a tag field.
struct JSONKey: CodingKey, ExpressibleByStringLiteral {
    var stringValue: String
    var intValue: Int? { nil }

    init(_ string: String) { stringValue = string }
    init(stringLiteral value: String) { stringValue = value }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension KeyedDecodingContainer where K == JSONKey {
    /// Throws a decoding error that names the offending tag and the accepted ones.
    func unknownTag(_ tag: String, key: JSONKey, accepted: [String]) -> DecodingError {
        DecodingError.dataCorruptedError(
            forKey: key, in: self,
            debugDescription: "unknown \(key.stringValue) \"\(tag)\"; expected one of: \(accepted.joined(separator: ", "))")
    }
}

extension KeyedDecodingContainer where K == JSONKey {
    /// An optional string naming one case of `T`; an unknown name throws ``unknownTag(_:key:accepted:)``.
    func decodeTagIfPresent<T: RawRepresentable & CaseIterable>(_ type: T.Type, forKey key: JSONKey) throws -> T?
    where T.RawValue == String {
        guard let tag = try decodeIfPresent(String.self, forKey: key) else { return nil }
        guard let value = T(rawValue: tag) else { throw unknownTag(tag, key: key, accepted: T.allCases.map(\.rawValue)) }
        return value
    }
}
