import DBusKit
import DBusTestSupport
import Foundation
import Testing

/// The same service, driven by the command-line clients people will actually use.
@Suite struct ExternalToolTests {
    let dest = TestNames.service
    let path = TestNames.objectPath
    let iface = TestNames.interfaceName

    @Test func dbusSendCallsAMethod() async throws {
        let fixture = try await TestFixture.start()
        let result = try await fixture.privateBus.run(
            "dbus-send", ["--session", "--print-reply", "--dest=\(dest)", path, "\(iface).Echo", "string:from dbus-send"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("string \"from dbus-send\""))
        await fixture.stop()
    }

    @Test func dbusSendSeesUnknownObjectForAMissingPath() async throws {
        let fixture = try await TestFixture.start()
        let result = try await fixture.privateBus.run(
            "dbus-send", ["--session", "--print-reply", "--dest=\(dest)", "\(TestNames.rootPath)/window/99", "\(iface).Echo", "string:x"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("org.freedesktop.DBus.Error.UnknownObject"), "\(result)")
        await fixture.stop()
    }

    @Test func gdbusCallsAMethod() async throws {
        let fixture = try await TestFixture.start()
        let result = try await fixture.privateBus.run(
            "gdbus", ["call", "--session", "--dest", dest, "--object-path", path, "--method", "\(iface).Add", "2", "3"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "(5,)")
        await fixture.stop()
    }

    @Test func gdbusSeesInvalidArgsForAWrongSignature() async throws {
        let fixture = try await TestFixture.start()
        let result = try await fixture.privateBus.run(
            "gdbus", ["call", "--session", "--dest", dest, "--object-path", path, "--method", "org.freedesktop.DBus.Properties.Set",
                      iface, "Name", "<int32 5>"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("org.freedesktop.DBus.Error.InvalidArgs"), "\(result)")
        await fixture.stop()
    }

    @Test func busctlCallsAMethod() async throws {
        let fixture = try await TestFixture.start()
        let result = try await fixture.privateBus.run("busctl", ["--user", "call", dest, path, iface, "Echo", "s", "from busctl"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "s \"from busctl\"")
        await fixture.stop()
    }

    @Test func busctlReadsAProperty() async throws {
        let fixture = try await TestFixture.start()
        let result = try await fixture.privateBus.run("busctl", ["--user", "get-property", dest, path, iface, "Name"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "s \"initial\"")
        await fixture.stop()
    }

    @Test func gdbusIntrospectShowsTheDeclaredInterface() async throws {
        let fixture = try await TestFixture.start()
        let result = try await fixture.privateBus.run(
            "gdbus", ["introspect", "--session", "--dest", dest, "--object-path", path])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("interface \(iface) {"))
        #expect(result.stdout.contains("Echo(in  s text,"))
        #expect(result.stdout.contains("readwrite s Name"))
        #expect(result.stdout.contains("interface org.freedesktop.DBus.Properties {"))
        await fixture.stop()
    }

    @Test func busctlIntrospectShowsMethodsPropertiesAndSignals() async throws {
        let fixture = try await TestFixture.start()
        let result = try await fixture.privateBus.run("busctl", ["--user", "introspect", dest, path])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains(".Echo"))
        #expect(result.stdout.contains(".Incremented"))
        #expect(result.stdout.contains(".Counter"))
        await fixture.stop()
    }

    @Test func busctlTreeWalksChildNodes() async throws {
        let fixture = try await TestFixture.start()
        let result = try await fixture.privateBus.run("busctl", ["--user", "tree", "--list", dest])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains(path))
        await fixture.stop()
    }
}
