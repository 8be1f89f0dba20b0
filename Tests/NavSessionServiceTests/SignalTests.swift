import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Synchronization
import Testing

extension DaemonFixture {
    /// Every signal the daemon emits under /org/navsession/Session1 (sessions and windows), in emission order.
    func allSignals() async throws -> AsyncStream<Signal> {
        try await bus.signals(
            matching: MatchRule(sender: try BusName(Self.name), pathNamespace: try ObjectPath(Self.session)))
    }

    /// Opens a `waiting` window as a marker and returns every signal of `stream` up to the marker's
    /// Session1 PropertiesChanged. The daemon emits in order, so everything emitted before the marker
    /// call is in the result: counting "exactly one" needs no sleeping.
    func signalsBeforeMarker(_ stream: AsyncStream<Signal>) async throws -> [Signal] {
        _ = try await openWindow("waiting")
        let seen = try await collect(stream) { $0.path.rawValue == Self.session && $0.member.rawValue == "PropertiesChanged" }
        // Drop the marker's own InterfacesAdded and PropertiesChanged.
        return Array(seen.dropLast().filter { $0.member.rawValue != "InterfacesAdded" })
    }
}

extension Signal {
    /// PropertiesChanged's changed properties, unwrapped.
    var changedProperties: [String: Value] { arguments.count > 1 ? arguments[1].keyedEntries : [:] }
}

@Suite(.serialized) struct ObjectManagerTests {
    @Test func getManagedObjectsListsEveryWindowWithAllProperties() async throws {
        try await DaemonFixture.with { fixture in
            let main = try await fixture.openWindow()
            let waiting = try await fixture.openWindow("waiting")
            let reply = try await fixture.call(DaemonFixture.session, "org.freedesktop.DBus.ObjectManager", "GetManagedObjects")
            let objects = try #require(reply.first?.dictionaryEntries)
            #expect(objects.map(\.key).compactMap { $0.objectPath?.rawValue }.sorted() == [main, waiting].sorted())
            for entry in objects {
                let interfaces = entry.value.keyedEntries
                let window = try #require(interfaces["org.navsession.Window1"], "\(entry.key)")
                let properties = window.keyedEntries
                #expect(
                    properties.keys.sorted()
                        == ["ActiveModel", "ActiveScreen", "ActiveTag", "CanDismiss", "CanGoBack", "CanGoForward", "CanPop", "CanRedo", "CanUndo", "Group", "PendingDeepLink", "PendingNavigation",
                            "Prepared", "Protected", "Renderers", "Routes", "Scene", "SelectedTab", "SettledBy", "SettledVersion", "Title", "UndoLabel", "Version",
                            "VisibleModels"])
                let scene = entry.key.objectPath?.rawValue == main ? "main" : "waiting"
                #expect(properties["Scene"] == .string(scene))
            }
        }
    }

    @Test func openWindowEmitsInterfacesAddedWithProperties() async throws {
        try await DaemonFixture.with { fixture in
            let added = try await fixture.signals(
                path: DaemonFixture.session, interface: .objectManager, member: "InterfacesAdded")
            let window = try await fixture.openWindow("waiting")
            let signal = try await first(added, timeout: .seconds(10)) { _ in true }
            #expect(signal.arguments.first == (try .path(window)))
            let properties = try #require(signal.arguments[1].keyedEntries["org.navsession.Window1"]).keyedEntries
            #expect(properties["Scene"] == .string("waiting"))
            #expect(properties["ActiveScreen"] == .string("waiting"))
            #expect(properties["Version"] == .uint64(0))
            #expect(properties.count == 24, "\(properties.keys.sorted())")
        }
    }

    @Test func dismissWindowEmitsInterfacesRemoved() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let removed = try await fixture.signals(
                path: DaemonFixture.session, interface: .objectManager, member: "InterfacesRemoved")
            let result = try await fixture.run(
                "dbus-send", ["--session", "--print-reply", "--dest=\(DaemonFixture.name)", DaemonFixture.session,
                              "org.navsession.Session1.DismissWindow", "objpath:\(window)"])
            #expect(result.status == 0, "\(result)")
            let signal = try await first(removed, timeout: .seconds(10)) { _ in true }
            #expect(signal.arguments.first == (try .path(window)))
            #expect(signal.arguments[1].arrayElements?.contains(.string("org.navsession.Window1")) == true)
        }
    }

    @Test func reportClosedEmitsInterfacesRemoved() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow("waiting")
            let removed = try await fixture.signals(
                path: DaemonFixture.session, interface: .objectManager, member: "InterfacesRemoved")
            _ = try await fixture.window(window, "ReportClosed")
            let signal = try await first(removed, timeout: .seconds(10)) { _ in true }
            #expect(signal.arguments.first == (try .path(window)))
            #expect(signal.arguments[1].arrayElements?.contains(.string("org.navsession.Window1")) == true)
        }
    }
}

