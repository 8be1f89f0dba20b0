import Foundation
import Testing

@testable import NavigationCore

/// Application-chosen tags: unique per window, indexed, undoable, persisted, and usable wherever a model goes.
struct TagTests {
    @Test func aTaggedSpecIsFoundByItsTag() throws {
        let window = try makeWindow(.stacked(home.tagged("root")))
        try window.execute(.stackAppend(.screen("detail", tag: "inbox")))
        #expect(window.model(forTag: "inbox") == 3)
        #expect(window.model(forTag: "root") == 2)
        #expect(window.tag(of: 3) == "inbox")
        #expect(window.model(3)?.tag == "inbox")
    }

    @Test func everyKindOfSpecMayCarryATag() throws {
        let window = try makeWindow(
            ModelSpec.switched(
                ModelSpec.tabs([TabSpec(id: "a", title: "A", model: ModelSpec.stacked(home).tagged("stack"))]).tagged("tabs")
            ).tagged("switched"))
        try window.execute(.present(.sheet(ModelSpec.custom("panes", children: [detail]).tagged("custom"))))
        for tag in ["switched", "tabs", "stack", "custom"] { #expect(window.model(forTag: tag) != nil, "\(tag)") }
    }

    @Test func aDuplicateTagIsRefusedNamingTheModelThatCarriesIt() throws {
        let window = try makeWindow(.stacked(home.tagged("inbox")))
        expectRejected(window, .duplicateTag("inbox", existing: 2)) { () throws(NavigationError) in
            try window.execute(.stackAppend(.screen("detail", tag: "inbox")))
        }
        #expect(window.model(forTag: "inbox") == 2)
    }

    @Test func twoModelsOfOneSpecCannotShareATag() throws {
        let window = try makeWindow(.stacked(home))
        expectRejected(window, .duplicateTag("x", existing: 4)) { () throws(NavigationError) in
            try window.execute(.present(.sheet(.stack([.screen("a", tag: "x"), .screen("b", tag: "x")]))))
        }
        #expect(window.model(forTag: "x") == nil)
    }

    @Test func anEmptyTagIsRefused() throws {
        let window = try makeWindow(.stacked(home))
        expectRejected(window, .invalidSpec("a tag is empty")) { () throws(NavigationError) in
            try window.execute(.stackAppend(.screen("detail", tag: "")))
        }
    }

    @Test func aTagLongerThanTheLimitIsRefused() throws {
        let window = try makeWindow(.stacked(home))
        let tag = String(repeating: "t", count: GraphLimits.maxTagBytes + 1)
        let error = navigationError { () throws(NavigationError) in try window.execute(.stackAppend(.screen("d", tag: tag))) }
        guard case .limitsExceeded = error else { Issue.record("\(String(describing: error))"); return }
        #expect(window.version == 0)
    }

    @Test func theTagOfARemovedModelIsFreed() throws {
        let window = try makeWindow(.stacked(home))
        try window.execute(.stackAppend(.screen("detail", tag: "inbox")))
        try window.execute(.stackDropLast)
        #expect(window.model(forTag: "inbox") == nil)
        try window.execute(.stackAppend(.screen("detail", tag: "inbox")))
        #expect(window.model(forTag: "inbox") == 4)
    }

    @Test func aModelReplacedInTheSameChangePassesItsTagOn() throws {
        let window = try makeWindow(.switched(.screen("login", tag: "current")))
        try window.execute(.switchModel(.screen("main", tag: "current")))
        #expect(window.model(forTag: "current") == 3)
        #expect(window.model(3)?.screen == "main")
    }

    @Test func aFailedBatchGivesBackTheTagsItTook() throws {
        let window = try makeWindow(.switched(.screen("login", tag: "current")))
        let error = navigationError { () throws(NavigationError) in
            try window.apply([BatchCommand(.switchModel(.screen("main", tag: "current"))), BatchCommand(.stackDropLast)])
        }
        #expect(error != nil)
        #expect(window.model(forTag: "current") == 2)
        try window.execute(.switchModel(.screen("other", tag: "next")))
        #expect(window.model(forTag: "current") == nil)
        #expect(window.model(forTag: "next") == 3)
    }

    @Test func aFromTagRunsTheEntryFromTheTaggedModel() throws {
        let window = try makeWindow(.stacked(home.tagged("base")))
        try window.execute(.present(.sheet(.stacked(.screen("editor")))))
        try window.apply([BatchCommand(.stackAppend(detail), from: .tag("base"))])
        #expect(screens(of: 1, in: window) == ["home", "detail"])
    }

    @Test func anUnknownTagReferenceIsRefusedNamingTheTag() throws {
        let window = try makeWindow(.stacked(home))
        expectRejected(window, .unknownTag("nope")) { () throws(NavigationError) in
            try window.apply([BatchCommand(.stackAppend(detail), from: .tag("nope"))])
        }
    }

    @Test func aMessageCanBeSentToATaggedModel() throws {
        let window = try makeWindow(.stacked(home.tagged("base")))
        var received: [String] = []
        _ = try window.onMessage(2) { received.append($0.message.name) }
        try window.execute(.sendMessage(NavigationMessage("ping"), to: .model(.tag("base"))))
        #expect(received == ["ping"])
    }

    @Test func stackSetPathKeepsATaggedElement() throws {
        let window = try makeWindow(.stack([home, .screen("detail", tag: "d")]))
        let event = try window.execute(.stackSetPath([.existing(.tag("d")), .existing(2)]))
        #expect(screens(of: 1, in: window) == ["detail", "home"])
        #expect(event.finished.isEmpty && event.started.isEmpty)
    }

    @Test func theActiveTagIsTheNearestTaggedAncestorOrSelf() throws {
        let window = try makeWindow(ModelSpec.stacked(home).tagged("nv1"))
        #expect(window.activeTag == "nv1")
        try window.execute(.stackAppend(.screen("detail", tag: "d")))
        #expect(window.activeTag == "d")
        try window.execute(.present(.sheet(.screen("editor"))))
        #expect(window.activeTag == "nv1")   // the sheet's presenter is the tagged stack

    }

    @Test func theActiveTagIsNilWhenNothingOnTheBranchIsTagged() throws {
        let window = try makeWindow(.stacked(home))
        #expect(window.activeTag == nil)
    }

    @Test func tagsSurviveASnapshotRoundTrip() throws {
        let window = try makeWindow(.stacked(home.tagged("base")))
        try window.execute(.stackAppend(.screen("detail", tag: "inbox")))
        let restored = try NavigationWindow(snapshot: try roundTrip(window.snapshot()))
        #expect(restored.model(forTag: "inbox") == 3)
        #expect(restored.model(forTag: "base") == 2)
        #expect(restored.snapshot() == window.snapshot())
    }

    @Test func aSnapshotWithADuplicateTagIsInvalid() throws {
        let models = [
            ModelState(id: 1, parent: nil, attachment: .root, screen: "stack",
                       content: .stack(path: [StackElement(model: 2), StackElement(model: 3)], hidesTabBarWhenNotAtRoot: false)),
            ModelState(id: 2, parent: 1, attachment: .path(index: 0), screen: "a", content: .screen, tag: "t"),
            ModelState(id: 3, parent: 1, attachment: .path(index: 1), screen: "b", content: .screen, tag: "t"),
        ]
        #expect(throws: NavigationError.invalidSnapshot("models #2 and #3 both carry tag \"t\"")) {
            try WindowSnapshot(version: 0, nextModelID: 4, root: 1, models: models)
        }
    }

