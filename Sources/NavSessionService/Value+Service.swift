import DBusKit
import NavigationCore

extension Value {
    /// An `a{ss}` value, keys sorted.
    static func stringDictionary(_ dictionary: [String: String]) -> Value {
        .dictionary(
            key: .string, value: .string,
            dictionary.sorted { $0.key < $1.key }.map { DictionaryEntry(.string($0.key), .string($0.value)) })
    }

    /// An `at` of model ids (the `started` and `finished` of a change).
    static func modelIDs(_ ids: [ModelID]) -> Value {
        .array(.uint64, ids.map { .uint64(UInt64(clamping: $0.rawValue)) })
    }

    /// The entries of an `a{ss}` argument (later duplicates win); `[:]` for anything else.
    var stringDictionary: [String: String] {
        var result: [String: String] = [:]
        for entry in dictionaryEntries ?? [] {
            if let key = entry.key.string, let value = entry.value.string { result[key] = value }
        }
        return result
    }

    /// The elements of an `as` argument.
    var stringArray: [String] { (arrayElements ?? []).compactMap(\.string) }
}
