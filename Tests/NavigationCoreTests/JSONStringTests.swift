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

    @Test func everyControlCharacterIsAppendedAsTheLiteralWritesIt() {
        for value in 0..<0x20 {
            let text = String(UnicodeScalar(UInt8(value)))
            var bytes: [UInt8] = []
            JSONString.appendLiteral(text, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == JSONString.literal(text))
        }
    }

    @Test func controlCharactersUseFourDigitEscapes() {
        #expect(JSONString.literal("\u{01}") == #""\u0001""#)
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
