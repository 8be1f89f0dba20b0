import Foundation
import NavigationCore
import Testing

@testable import NavigationSession

/// `UndoLabel`: "Undo <verb> <the screen's title>", the title as declared (its name without one), a space the
/// title leaves at the end dropped.
struct UndoLabelTests {
    static let push = #"[{"command":"stackAppend","models":[{"screen":"detail","params":{"id":"1"}}]}]"#
    static let pop = #"[{"command":"stackDropLast"}]"#

    /// The demo with the `detail` screen's title replaced (`nil`: no title).
    static func session(detailTitle: String?) throws -> Session {
        let declared = #"{"name": "detail", "title": "Detail","#
        let replacement = detailTitle.map { #"{"name": "detail", "title": "\#($0)","# } ?? #"{"name": "detail","#
        let text = Manifest.demoJSON.replacingOccurrences(of: declared, with: replacement)
        try #require(text != Manifest.demoJSON || detailTitle == "Detail")
        return try Session(manifest: Manifest(json: text))
    }

    static func labels(detailTitle: String?) throws -> (afterPush: String, afterPop: String) {
        let session = try session(detailTitle: detailTitle)
        let number = try loggedInMain(session)
        try session.apply(window: number, batchJSON: push)
        let afterPush = session.undoLabel(of: try session.window(number))
        try session.apply(window: number, batchJSON: pop)
        return (afterPush, session.undoLabel(of: try session.window(number)))
    }

    @Test func theLabelNamesTheVerbAndTheDeclaredTitle() throws {
        let labels = try Self.labels(detailTitle: "Detail")
        #expect(labels.afterPush == "Undo open Detail")
        #expect(labels.afterPop == "Undo close Detail")
    }

    @Test func aScreenWithoutATitleIsNamedByItsName() throws {
        #expect(try Self.labels(detailTitle: nil).afterPush == "Undo open detail")
    }

    @Test func anEmptyTitleLeavesNoSpaceAndATrailingSpaceGoes() throws {
        #expect(try Self.labels(detailTitle: "").afterPush == "Undo open")
        #expect(try Self.labels(detailTitle: "Détail ").afterPush == "Undo open Détail")
        #expect(try Self.labels(detailTitle: "Two  ").afterPush == "Undo open Two ")
    }
}