    @Test func setStateKeepsTheStatesTags() throws {
        let window = try makeWindow(.stacked(home.tagged("base")))
        let state = window.snapshot()
        try window.setState(state)
        #expect(window.model(forTag: "base") == 4)
    }

    @Test func theDebugTreeShowsTags() throws {
        let window = try makeWindow(.stacked(home.tagged("base")))
        try window.execute(.stackAppend(.screen("detail", params: ["id": "1"], tag: "in \"box\"")))
        #expect(
            window.debugTree() == """
                stack stack #1 (root)
                  screen home #2 (path[0]) tag:"base"
                  screen detail #3 (path[1]) tag:"in \\"box\\"" {"id":"1"}

                """)
    }

    @Test func aSpecTagRoundTripsThroughJSON() throws {
        let spec = try JSONDecoder().decode(ModelSpec.self, from: Data(#"{"screen":"detail","tag":"inbox"}"#.utf8))
        #expect(spec == .screen("detail", tag: "inbox"))
        #expect(try roundTrip(spec) == spec)
    }

    @Test func aModelReferenceIsAnIdOrATagString() throws {
        let decoder = JSONDecoder()
        #expect(try decoder.decode(ModelReference.self, from: Data("12".utf8)) == .id(12))
        #expect(try decoder.decode(ModelReference.self, from: Data(#""tag:inbox""#.utf8)) == .tag("inbox"))
        #expect(throws: DecodingError.self) { try decoder.decode(ModelReference.self, from: Data(#""inbox""#.utf8)) }
        #expect(try jsonText(ModelReference.tag("inbox")) == #""tag:inbox""#)
    }

    @Test func aBatchEntryFromATagRoundTripsThroughJSON() throws {
        let entry = try JSONDecoder().decode(BatchCommand.self, from: Data(#"{"command":"dismiss","from":"tag:sheet"}"#.utf8))
        #expect(entry == BatchCommand(.dismiss, from: .tag("sheet")))
        #expect(try roundTrip(entry) == entry)
        #expect(BatchCommand(.dismiss, from: ModelID(rawValue: 7)).from == .id(7))
    }
}