@Suite(.serialized) struct PropertiesChangedTests {
    @Test func stackAppendEmitsOnePropertiesChangedWithOnlyTheChangedValues() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let signals = try await fixture.allSignals()
            let version = try #require(
                try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "42"])]).first?.uint64)
            let changes = try await fixture.signalsBeforeMarker(signals)
                .filter { $0.memberName == "PropertiesChanged" && $0.path.rawValue == window }
            try #require(changes.count == 1, "\(changes)")
            let changed = changes[0].changedProperties
            #expect(changes[0].arguments[0] == .string("org.navsession.Window1"))
            // The first push also makes a back action possible.
            #expect(changed.keys.sorted() == ["ActiveModel", "ActiveScreen", "CanGoBack", "CanPop", "Title", "UndoLabel", "Version", "VisibleModels"])
            #expect(changed["CanGoBack"] == .boolean(true))
            #expect(changed["Version"] == .uint64(version))
            #expect(changed["ActiveScreen"] == .string("detail"))
            #expect(changed["Title"] == .string("Detail"))
            #expect(changed["ActiveModel"] == (try await fixture.windowProperty(window, "ActiveModel")))
            // Routes grows with the window: invalidated, read on demand.
            #expect(changes[0].arguments[2] == .array(.string, [.string("Routes")]))
            #expect(try await fixture.windowProperty(window, "Routes") == .string(#"[{"style":"push","screen":"detail","params":{"id":"42"}}]"#))
        }
    }

    @Test func aPushOfATaggedScreenEmitsActiveTag() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let signals = try await fixture.allSignals()
            _ = try await fixture.window(
                window, "Apply",
                [.string(#"[{"command":"stackAppend","models":[{"screen":"profile","tag":"me"}]}]"#), .noParams])
            let changes = try await fixture.signalsBeforeMarker(signals)
                .filter { $0.memberName == "PropertiesChanged" && $0.path.rawValue == window }
            try #require(changes.count == 1, "\(changes)")
            #expect(changes[0].changedProperties["ActiveTag"] == .string("me"))
        }
    }

    @Test func setTitleEmitsTitleAndAnUpdateStep() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "1"])])
            let detail = try #require(try await fixture.windowProperty(window, "ActiveModel").uint64)
            let signals = try await fixture.allSignals()
            _ = try await fixture.window(window, "SetTitle", [.uint64(0), .string("Order 1")])
            let seen = try await fixture.signalsBeforeMarker(signals).filter { $0.path.rawValue == window }
            let changes = seen.filter { $0.memberName == "PropertiesChanged" }
            try #require(changes.count == 1, "\(changes)")
            #expect(changes[0].changedProperties.keys.sorted() == ["Title", "UndoLabel", "Version"])
            #expect(changes[0].changedProperties["Title"] == .string("Order 1"))
            let changed = try #require(seen.first { $0.memberName == "Changed" })
            #expect(changed.arguments[6] == .string(#"[{"kind":"update","model":\#(detail)}]"#))
        }
    }

    @Test func tabsSelectItemEmitsSelectedTabButNotUnchangedRoutes() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let signals = try await fixture.allSignals()
            _ = try await fixture.window(window, "TabsSelectItem", [.string("settings")])
            let changes = try await fixture.signalsBeforeMarker(signals)
                .filter { $0.memberName == "PropertiesChanged" && $0.path.rawValue == window }
            try #require(changes.count == 1, "\(changes)")
            let changed = changes[0].changedProperties
            #expect(changed.keys.sorted() == ["ActiveModel", "ActiveScreen", "SelectedTab", "Title", "UndoLabel", "Version", "VisibleModels"])
            #expect(changed["SelectedTab"] == .string("settings"))
            #expect(changed["ActiveScreen"] == .string("settings"))
        }
    }

    @Test func sendMessageEmitsMessageAndChangesNoProperty() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let signals = try await fixture.allSignals()
            _ = try await fixture.window(window, "SendMessage", [.uint64(0), .string("ping"), .noParams])
            let emitted = try await fixture.signalsBeforeMarker(signals).filter { $0.path.rawValue == window }
            // A message is not a state change (Docs/navigation-core.md): no version bump, so no PropertiesChanged.
            #expect(emitted.filter { $0.memberName == "PropertiesChanged" }.isEmpty, "\(emitted)")
            #expect(emitted.filter { $0.memberName == "Message" }.count == 1, "\(emitted)")
        }
    }

    @Test func sessionPropertiesChangeOnOpenAndClose() async throws {
        try await DaemonFixture.with { fixture in
            let changes = try await fixture.signals(
                path: DaemonFixture.session, interface: .properties, member: "PropertiesChanged")
            let window = try await fixture.openWindow()
            let opened = try await first(changes, timeout: .seconds(10)) { _ in true }
            #expect(opened.arguments[0] == .string("org.navsession.Session1"))
            #expect(opened.changedProperties["Windows"] == .array(.objectPath, [try .path(window)]))
            #expect(opened.changedProperties["Version"] == .uint64(1))
            #expect(opened.changedProperties.count == 2)
            _ = try await fixture.session("DismissWindow", [try .path(window)])
            let closed = try await first(changes, timeout: .seconds(10)) { _ in true }
            #expect(closed.changedProperties["Windows"] == .array(.objectPath, []))
            #expect(closed.changedProperties["Version"] == .uint64(2))
        }
    }
}

