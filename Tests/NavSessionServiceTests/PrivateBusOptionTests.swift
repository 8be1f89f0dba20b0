import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// `navsessiond --private-bus`: the address it prints is a promise that the daemon serves there.
@Suite(.timeLimit(.minutes(1)))
struct PrivateBusOptionTests {
    /// The README's tour calls the daemon as soon as the address appears; a daemon that printed it before
    /// owning its name made that call fail with `ServiceUnknown` on a busy machine. The address is read as
    /// soon as it is written (a blocking read of the daemon's stdout), then the bus is asked at once.
    @Test func theAddressIsPrintedOnceTheDaemonOwnsItsName() async throws {
        let daemon = try DaemonFixture.binary().path
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("private-bus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = """
            cd '\(directory.path)'
            exec 3< <(exec '\(daemon)' --private-bus --ephemeral 2> log)
            daemon=$!
            read -r address <&3
            export "$address"
            dbus-send --print-reply=literal --dest=org.freedesktop.DBus /org/freedesktop/DBus \\
              org.freedesktop.DBus.NameHasOwner string:org.navsession.Demo
            kill $daemon; wait $daemon
            cat log
            """
        for _ in 1...3 {
            let result = try await ToolRunner.run("bash", ["-c", script], environment: [:], timeout: .seconds(30))
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains("boolean true"), "\(result)")
            // The same promise where timing cannot hide a break: the daemon's stderr says it serves before it
            // gives the address (and the hint that goes with it).
            let serving = try #require(result.stdout.range(of: "serving org.navsession.Demo as "), "\(result)")
            let hint = try #require(result.stdout.range(of: "on a private bus. In another shell"), "\(result)")
            #expect(serving.lowerBound < hint.lowerBound, "\(result)")
        }
    }
}
