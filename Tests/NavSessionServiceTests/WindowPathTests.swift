import DBusKit
import Testing

@testable import NavSessionService

/// `SessionService.number(of:)` parses window paths on the UTF-8 view; it must accept and reject
/// exactly what the String-based parse did.
@Test(arguments: [
    ("/org/navsession/Session1/window/1", UInt32?(1)), ("/org/navsession/Session1/window/42", 42),
    ("/org/navsession/Session1/window/007", 7), ("/org/navsession/Session1/window/4294967295", 4_294_967_295),
    ("/org/navsession/Session1/window/4294967296", nil), ("/org/navsession/Session1/window/0", nil),
    ("/org/navsession/Session1/window/x1", nil), ("/org/navsession/Session1/window/1/a", nil),
    ("/org/navsession/Session1/window", nil), ("/org/navsession/Session1", nil), ("/", nil),
    ("/org/navsession/Session1/windows/1", nil),
])
func windowNumberOfPath(path: String, expected: UInt32?) throws {
    let objectPath = try ObjectPath(path)
    let parsed = try? SessionService.number(of: objectPath)
    #expect(parsed == expected)
    if expected == nil {
        #expect(throws: BusError.self) { try SessionService.number(of: objectPath) }
    }
}
