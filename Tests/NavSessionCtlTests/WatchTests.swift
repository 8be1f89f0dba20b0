import DBusKit
import DBusTestSupport
import Foundation
import Testing

/// `watch` follows the real daemon's signals; gap detection is checked against a scripted emitter.
@Suite(.timeLimit(.minutes(2)))
struct WatchTests {
    @Test func changesArriveInOrderWithVersions() async throws {
        try await DaemonFixture.with { daemon in
            let window = try await daemon.openWindow("main")
            let start = try await daemon.exec(window, ["switch-model", "main"])
            // Commands that finish no model, so the only events are the three Changed and their Announcements.
            let watch = try BackgroundCtl(daemon.withBus(["watch", "--count", "6", window]))
            try await watch.waitForStderr(containing: "watching")
            try await daemon.exec(window, ["stack-append", "detail", "id=42"])
            try await daemon.exec(window, ["stack-append", "profile"])
            try await daemon.exec(window, ["present", "sheet", "detail", "id=7"])
            let result = await watch.finish()
            #expect(result.status == 0, "\(result)")
            // The changes (each also announced for assistive technologies: `Announcement` lines).
            let lines = result.lines.filter { !$0.contains(" Announcement ") }
            #expect(lines.count == 3, "\(result)")
            for (offset, line) in lines.enumerated() {
                let version = start + 1 + UInt64(offset)
                #expect(line.hasPrefix("\(window) Changed version=\(version) previous=\(version - 1) "), "\(line)")
            }
            #expect(lines.first?.contains("\"stackAppend\"") == true, "\(lines)")
            #expect(lines.last?.contains("\"present\"") == true, "\(lines)")
        }
    }

    @Test func windowsComingAndGoingAsJSONLines() async throws {
        try await DaemonFixture.with { daemon in
            // Closing a window first finishes its models (a Changed), then removes it (NavigationSession).
            let watch = try BackgroundCtl(daemon.withBus(["watch", "--json", "--count", "3"]))
            try await watch.waitForStderr(containing: "watching")
            let window = try await daemon.openWindow("waiting")
            let dismissed = try await daemon.ctl(["dismiss-window", window])
            #expect(dismissed.status == 0)
            let result = await watch.finish()
            #expect(result.status == 0, "\(result)")
            let events = result.lines.compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            #expect(events.map { $0["event"] as? String } == ["WindowAdded", "Changed", "WindowRemoved"], "\(result)")
            #expect(events.allSatisfy { $0["window"] as? String == window })
        }
    }

    @Test func externalURLsAreAnnounced() async throws {
        try await DaemonFixture.with { daemon in
            _ = try await daemon.openWindow("main")
            let watch = try BackgroundCtl(daemon.withBus(["watch", "--count", "1"]))
            try await watch.waitForStderr(containing: "watching")
            let opened = try await daemon.ctl(["open-url", "https://example.org/a"])
            #expect(opened.status == 0, "\(opened)")
            let result = await watch.finish()
            #expect(result.status == 0, "\(result)")
            #expect(result.lines.count == 1 && result.lines.first?.hasSuffix(" OpenExternalURL https://example.org/a") == true,
                    "\(result)")
        }
    }

    @Test func sigintEndsWatchCleanly() async throws {
        try await DaemonFixture.with { daemon in
            let watch = try BackgroundCtl(daemon.withBus(["watch"]))
            try await watch.waitForStderr(containing: "watching")
            watch.interrupt()
            let result = await watch.finish()
            #expect(result.status == 0, "\(result)")
        }
    }

    @Test func theDaemonLeavingEndsWatchWithAnError() async throws {
        try await DaemonFixture.with { daemon in
            let watch = try BackgroundCtl(daemon.withBus(["watch"]))
            try await watch.waitForStderr(containing: "watching")
            try await daemon.stopDaemon()
            let result = await watch.finish()
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr.hasSuffix("navsessionctl: org.navsession.Demo left the bus\n"), "\(result)")
        }
    }

    @Test func aMissedChangeIsReported() async throws {
        // A scripted daemon: one window whose Version is 1, then Changed 1→2 and a gap to 4→5.
        let bus = try await PrivateBus.start()
        defer { bus.stop() }
        let server = try await bus.connect()
        let windowPath = try ObjectPath("/org/navsession/Session1/window/1")
        let interface = try InterfaceName("org.navsession.Window1")
        try await server.export(
            [try Interface("org.navsession.Window1",
                           properties: [Interface.Property("Version", .uint64, get: { _ in .uint64(1) })])],
            at: windowPath)
        let name = try BusName("org.navsession.Scripted")
        _ = try await server.requestName(name, options: [.doNotQueue])

        let watch = try BackgroundCtl(["watch", "--bus", bus.address, "--dest", name.rawValue, "--count", "2", "1"])
        try await watch.waitForStderr(containing: "watching")
        for (version, previous) in [(UInt64(2), UInt64(1)), (5, 4)] {
            try await server.emit(
                path: windowPath, interface: interface, member: try MemberName("Changed"),
                arguments: [.uint64(version), .uint64(previous), .string("{\"commands\":[]}"), .boolean(true),
                            .array(.uint64, []), .array(.uint64, []), .string("[]")])
        }
        let result = await watch.finish()
        await server.close()
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == [
            "1 Changed version=2 previous=1 animated=true started=[] finished=[] cause={\"commands\":[]}",
            "1 Missed 2 change(s): last seen version=2, next change starts from previous=4",
            "1 Changed version=5 previous=4 animated=true started=[] finished=[] cause={\"commands\":[]}",
        ], "\(result)")
    }
}
