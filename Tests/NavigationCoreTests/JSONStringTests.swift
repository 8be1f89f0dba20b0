import Foundation
import NavigationCore
import Testing

struct JSONStringTests {
    @Test(arguments: ["plain", "quote \" and \\ backslash", "line\nbreak\ttab\r", "\u{01}\u{1f} controls", "ünïcødé ✓ 🚀", ""])
    func literalDecodesBackToTheSameText(_ text: String) throws {
        let literal = JSONString.literal(text)
        let decoded = try JSONDecoder().decode(String.self, from: Data(literal.utf8))
        #expect(decoded == text)
    }

    @Test(arguments: ["plain", "quote \" and \\ backslash", "line\nbreak\ttab\r", "\u{01}\u{1f}\u{0b} controls", "ünïcødé ✓ 🚀", ""])
    func appendedLiteralIsByteForByteTheLiteral(_ text: String) {
        var bytes: [UInt8] = Array("x".utf8)
        JSONString.appendLiteral(text, to: &bytes)
        #expect(bytes == Array(("x" + JSONString.literal(text)).utf8))
    }

    /// The project's JSON encoder options (journal, snapshots, replies).
    static func encoded(_ text: String) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(text), as: UTF8.self)
    }

    @Test func everyASCIICharacterIsWrittenAsJSONEncoderWritesIt() throws {
        for value in 0..<0x80 {
            let text = "a" + String(UnicodeScalar(UInt8(value))) + "z"
            var direct: [UInt8] = []
            #expect(DirectJSON.appendString(text, to: &direct))
            let expected = try Self.encoded(text)
            #expect(JSONString.literal(text) == expected, "U+\(String(value, radix: 16))")
            #expect(String(decoding: direct, as: UTF8.self) == expected, "U+\(String(value, radix: 16))")
        }
    }

    @Test(arguments: ["ünïcødé ✓ 🚀", "\u{2028}\u{2029}\u{7f}\u{85}", "mixed \u{08}é\u{0c}/"])
    func nonASCIITextIsWrittenAsJSONEncoderWritesIt(_ text: String) throws {
        #expect(JSONString.literal(text) == (try Self.encoded(text)))
    }

    @Test func controlCharactersUseFourDigitEscapesUnlessTheyHaveAShortOne() {
        #expect(JSONString.literal("\u{01}") == #""\u0001""#)
        #expect(JSONString.literal("\u{08}\u{0c}") == #""\b\f""#)
        #expect(JSONString.literal("a\"b") == #""a\"b""#)
    }

    @Test(arguments: [
        (#"{"a":"x\u0000"}"#, true), (#"["\u0000"]"#, true), (#"{"a":"\\u0000"}"#, false),
        (#"{"a":"\u0001"}"#, false), (#"{"a":"\u00"}"#, false), ("plain", false),
    ])
    func nulEscapesAreFoundOutsideEscapedBackslashes(_ json: String, _ expected: Bool) {
        #expect(JSONString.containsNULEscape(json) == expected)
    }
}