@Suite(.serialized) struct ChangedSignalTests {
    @Test func eachCommandEmitsOneChangedWithConsecutiveVersions() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let signals = try await fixture.allSignals()
            let start = try await fixture.version(window)
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "1"])])
            _ = try await fixture.window(window, "TabsSelectItem", [.string("settings")])
            _ = try await fixture.window(window, "Present", [.string("sheet"), .string("about"), .noParams])
            _ = try await fixture.window(window, "Dismiss")
            let changed = try await fixture.signalsBeforeMarker(signals)
                .filter { $0.memberName == "Changed" && $0.path.rawValue == window }
            #expect(changed.count == 5, "\(changed)")
            let versions = changed.compactMap { $0.arguments[0].uint64 }
            let previous = changed.compactMap { $0.arguments[1].uint64 }
            #expect(versions == Array(start + 1...start + 5))
            #expect(previous == Array(start...start + 4))
            #expect(try await fixture.version(window) == start + 5)
        }
    }

    @Test func applyBatchEmitsExactlyOneChanged() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let signals = try await fixture.allSignals()
            let before = try await fixture.version(window)
            let reply = try await fixture.session(
                "Apply",
                [try .path(window),
                 .string(#"[{"command":"stackAppend","models":[{"screen":"about"}]},{"command":"tabsSelectItem","tab":"settings"},{"command":"stackAppend","models":[{"screen":"profile"}]}]"#)])
            #expect(reply == [.uint64(before + 1)])
            let changed = try await fixture.signalsBeforeMarker(signals)
                .filter { $0.memberName == "Changed" && $0.path.rawValue == window }
            try #require(changed.count == 1, "\(changed)")
            #expect(changed[0].arguments[0] == .uint64(before + 1))
            #expect(changed[0].arguments[1] == .uint64(before))
            #expect(changed[0].arguments[4].arrayElements?.count == 2, "two screens started: \(changed[0].arguments[4])")
            _ = try json(changed[0].arguments[2].string)
        }
    }

    @Test func multiStepDeepLinkCarriesPlannedSteps() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let changes = try await fixture.signals(
                path: window, interface: try InterfaceName("org.navsession.Window1"), member: "Changed")
            // From the bare home tab ([]) to [push detail, sheet editor]: S0, one push, one sheet (brief §7).
            let result = try await fixture.run(
                "busctl", ["--user", "call", DaemonFixture.name, DaemonFixture.session, "org.navsession.Session1", "OpenURL",
                           "s", "navsession-demo://detail/42/edit"])
            #expect(result.stdout == "o \"\(window)\"\n", "\(result)")
            let signal = try await first(changes, timeout: .seconds(10)) { _ in true }
            let steps = try #require(try json(signal.arguments[6].string) as? [[String: Any]], "\(signal.arguments[6])")
            #expect(steps.map { $0["kind"] as? String } == ["push", "present"], "\(steps)")
            #expect(steps.last?["style"] as? String == "sheet")
            #expect(try await Window1MethodTests.routeScreens(fixture, window) == ["detail", "editor"])
        }
    }

    @Test func aDeepLinkAcrossTabsDismissesTheOldSheetOnceAndPresentsTheNewOne() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "TabsSelectItem", [.string("settings")])
            _ = try await fixture.window(window, "StackAppend", [.string("about"), .noParams])
            _ = try await fixture.window(window, "Present", [.string("sheet+stack"), .string("profile"), .noParams])
            let changes = try await fixture.signals(
                path: window, interface: try InterfaceName("org.navsession.Window1"), member: "Changed")
            // The graph's own path: the settings sheet (on the tabs) is dismissed, the home tab selected, the
            // detail pushed and the editor presented — each once, nothing dismissed and presented again.
            _ = try await fixture.session("OpenURL", [.string("navsession-demo://detail/42/edit")])
            let signal = try await first(changes, timeout: .seconds(10)) { _ in true }
            let steps = try #require(try json(signal.arguments[6].string) as? [[String: Any]], "\(signal.arguments[6])")
            #expect(steps.map { $0["kind"] as? String } == ["dismiss", "selectTab", "push", "present"], "\(steps)")
            #expect(signal.arguments[5].arrayElements?.isEmpty == false, "the settings branch's sheet finished")
            #expect(try await Window1MethodTests.routeScreens(fixture, window) == ["detail", "editor"])
        }
    }

    @Test func logInIsOneSwitchStep() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let changes = try await fixture.signals(
                path: window, interface: try InterfaceName("org.navsession.Window1"), member: "Changed")
            try await fixture.logIn(window)
            let signal = try await first(changes, timeout: .seconds(10)) { _ in true }
            let steps = try #require(try json(signal.arguments[6].string) as? [[String: Any]], "\(signal.arguments[6])")
            #expect(steps.map { $0["kind"] as? String } == ["switch"], "\(steps)")
            #expect(signal.arguments[2].string?.contains("switchModel") == true, "\(signal.arguments[2])")
        }
    }

    @Test func removedModelsTravelInOneChangedNotInAMessageEach() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "1"])])
            let detail = try #require(try await fixture.windowProperty(window, "ActiveModel").uint64)
            let messages = try await fixture.signals(
                path: window, interface: try InterfaceName("org.navsession.Window1"), member: "Message")
            let changes = try await fixture.signals(
                path: window, interface: try InterfaceName("org.navsession.Window1"), member: "Changed")
            _ = try await fixture.window(window, "StackDropLast", [.uint32(1)])
            let changed = try await first(changes, timeout: .seconds(10)) { _ in true }
            #expect(changed.arguments[5] == .array(.uint64, [.uint64(detail)]))
            // Signals arrive in order: the first Message after the pop is the marker sent after it.
            _ = try await fixture.window(window, "SendMessage", [.uint64(0), .string("marker"), .params([:])])
            let message = try await first(messages, timeout: .seconds(10)) { _ in true }
            #expect(message.arguments[1] == .string("marker"))
        }
    }

    @Test func foreignURLEmitsOpenExternalURL() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let external = try await fixture.signals(
                path: window, interface: try InterfaceName("org.navsession.Window1"), member: "OpenExternalURL")
            let reply = try await fixture.session("OpenURL", [.string("https://example.com")])
            #expect(reply == [try .path(window)])
            let signal = try await first(external, timeout: .seconds(10)) { _ in true }
            #expect(signal.arguments == [.string("https://example.com")])
            #expect(try await fixture.session("ListWindows") == [.array(.objectPath, [try .path(window)])])
        }
    }
}

