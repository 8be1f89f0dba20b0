import DBusKit
import Foundation
import NavSessionClient
import Testing

/// NavSessionError mirrors every error name the daemon documents; the mapping from DBusKit errors is total.
@Suite struct ErrorNameTests {
    /// The names listed under "Every error name" in Docs/dbus-api.md.
    static func documentedNames() throws -> Set<String> {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let doc = try String(contentsOf: root.appendingPathComponent("Docs/dbus-api.md"), encoding: .utf8)
        let start = try #require(doc.range(of: "## Every error name"))
        let rest = doc[start.upperBound...]
        let section = rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)]
        return Set(section.matches(of: #/org\.(navsession|freedesktop\.DBus)\.Error\.[A-Za-z]+/#).map { String($0.output.0) })
    }

    @Test func everyDocumentedNameHasItsOwnCase() throws {
        let names = try Self.documentedNames()
        #expect(names.count > 40)
        for name in names {
            let error = NavSessionError(name: name, message: "why")
            if case .other = error { Issue.record("\(name) has no case of its own") }
            #expect(error.name == name)
            #expect(error.message == "why")
            #expect(error.description == "\(name): why")
        }
    }

    @Test func unknownNamesAreKept() {
        let error = NavSessionError(name: "org.example.Error.Strange", message: "odd")
        #expect(error == .other(name: "org.example.Error.Strange", message: "odd"))
        #expect(error.name == "org.example.Error.Strange")
    }

    @Test func busAndConnectionErrorsMap() throws {
        let bus = BusError(try ErrorName("org.navsession.Error.NoStack"), "no stack at or above model 1")
        #expect(NavSessionError(bus) == .noStack("no stack at or above model 1"))
        #expect(NavSessionError(BusError(.unknownObject, "gone")) == .unknownObject("gone"))
        #expect(NavSessionError(ConnectionError(.timedOut, "late")) == .timedOut("late"))
        #expect(NavSessionError(ConnectionError(.disconnected, "down")) == .disconnected("down"))
        #expect(NavSessionError(ConnectionError(.connectFailed, "no bus")) == .connectionFailed("no bus"))
        #expect(NavSessionError(CancellationError()) == .cancelled)
        #expect(NavSessionError(NavSessionError.emptyBatch("x")) == .emptyBatch("x"))
        if case .invalidArgs = NavSessionError(try #require(catchValidation())) {} else {
            Issue.record("a ValidationError should map to InvalidArgs")
        }
    }

    private func catchValidation() -> (any Error)? {
        do {
            _ = try ObjectPath("not a path")
            return nil
        } catch {
            return error
        }
    }
}
