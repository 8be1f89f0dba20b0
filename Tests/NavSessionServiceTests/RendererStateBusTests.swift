import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// Window1.SetRendererState through the bus, on the demo manifest.
@Suite(.serialized) struct RendererStateBusTests {
    private static let window1 = "org.navsession.Window1"

    private static func pushEditor(_ fixture: DaemonFixture, _ window: String) async throws -> UInt64 {
        try await fixture.logIn(window)
        _ = try await fixture.window(window, "StackAppend", [.string("editor"), .params(["id": "7"])])
        return try #require(try await fixture.windowProperty(window, "ActiveModel").uint64)
    }

    private static func state(_ fixture: DaemonFixture, _ window: String) async throws -> [String: Any] {
        let text = try #require(try await fixture.window(window, "GetState").first?.string)
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func setRendererStateWithDbusSendStoresTheEditorsDraftWithARendererStateStep() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let editor = try await Self.pushEditor(fixture, window)
            let changes = try await fixture.signals(path: window, interface: try InterfaceName(Self.window1), member: "Changed")
            let result = try await fixture.dbusSend(
                window, "SetRendererState", ["uint64:\(editor)", #"string:{"draft":"Dear Ann,","scroll":120}"#])
            #expect(result.status == 0, "\(result)")
            let changed = try await first(changes, timeout: .seconds(10)) { _ in true }
            #expect(changed.arguments[6].string
                == #"[{"kind":"rendererState","model":\#(editor),"state":{"draft":"Dear Ann,","scroll":120}}]"#)
            #expect(changed.arguments[4].arrayElements?.isEmpty == true && changed.arguments[5].arrayElements?.isEmpty == true)
            let model = try await TagAndParamsBusTests.model(fixture, window, id: editor)
            let stored = try #require(model["rendererState"] as? [String: Any])
            #expect(stored["draft"] as? String == "Dear Ann," && stored["scroll"] as? Int == 120)
        }
    }

    @Test func modelZeroWithGdbusIsTheWindowsOwnStateAtTheTopOfTheSnapshot() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let result = try await fixture.gdbus(window, "SetRendererState", ["0", #"{"width":900,"height":700}"#])
            #expect(result.status == 0, "\(result)")
            let state = try await Self.state(fixture, window)
            #expect(state["rendererState"] as? [String: Int] == ["width": 900, "height": 700])
        }
    }

    @Test func anEmptyObjectClearsIt() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            _ = try await fixture.window(window, "SetRendererState", [.uint64(0), .string(#"{"width":900}"#)])
            _ = try await fixture.window(window, "SetRendererState", [.uint64(0), .string("{}")])
            #expect(try await Self.state(fixture, window)["rendererState"] == nil)
        }
    }

    @Test func theSameStateKeepsTheVersion() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let first = try await fixture.window(window, "SetRendererState", [.uint64(0), .string(#"{"a":1}"#)])
            let again = try await fixture.window(window, "SetRendererState", [.uint64(0), .string(#"{ "a" : 1 }"#)])
            #expect(first == again)
        }
    }

    @Test func anArrayIsInvalidCommand() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let result = try await fixture.dbusSend(window, "SetRendererState", ["uint64:0", "string:[1,2]"])
            #expect(result.status != 0)
            #expect(result.stderr.contains("org.navsession.Error.InvalidCommand"), "\(result)")
        }
    }

    @Test func aStateOverTheBoundIsLimitsExceeded() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let text = #"{"draft":""# + String(repeating: "x", count: 4100) + #""}"#
            let error = await fixture.error { try await fixture.window(window, "SetRendererState", [.uint64(0), .string(text)]) }
            #expect(error?.name.rawValue == "org.freedesktop.DBus.Error.LimitsExceeded", "\(String(describing: error))")
        }
    }

    @Test func anUnknownModelIsUnknownModel() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let error = await fixture.error { try await fixture.window(window, "SetRendererState", [.uint64(999), .string("{}")]) }
            #expect(error?.name.rawValue == "org.navsession.Error.UnknownModel", "\(String(describing: error))")
        }
    }

    @Test func theBatchCommandThroughApplySetsIt() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let result = try await fixture.gdbus(
                window, "Apply", [#"[{"command":"setRendererState","model":0,"state":{"size":[640,480]}}]"#, "{}"])
            #expect(result.status == 0, "\(result)")
            #expect(try await Self.state(fixture, window)["rendererState"] as? [String: [Int]] == ["size": [640, 480]])
        }
    }

    @Test func aModelsStateIsDroppedWhenItFinishes() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let editor = try await Self.pushEditor(fixture, window)
            _ = try await fixture.window(window, "SetRendererState", [.uint64(editor), .string(#"{"draft":"x"}"#)])
            _ = try await fixture.window(window, "StackDropLast", [.uint32(1)])
            let state = try await Self.state(fixture, window)
            let models = try #require(state["models"] as? [[String: Any]])
            #expect(models.allSatisfy { $0["rendererState"] == nil }, "\(models)")
            // The forward list keeps it for the screen's return (GoForward).
            let forward = try #require(state["forward"] as? [[String: Any]])
            #expect(forward.first?["rendererState"] as? [String: String] == ["draft": "x"], "\(forward)")
        }
    }

    @Test func rendererStateSurvivesAKillThroughTheJournal() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let editor = try await Self.pushEditor(fixture, window)
            _ = try await fixture.window(window, "SetRendererState", [.uint64(editor), .string(#"{"draft":"Dear Ann,"}"#)])
            _ = try await fixture.window(window, "SetRendererState", [.uint64(0), .string(#"{"width":900}"#)])
            let state = try #require(try await fixture.window(window, "GetState").first?.string)
            try await fixture.kill()
            try await fixture.relaunch()
            #expect(try await fixture.window(window, "GetState").first?.string == state)
        }
    }

    @Test func rendererStateSurvivesARestartThroughTheSnapshot() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let editor = try await Self.pushEditor(fixture, window)
            _ = try await fixture.window(window, "SetRendererState", [.uint64(editor), .string(#"{"draft":"Dear Ann,"}"#)])
            _ = try await fixture.window(window, "SetRendererState", [.uint64(0), .string(#"{"width":900}"#)])
            let state = try #require(try await fixture.window(window, "GetState").first?.string)
            try await fixture.restart()
            #expect(try await fixture.window(window, "GetState").first?.string == state)
        }
    }
}
