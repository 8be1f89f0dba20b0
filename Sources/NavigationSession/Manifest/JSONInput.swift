#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NavigationCore

/// Decoding client JSON with messages that name the key path.
enum JSONInput {
    struct Failure: Error {
        var message: String
        var tooLong = false
    }

    static func decode<T: Decodable>(_ type: T.Type, from text: String, limit: Int) throws(Failure) -> T {
        guard text.utf8.count <= limit else {
            throw Failure(message: "JSON is \(text.utf8.count) bytes; the limit is \(limit)", tooLong: true)
        }
        guard !JSONString.containsNULEscape(text) else {
            throw Failure(message: "JSON contains \\u0000: names and texts cannot hold a NUL byte (D-Bus strings cannot)")
        }
        do {
            return try JSONDecoder().decode(type, from: Data(text.utf8))
        } catch {
            if let error = error as? DecodingError, case .dataCorrupted(let context) = error, context.codingPath.isEmpty,
                let syntax = JSONSyntax.firstError(in: text)
            {
                throw Failure(message: "line \(syntax.line), column \(syntax.column): \(syntax.reason)")
            }
            throw Failure(message: SessionStore.describe(error))
        }
    }
}
