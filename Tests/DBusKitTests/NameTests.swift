import DBusKit
import Testing

struct NameTests {
    @Test(arguments: ["/", "/org", "/org/navsession/Session1", "/org/navsession/Session1/window/7", "/a_b/C9"])
    func validObjectPaths(_ text: String) throws {
        #expect(try ObjectPath(text).rawValue == text)
    }

    @Test(arguments: ["", "org", "/a/", "/a//b", "/a-b", "/a b", "/a\0b", "//", "/é"])
    func invalidObjectPaths(_ text: String) {
        #expect(throws: ValidationError.self) { try ObjectPath(text) }
    }

    @Test(arguments: ["org.navsession.Demo", ":1.42", "org.freedesktop.DBus", "a.b-c", "_a.b"])
    func validBusNames(_ text: String) throws {
        #expect(try BusName(text).rawValue == text)
    }

    @Test(arguments: ["", "org", ".org.x", "org..x", "org.1x", "org.x.", "org.x\0y", String(repeating: "a.", count: 128) + "a"])
    func invalidBusNames(_ text: String) {
        #expect(throws: ValidationError.self) { try BusName(text) }
    }

    @Test(arguments: ["org.navsession.Window1", "org._7_zip.Plugin", "a.b"])
    func validInterfaceNames(_ text: String) throws {
        #expect(try InterfaceName(text).rawValue == text)
    }

    @Test(arguments: ["", "org", "org.7zip", "org..x", "org.x-y", "org.x.", ":1.2", "org.x\0.y"])
    func invalidInterfaceNames(_ text: String) {
        #expect(throws: ValidationError.self) { try InterfaceName(text) }
    }

    @Test(arguments: ["OpenWindow", "Ping", "_private", "Get2"])
    func validMemberNames(_ text: String) throws {
        #expect(try MemberName(text).rawValue == text)
    }

    @Test(arguments: ["", "2Get", "Open.Window", "Open-Window", "Open\0", String(repeating: "a", count: 256)])
    func invalidMemberNames(_ text: String) {
        #expect(throws: ValidationError.self) { try MemberName(text) }
    }

    @Test(arguments: ["org.freedesktop.DBus.Error.Failed", "org.example.Error.X"])
    func validErrorNames(_ text: String) throws {
        #expect(try ErrorName(text).rawValue == text)
    }

    @Test(arguments: ["Failed", "org.example.Error.", "org.example.1X", "org.example\0.X"])
    func invalidErrorNames(_ text: String) {
        #expect(throws: ValidationError.self) { try ErrorName(text) }
    }

    @Test func appendingBuildsChildPaths() throws {
        let root = try ObjectPath("/org/navsession/Session1")
        #expect(try root.appending("window").appending("7").rawValue == "/org/navsession/Session1/window/7")
        #expect(try ObjectPath.root.appending("a").rawValue == "/a")
        #expect(throws: ValidationError.self) { try root.appending("a/b") }
    }

    /// `appending` checks only the new element; what it refuses is what libdbus would refuse in a full path.
    @Test(arguments: ["", "a-b", "a b", "a.b", "é", "a\0b", "/", "a/"])
    func appendingRefusesInvalidElements(_ element: String) throws {
        let root = try ObjectPath("/org/navsession/Session1")
        #expect(throws: ValidationError.self) { try root.appending(element) }
        #expect(throws: ValidationError.self) { try ObjectPath(root.rawValue + "/" + element) }
    }

    @Test func appendingAcceptsEveryElementByte() throws {
        let element = "azAZ09_"
        #expect(try ObjectPath.root.appending(element) == ObjectPath("/" + element))
    }

    @Test func descendantCheckRespectsElementBoundaries() throws {
        #expect(try ObjectPath("/a/b").isDescendant(of: ObjectPath("/a")))
        #expect(try !ObjectPath("/ab").isDescendant(of: ObjectPath("/a")))
        #expect(try ObjectPath("/ab").isDescendant(of: .root))
    }
}
