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
