import Foundation
import Testing

@testable import NavigationCore

/// The split container: columns, push rules, column visibility and the collapsed form.
struct SplitTests {
    /// Split 1 with the stacks sidebar (2, folders 3), content (4, messages 5) and detail (6, message 7);
    /// the content column is focused.
    static func mail(selected: Int = 1) throws -> NavigationWindow {
        try makeWindow(
            .custom(
                "split",
                children: [
                    .stacked(.screen("folders")), .stacked(.screen("messages")), .stacked(.screen("message")),
                ], selected: selected))
    }

    @Test func aSplitTakesTwoOrThreeColumns() throws {
        #expect(throws: NavigationError.self) { try makeWindow(.custom("split", children: [.stacked(home)])) }
        #expect(throws: NavigationError.self) {
            try makeWindow(.custom("split", children: [home, home, home, home]))
        }
        _ = try makeWindow(.custom("split", children: [.stacked(home), home]))
    }

    @Test func aColumnIsAStackOrAScreen() throws {
        #expect(throws: NavigationError.self) {
            try makeWindow(.custom("split", children: [home, .tabs([TabSpec(id: "a", title: "A", model: home)])]))
        }
    }

    @Test func aPushFromTheSidebarReplacesTheContentColumnAndFocusesIt() throws {
        let window = try Self.mail(selected: 0)
        let event = try window.execute(.stackAppend(.screen("messages", params: ["folder": "sent"])))
        #expect(screens(of: 4, in: window) == ["messages"])
        #expect(window.model(8)?.params == ["folder": "sent"])
        #expect(window.activeModelID == 8)
        #expect(event.finished == [5])
        #expect(event.started == [8])
        #expect(event.steps == [
            .replacePath(stack: 4, from: [5], to: [8]), .selectChild(container: 1, child: 4, previous: 2),
        ])
    }

    @Test func aPushFromTheContentColumnReplacesTheDetailColumn() throws {
        let window = try Self.mail()
        try window.execute(.stackAppend(.screen("message", params: ["id": "42"])))
        #expect(window.model(6)?.path?.map(\.model) == [8])
        #expect(window.activeModelID == 8)
        #expect(window.model(7) == nil)
    }

    @Test func aPushWithinTheDetailColumnPushesOntoIt() throws {
        let window = try Self.mail(selected: 2)
        try window.execute(.stackAppend(.screen("attachment")))
        #expect(screens(of: 6, in: window) == ["message", "attachment"])
        #expect(window.routes == [.push("attachment")])
    }

    @Test func withTwoColumnsAPushFromTheSidebarReplacesTheDetail() throws {
        let window = try makeWindow(.custom("split", children: [.stacked(.screen("folders")), .stacked(.screen("message"))], selected: 0))
        try window.execute(.stackAppend(.screen("message", params: ["id": "1"])))
        #expect(window.model(4)?.path?.map(\.model) == [6])
        #expect(window.activeModelID == 6)
    }

    @Test func aPushIntoAScreenColumnIsRefused() throws {
        let window = try makeWindow(.custom("split", children: [.stacked(.screen("folders")), .screen("message")], selected: 0))
        expectRejected(window, .wrongKind(4, expected: "stack (column 1 of split #1 takes the push)")) { () throws(NavigationError) in
            try window.execute(.stackAppend(.screen("message")))
        }
    }

    @Test func columnVisibilityChangesWithAStep() throws {
        let window = try Self.mail()
        #expect(window.model(1)?.splitState == SplitState(visibility: .automatic, collapsed: false))
        let event = try window.execute(.setColumnVisibility(container: nil, visibility: .detailOnly))
        #expect(event.steps == [.columnVisibility(container: 1, visibility: .detailOnly, previous: .automatic)])
        #expect(window.model(1)?.splitState?.visibility == .detailOnly)
        #expect(try window.execute(.setColumnVisibility(container: 1, visibility: .detailOnly)).isNoOp)
    }

    @Test func columnVisibilityOfACustomContainerThatIsNoSplitIsTheWrongKind() throws {
        let window = try makeWindow(.custom("segments", children: [.stacked(home)]))
        expectRejected(window, .wrongKind(1, expected: "split container")) { () throws(NavigationError) in
            try window.execute(.setColumnVisibility(container: 1, visibility: .all))
        }
    }

    @Test func theCollapsedReportRecordsACollapseStep() throws {
        let window = try Self.mail()
        let event = try window.report(.collapsed(split: 1, collapsed: true))
        #expect(event.steps == [.collapse(container: 1)])
        #expect(window.model(1)?.splitState?.collapsed == true)
        #expect(try window.report(.collapsed(split: 1, collapsed: false)).steps == [.expand(container: 1)])
    }

    @Test func collapsedTheColumnsUpToTheFocusedOneAreOneStack() throws {
        let window = try Self.mail(selected: 2)
        try window.execute(.stackAppend(.screen("attachment")))
        #expect(window.routes == [.push("attachment")])
        #expect(!window.abilities.canPop || window.abilities.canGoBack)
        try window.report(.collapsed(split: 1, collapsed: true))
        #expect(window.routes == [.push("messages"), .push("message"), .push("attachment")])
        try window.execute(.goBack)
        #expect(window.routes == [.push("messages"), .push("message")])
        try window.execute(.goBack)
        #expect(window.activeModelID == 5)
        #expect(window.routes == [.push("messages")])
        #expect(window.abilities.canGoBack)
        try window.execute(.goBack)
        #expect(window.activeModelID == 3)
        #expect(window.routes.isEmpty)
        #expect(!window.abilities.canGoBack)
    }

    @Test func collapsedGoBackToAnEarlierColumnsRouteFocusesThatColumn() throws {
        let window = try Self.mail(selected: 2)
        try window.execute(.stackAppend(.screen("attachment")))
        try window.report(.collapsed(split: 1, collapsed: true))
        try window.execute(.goBackTo(.screen("messages")))
        #expect(window.activeModelID == 5)
        #expect(window.routes == [.push("messages")])
        #expect(screens(of: 6, in: window) == ["message"])
    }

    @Test func collapsedGoBackToAnIndexOfTheRouteViewMatchesGetRoutes() throws {
        let window = try Self.mail(selected: 2)
        try window.report(.collapsed(split: 1, collapsed: true))
        #expect(window.routes == [.push("messages"), .push("message")])
        try window.execute(.goBackTo(.index(0)))
        #expect(window.routes == [.push("messages")])
    }

    @Test func collapsedGoBackToRootFocusesTheFirstColumn() throws {
        let window = try Self.mail(selected: 2)
        try window.execute(.stackAppend(.screen("attachment")))
        try window.report(.collapsed(split: 1, collapsed: true))
        try window.execute(.goBackToRoot)
        #expect(window.activeModelID == 3)
        #expect(window.routes.isEmpty)
        #expect(screens(of: 6, in: window) == ["message"])
    }

    @Test func expandedAColumnsRootHasNothingToGoBackTo() throws {
        let window = try Self.mail(selected: 2)
        #expect(!window.abilities.canGoBack)
        expectRejected(window, .nothingToGoBack(from: 7)) { () throws(NavigationError) in try window.execute(.goBack) }
    }

    @Test func setRoutesAcrossACollapsedSplitIsRefused() throws {
        let window = try Self.mail()
        try window.report(.collapsed(split: 1, collapsed: true))
        expectRejected(window, .wrongKind(1, expected: "split that is expanded or focused on its first column (setRoutes)")) {
            () throws(NavigationError) in
            try window.execute(.setRoutes([]))
        }
    }

    @Test func visibilityAndCollapsedSurviveASnapshotRoundTrip() throws {
        let window = try Self.mail()
        try window.execute(.setColumnVisibility(container: 1, visibility: .doubleColumn))
        try window.report(.collapsed(split: 1, collapsed: true))
        let restored = try NavigationWindow(snapshot: try roundTrip(window.snapshot()))
        #expect(restored.model(1)?.splitState == SplitState(visibility: .doubleColumn, collapsed: true))
        #expect(restored.routes == window.routes)
    }

    @Test func theSpecsColumnVisibilityIsKept() throws {
        var spec = ModelSpec.custom("split", children: [.stacked(home), .stacked(detail)])
        spec.columnVisibility = .all
        let window = try makeWindow(spec)
        #expect(window.model(1)?.splitState?.visibility == .all)
        #expect(try roundTrip(spec) == spec)
        var notSplit = ModelSpec.custom("segments", children: [home])
        notSplit.columnVisibility = .all
        #expect(throws: NavigationError.self) { try makeWindow(notSplit) }
    }

    @Test func theCommandsAndReportDecode() throws {
        let command = try JSONDecoder().decode(
            NavigationCommand.self, from: Data(#"{"command":"setColumnVisibility","visibility":"doubleColumn"}"#.utf8))
        #expect(command == .setColumnVisibility(container: nil, visibility: .doubleColumn))
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(NavigationCommand.self, from: Data(#"{"command":"setColumnVisibility","visibility":"some"}"#.utf8))
        }
        let report = try JSONDecoder().decode(RendererReport.self, from: Data(#"{"report":"collapsed","split":1,"collapsed":true}"#.utf8))
        #expect(report == .collapsed(split: 1, collapsed: true))
        #expect(try roundTrip(report) == report)
        #expect(NavigationStep.collapse(container: 1).json == #"{"kind":"collapse","container":1}"#)
        #expect(
            NavigationStep.columnVisibility(container: 1, visibility: .all, previous: .automatic).json
                == #"{"kind":"columnVisibility","container":1,"visibility":"all","previous":"automatic"}"#)
    }
}
