import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import NavigationSession
import Testing

/// A batch that cannot do what it asks is refused, not answered with success and a
/// log full of warnings; and a warning repeated word for word is written a few times, then counted.
@Suite struct BatchRefusalTests {
    static func batch(_ command: String, count: Int) -> Value {
        .string("[" + Array(repeating: command, count: count).joined(separator: ",") + "]")
    }

    static let openWaiting = #"{"command":"openWindow","scene":"waiting","params":{}}"#

    @Test func scenario10AnApplyOpeningMoreWindowsThanMayOpenIsLimitsExceededAndAppliesNothing() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let limits = SessionLimits()
            let limit = limits.maxWindows
            // The session fills up through several clients (processes: shares belong to processes), each within
            // its window share.
            var remaining = limit - 1
            while remaining > 0 {
                let count = min(remaining, limits.maxClientWindows)
                let applied = try await fixture.run(
                    "gdbus", [
                        "call", "--session", "--dest", DaemonFixture.name, "--object-path", DaemonFixture.session,
                        "--method", "org.navsession.Session1.Apply", window,
                        "[" + Array(repeating: Self.openWaiting, count: count).joined(separator: ",") + "]",
                    ])
                try #require(applied.status == 0, "\(applied)")
                remaining -= count
            }
            let open = try #require(try await fixture.session("ListWindows").first?.arrayElements?.count)
            #expect(open == limit)
            let before = try await fixture.version(window)
            let error = await fixture.error {
                try await fixture.session("Apply", [try .path(window), Self.batch(Self.openWaiting, count: 256)])
            }
            #expect(error?.name.rawValue == ReliabilityTests.limitsExceeded)
            #expect(error?.message.contains("SessionLimits.maxWindows") == true, "\(String(describing: error))")
            #expect(try await fixture.version(window) == before)
            #expect(try await fixture.session("ListWindows").first?.arrayElements?.count == limit)
            #expect(!fixture.output.contains("effect openWindow"), "a refused batch logged effects:\n\(fixture.output)")
        }
    }

    @Test func aWarningRepeatedWordForWordIsWrittenAtOccurrencesOneTenAndAHundredWithTheCountSuppressed() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let effects = try await fixture.signals(
                path: window, interface: try InterfaceName(DaemonFixture.windowInterface), member: "Effect")
            let dismissMissing = #"{"command":"dismissWindow","window":"99"}"#
            _ = try await fixture.session("Apply", [try .path(window), Self.batch(dismissMissing, count: 256)])
            // Every failure is still reported to the window's watchers; each is logged before it is signalled.
            let failures = try await take(256, of: effects)
            #expect(failures.allSatisfy { $0.arguments.first == .string("effectFailed") })
            let lines = fixture.output.split(separator: "\n").filter { $0.contains("effect dismissWindow") }
            #expect(lines.count == 3, "\(lines)")
            #expect(lines.dropFirst().first?.hasSuffix("(8 more like this suppressed)") == true, "\(lines)")
            #expect(lines.last?.hasSuffix("(89 more like this suppressed)") == true, "\(lines)")
        }
    }
}