/// The order of messages on the wire, as the bus routes them, seen by `dbus-monitor`.
@Suite(.serialized) struct WireOrderTests {
    @Test func changedAndPropertiesChangedLeaveBeforeTheReply() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let daemon = try #require(try await fixture.bus.call(
                destination: try BusName("org.freedesktop.DBus"), path: try ObjectPath("/org/freedesktop/DBus"),
                interface: try InterfaceName("org.freedesktop.DBus"), member: try MemberName("GetNameOwner"),
                arguments: [.string(DaemonFixture.name)]).first?.string)
            let monitor = try #require(try await BusMonitor.start(address: fixture.address))
            defer { monitor.stop() }
            let lines = monitor.lines
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "1"])])
            // A marker call: every message of StackAppend was routed before it.
            _ = try await fixture.window(window, "GetRoutes")
            let sent = Mutex<[String]>([])
            let marker = await lines.first(within: Liveness.bound(.seconds(10))) { line in
                if line.count >= 8, line[0] == "mc", line[7] == "GetRoutes" { return true }
                // The daemon's own questions to the bus (the process of a connection that joined: the monitor's)
                // are not part of the change.
                if line.count >= 6, line[3] == daemon, !(line[0] == "mc" && line[4] == "org.freedesktop.DBus") {
                    sent.withLock { $0.append(line[0] == "sig" && line.count >= 8 ? line[7] : line[0]) }
                }
                return false
            }
            #expect(marker != nil)
            #expect(sent.withLock { $0 } == ["Changed", "Announcement", "PropertiesChanged", "mr"], "\(sent.withLock { $0 })")
        }
    }
}
