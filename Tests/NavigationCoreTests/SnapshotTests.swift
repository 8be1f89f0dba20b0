import Foundation
import Testing

@testable import NavigationCore

struct SnapshotTests {
    static func sampleWindow() throws -> NavigationWindow {
        let window = try makeWindow(
            .switched(
                .tabs([
                    TabSpec(id: "home", title: "Home", icon: "house", model: .stacked(home, hidesTabBarWhenNotAtRoot: true)),
                    TabSpec(id: "more", title: "More", model: .custom("split", children: [.screen("list"), .screen("pane")])),
                ], screen: "main"), screen: "app"))
        try window.execute(.stackAppend(.screen("detail", params: ["id": "42"], title: "Item 42"), transition: "zoom"))
        try window.execute(.present(.sheet(.screen("share"), detents: ["medium"])))
        try window.execute(.present(.alert(DialogContent(title: "Shared", message: "Done.", actions: [DialogAction(id: "ok", title: "OK", role: .cancel)]))))
        return window
    }

    @Test func snapshotRoundTripsThroughJSON() throws {
        let window = try Self.sampleWindow()
        let snapshot = window.snapshot()
        #expect(try roundTrip(snapshot) == snapshot)
    }

    @Test func restoringASnapshotRebuildsAnEqualGraphThatKeepsWorking() throws {
        let window = try Self.sampleWindow()
        let restored = try NavigationWindow(snapshot: roundTrip(window.snapshot()))
        #expect(restored.snapshot() == window.snapshot())
        #expect(restored.debugTree() == window.debugTree())
        #expect(restored.verifyPresenterIndex())
        let a = try window.execute(.stackAppend(.screen("next")), from: 4)
        let b = try restored.execute(.stackAppend(.screen("next")), from: 4)
        #expect(a == b, "same ids after restore: the counter is kept")
    }

    @Test func snapshotJSONMatchesTheDocumentedForm() throws {
        let window = try makeWindow(.stacked(home).presenting(.sheet(.screen("share"), detents: ["medium"])))
        try window.execute(.stackAppend(.screen("detail", params: ["id": "42"])), from: 3)
        let text = try jsonText(window.snapshot())
        #expect(
            text == #"{"closed":false,"format":"navsession.window","formatVersion":1,"models":["#
                + #"{"attachment":{"type":"root"},"hidesTabBarWhenNotAtRoot":false,"id":1,"kind":"stack","params":{},"path":[{"model":3},{"model":4}],"presented":2,"screen":"stack"},"#
                + #"{"attachment":{"style":{"detents":["medium"],"kind":"sheet"},"type":"presented"},"id":2,"kind":"screen","params":{},"parent":1,"screen":"share"},"#
                + #"{"attachment":{"index":0,"type":"path"},"id":3,"kind":"screen","params":{},"parent":1,"screen":"home"},"#
                + #"{"attachment":{"index":1,"type":"path"},"id":4,"kind":"screen","params":{"id":"42"},"parent":1,"screen":"detail"}"#
                + #"],"nextModelID":5,"root":1,"version":1}"#)
    }

    static func decode(_ json: String) -> NavigationError? {
        do {
            _ = try JSONDecoder().decode(WindowSnapshot.self, from: Data(json.utf8))
            return nil
        } catch let error as NavigationError {
            return error
        } catch {
            return .invalidSnapshot("decoding error: \(error)")
        }
    }

    static let head = #"{"formatVersion":1,"version":0,"nextModelID":9,"root":1,"models":["#
    static let stackRoot = #"{"id":1,"kind":"stack","screen":"s","attachment":{"type":"root"},"path":[{"model":2}]}"#

    @Test func aValidHandWrittenSnapshotDecodes() {
        #expect(Self.decode(Self.head + Self.stackRoot + #",{"id":2,"parent":1,"kind":"screen","screen":"a","attachment":{"type":"path","index":0}}]}"#) == nil)
    }

    @Test(arguments: [
        (#"{"id":2,"parent":1,"kind":"screen","screen":"a","attachment":{"type":"path","index":0}},{"id":2,"parent":1,"kind":"screen","screen":"b","attachment":{"type":"path","index":0}}"#, "duplicate model id #2"),
        (#"{"id":3,"parent":1,"kind":"screen","screen":"a","attachment":{"type":"path","index":0}}"#, "model #1 refers to unknown model #2"),
        (#"{"id":2,"parent":3,"kind":"screen","screen":"a","attachment":{"type":"path","index":0}}"#, "model #2 has parent #3, expected #1"),
        (#"{"id":2,"parent":1,"kind":"screen","screen":"a","attachment":{"type":"tab","tab":"x"}}"#, "model #2 has the wrong attachment for its place under #1"),
        (#"{"id":2,"parent":1,"kind":"portal","screen":"a","attachment":{"type":"path","index":0}}"#, "model #2 has unknown kind \"portal\""),
        (#"{"id":2,"parent":1,"kind":"screen","screen":"a","attachment":{"type":"path","index":0}},{"id":5,"parent":1,"kind":"screen","screen":"o","attachment":{"type":"path","index":1}}"#, "model #5 is not reachable from the root"),
        (#"{"id":12,"parent":1,"kind":"screen","screen":"a","attachment":{"type":"path","index":0}}"#, "model id #12 is not in 1..<nextModelID (9)"),
    ])
    func invalidSnapshotsAreRejectedWithATypedError(rest: String, reason: String) {
        let stackRoot = rest.contains(#""id":12"#) ? Self.stackRoot.replacingOccurrences(of: #""model":2"#, with: #""model":12"#) : Self.stackRoot
        #expect(Self.decode(Self.head + stackRoot + "," + rest + "]}") == .invalidSnapshot(reason))
    }

    @Test func aModelInTwoSlotsIsRejected() {
        let json = Self.head
            + #"{"id":1,"kind":"switched","screen":"s","attachment":{"type":"root"},"switchedModel":2,"presented":2},"#
            + #"{"id":2,"parent":1,"kind":"screen","screen":"a","attachment":{"type":"switched"}}]}"#
        #expect(Self.decode(json) == .invalidSnapshot("model #2 is attached in two places"))
    }

    @Test func anUnregisteredCustomPresentationIsRejectedOnRestore() throws {
        let window = try makeWindow(home, kinds: ["popover"])
        try window.execute(.present(.custom("popover", detail)))
        let error = navigationError { () throws(NavigationError) in _ = try NavigationWindow(snapshot: window.snapshot()) }
        #expect(error == .unknownPresentationKind("popover"))
    }
}
