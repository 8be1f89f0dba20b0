@testable import DBusKit
import Testing

struct SignatureTests {
    static let valid = [
        "", "y", "b", "n", "q", "i", "u", "x", "t", "d", "s", "o", "g", "h", "v", "as", "a{sv}", "a{oa{sa{sv}}}",
        "(i)", "(ia(s))", "sa{sv}as", "aay", "a(ii)", "a{yv}", "(((v)))",
    ]
    static let invalid = ["a", "()", "{sv}", "a{vs}", "a{(i)s}", "(i", "i)", "z", "a{s}", "a{svs}", "a{sv", "ii)", "!"]

    @Test(arguments: valid)
    func validSignaturesParseAndMatchLibdbus(_ text: String) throws {
        let signature = try Signature(text)
        #expect(signature.rawValue == text)
        #expect(signature.types.map(\.description).joined() == text)
        #expect(MessageCodec.libdbusAcceptsSignature(text))
    }

    @Test(arguments: invalid)
    func invalidSignaturesThrowAndLibdbusAgrees(_ text: String) {
        #expect(throws: ValidationError.self) { try Signature(text) }
        #expect(!MessageCodec.libdbusAcceptsSignature(text))
    }

    @Test func thirtyTwoNestedArraysAreAcceptedButThirtyThreeAreNot() throws {
        _ = try Signature(String(repeating: "a", count: 32) + "i")
        #expect(throws: ValidationError.self) { try Signature(String(repeating: "a", count: 33) + "i") }
        #expect(!MessageCodec.libdbusAcceptsSignature(String(repeating: "a", count: 33) + "i"))
    }

    @Test func thirtyTwoNestedStructsAreAcceptedButThirtyThreeAreNot() throws {
        func nested(_ depth: Int) -> String { String(repeating: "(", count: depth) + "i" + String(repeating: ")", count: depth) }
        _ = try Signature(nested(32))
        #expect(throws: ValidationError.self) { try Signature(nested(33)) }
        #expect(!MessageCodec.libdbusAcceptsSignature(nested(33)))
    }

    @Test func signaturesLongerThan255BytesAreRejected() throws {
        _ = try Signature(String(repeating: "i", count: 255))
        #expect(throws: ValidationError.self) { try Signature(String(repeating: "i", count: 256)) }
    }

    @Test func aSignatureWithNULIsRejected() {
        #expect(throws: ValidationError.self) { try Signature("i\0i") }
    }

    @Test func singleTypeParsingRejectsTwoTypes() throws {
        #expect(try SignatureType(parsing: "a{sv}") == .dictionary(key: .string, value: .variant))
        #expect(throws: ValidationError.self) { try SignatureType(parsing: "ii") }
    }
}
