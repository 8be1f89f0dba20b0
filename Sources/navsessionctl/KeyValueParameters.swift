import DBusKit

/// `KEY=VALUE` words turned into the `a{ss}` parameters of OpenWindow, StackAppend, Present, ….
///
/// The value is everything after the first `=` (so `q=a=b` is key `q`, value `a=b`; `k=` is an empty value).
/// Keys must be non-empty and appear once. Order is kept.
struct KeyValueParameters: Sendable, Equatable {
    /// The pairs in the order given.
    let pairs: [Pair]

    /// One `KEY=VALUE`.
    struct Pair: Sendable, Equatable {
        let key: String
        let value: String
    }

    /// Why a word is not a parameter.
    struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        let description: String
    }

    /// Parses the words.
    /// - Throws: ``ParseError`` for a word without `=`, an empty key or a repeated key.
    init(parsing words: [String]) throws(ParseError) {
        var pairs: [Pair] = []
        var seen: Set<String> = []
        for word in words {
            guard let equals = word.firstIndex(of: "=") else {
                throw ParseError(description: "'\(word)' is not KEY=VALUE")
            }
            let key = String(word[..<equals])
            guard !key.isEmpty else { throw ParseError(description: "'\(word)' has an empty key") }
            guard seen.insert(key).inserted else { throw ParseError(description: "parameter '\(key)' is given twice") }
            pairs.append(Pair(key: key, value: String(word[word.index(after: equals)...])))
        }
        self.pairs = pairs
    }

    /// The parameters as a dictionary (keys are unique).
    var dictionary: [String: String] {
        Dictionary(pairs.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    /// The parameters as a D-Bus `a{ss}` value.
    var value: Value {
        .dictionary(key: .string, value: .string, pairs.map { DictionaryEntry(.string($0.key), .string($0.value)) })
    }
}
