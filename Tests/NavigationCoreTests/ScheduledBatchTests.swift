import Foundation
import Testing

@testable import NavigationCore

/// `schedule` / `cancelScheduled` in the window, running a scheduled batch, its lifecycle.
struct ScheduledBatchTests {
    static let home = ModelSpec.screen("home")

    /// A window whose wall clock reads 1 000 000 ms.
    static func window(_ root: ModelSpec = .stack([home, .screen("detail")])) throws -> NavigationWindow {
        let window = try makeWindow(root)
        window.wallClock = { 1_000_000 }
        return window
    }

    static func schedule(_ commands: [BatchCommand], id: String? = nil, afterMs: Int = 2000) -> NavigationCommand {
        .schedule(ScheduleSpec(id: id, afterMs: afterMs, commands: commands))
    }

    @Test func scheduleListsTheBatchWithItsAbsoluteDeadlineAndModel() throws {
        let window = try Self.window()
        let event = try window.execute(Self.schedule([BatchCommand(.stackDropLast)], id: "pop"))
        #expect(event.version == 1)
        #expect(window.scheduled == [
            ScheduledBatch(id: "pop", deadline: 1_002_000, model: 3, commands: [BatchCommand(.stackDropLast)]),
        ])
    }

    @Test func theJournaledCauseCarriesTheDeadline() throws {
        let window = try Self.window()
        let event = try window.execute(Self.schedule([BatchCommand(.stackDropLast)], id: "pop"))
        guard case .commands(let batch) = event.cause, case .schedule(let spec) = batch.first?.command else {
            Issue.record("not a schedule cause: \(event.cause)")
            return
        }
        #expect(spec.deadline == 1_002_000)
    }

    @Test func anIdIsAssignedWhenNoneIsGiven() throws {
        let window = try Self.window()
        try window.execute(Self.schedule([BatchCommand(.stackDropLast)]))
        try window.execute(Self.schedule([BatchCommand(.stackDropLast)]))
        #expect(window.scheduled.map(\.id) == ["s1", "s2"])
    }

    @Test func aDuplicateIdIsRefusedAndChangesNothing() throws {
        let window = try Self.window()
        try window.execute(Self.schedule([BatchCommand(.stackDropLast)], id: "pop"))
        expectRejected(window, .duplicateScheduled("pop")) { () throws(NavigationError) in
            try window.execute(Self.schedule([BatchCommand(.stackDropLast)], id: "pop"))
        }
    }

    @Test func aDelayOverTheBoundIsLimitsExceeded() throws {
        let window = try NavigationWindow(
            root: .stacked(Self.home), configuration: WindowConfiguration(limits: GraphLimits(maxScheduleDelayMs: 1000)))
        let error = navigationError { () throws(NavigationError) in
            try window.execute(Self.schedule([BatchCommand(.stackDropLast)], afterMs: 1001))
        }
        guard case .limitsExceeded = error else {
            Issue.record("expected limitsExceeded, got \(String(describing: error))")
            return
        }
        #expect(window.scheduled.isEmpty)
    }

    @Test func theNumberWaitingIsBounded() throws {
        let window = try NavigationWindow(
            root: .stacked(Self.home), configuration: WindowConfiguration(limits: GraphLimits(maxScheduled: 2)))
        try window.execute(Self.schedule([BatchCommand(.stackDropLast)]))
        try window.execute(Self.schedule([BatchCommand(.stackDropLast)]))
        let error = navigationError { () throws(NavigationError) in
            try window.execute(Self.schedule([BatchCommand(.stackDropLast)]))
        }
        guard case .limitsExceeded = error else {
            Issue.record("expected limitsExceeded, got \(String(describing: error))")
            return
        }
        #expect(window.scheduled.count == 2)
    }

    @Test func cancelScheduledRemovesItAsAChange() throws {
        let window = try Self.window()
        try window.execute(Self.schedule([BatchCommand(.stackDropLast)], id: "pop"))
        let event = try window.execute(.cancelScheduled("pop"))
        #expect(event.version == 2 && !event.isNoOp)
        #expect(window.scheduled.isEmpty)
    }

    @Test func cancellingAnUnknownIdFails() throws {
        let window = try Self.window()
        expectRejected(window, .unknownScheduled("nope")) { () throws(NavigationError) in
            try window.execute(.cancelScheduled("nope"))
        }
    }

    @Test func aFailedBatchTakesItsScheduleBack() throws {
        let window = try Self.window()
        expectRejected(window, .batchCommandFailed(index: 1, .noTabs(from: 3))) { () throws(NavigationError) in
            try window.apply([BatchCommand(Self.schedule([BatchCommand(.stackDropLast)], id: "pop")), BatchCommand(.tabsSelectItem("x"))])
        }
        #expect(window.nextScheduleNumber == 1)
    }

    @Test func runningABatchIsOneChangeFromTheSchedulingModel() throws {
        let window = try Self.window(.stack([Self.home, .screen("detail"), .screen("more")]))
        // Scheduled from the detail (model 3): its `dismiss` pops the stack down from it when it runs.
        try window.execute(Self.schedule([BatchCommand(.stackDropLast)], id: "pop"), from: 3)
        let event = try window.runScheduled("pop")
        #expect(event.cause == .scheduled(id: "pop", [BatchCommand(.stackDropLast)]))
        #expect(event.version == 2)
        #expect(event.finished == [4])
        #expect(window.scheduled.isEmpty)
    }

    @Test func aFailingBatchChangesNothingAndStaysListedUntilDropped() throws {
        let window = try Self.window(.stacked(Self.home))
        try window.execute(Self.schedule([BatchCommand(.dismiss)], id: "hide"))
        expectRejected(window, .nothingToDismiss(from: 2)) { () throws(NavigationError) in
            try window.runScheduled("hide")
        }
        #expect(window.dropScheduled("hide"))
        #expect(window.scheduled.isEmpty && window.version == 1)
    }

    @Test func aBatchGoesWithTheModelThatScheduledIt() throws {
        let window = try Self.window()
        try window.execute(Self.schedule([BatchCommand(.stackDropLast)], id: "pop"), from: 3)
        try window.execute(.stackDropLast)
        #expect(window.scheduled.isEmpty)
    }

    @Test func theContentCostCountsAWaitingBatch() throws {
        let window = try Self.window()
        let before = window.contentCost
        try window.execute(Self.schedule([BatchCommand(.stackDropLast)], id: "pop"))
        #expect(window.contentCost > before)
        try window.execute(.cancelScheduled("pop"))
        #expect(window.contentCost == before)
    }

    @Test func aSnapshotKeepsTheScheduledBatches() throws {
        let window = try Self.window()
        try window.execute(Self.schedule([BatchCommand(.stackDropLast)], id: "pop"))
        try window.execute(Self.schedule([BatchCommand(.stackDropLast)]))
        let json = try window.snapshot().json()
        let decoded = try JSONDecoder().decode(WindowSnapshot.self, from: Data(json))
        let restored = try NavigationWindow(snapshot: decoded)
        #expect(restored.scheduled == window.scheduled)
        #expect(restored.nextScheduleNumber == 2)
        #expect(restored.contentCost == window.contentCost)
    }

    @Test func aSnapshotNamingAnUnknownModelIsInvalid() throws {
        let window = try Self.window()
        let snapshot = window.snapshot()
        let error = navigationError { () throws(NavigationError) in
            _ = try WindowSnapshot(
                version: 0, nextModelID: snapshot.nextModelID, root: snapshot.root, models: snapshot.models,
                scheduled: [ScheduledBatch(id: "x", deadline: 0, model: 99, commands: [BatchCommand(.dismiss)])])
        }
        guard case .invalidSnapshot = error else {
            Issue.record("expected invalidSnapshot, got \(String(describing: error))")
            return
        }
    }

    @Test func aBatchAskingForSomethingInvalidIsRefusedWhenScheduled() throws {
        let window = try Self.window()
        expectRejected(window, .invalidCount(0)) { () throws(NavigationError) in
            try window.execute(Self.schedule([BatchCommand(.stackDropLast(0))], id: "pop"))
        }
    }

    @Test func aBatchThatCannotRunInTodaysStateIsStillScheduled() throws {
        let window = try Self.window(.stacked(Self.home))
        try window.execute(Self.schedule([BatchCommand(.dismiss)], id: "later"))
        #expect(window.scheduled.map(\.id) == ["later"])
        #expect(window.modelCount == 2)
    }

    @Test func aDialogActionThatSchedulesIsRefused() throws {
        let window = try Self.window()
        let action = DialogAction(
            id: "later", title: "Later", commands: [Self.schedule([BatchCommand(.stackDropLast)])])
        let error = navigationError { () throws(NavigationError) in
            try window.execute(.present(.alert(DialogContent(title: "Remind me?", actions: [action]))))
        }
        guard case .invalidSpec = error else {
            Issue.record("expected invalidSpec, got \(String(describing: error))")
            return
        }
        #expect(window.version == 0)
    }

    @Test func scheduleJSONRoundTripsAndRefusesNesting() throws {
        let json = #"{"command":"schedule","afterMs":2000,"id":"t","overdue":"drop","commands":[{"command":"dismiss","from":"tag:toast"}]}"#
        let command = try JSONDecoder().decode(NavigationCommand.self, from: Data(json.utf8))
        #expect(command == .schedule(ScheduleSpec(
            id: "t", afterMs: 2000, commands: [BatchCommand(.dismiss, from: .tag("toast"))], overdue: .drop)))
        let again = try JSONDecoder().decode(NavigationCommand.self, from: JSONEncoder().encode(command))
        #expect(again == command)
        let nested = #"{"command":"schedule","afterMs":1,"commands":[{"command":"schedule","afterMs":1,"commands":[{"command":"dismiss"}]}]}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(NavigationCommand.self, from: Data(nested.utf8)) }
        let unknownKey = #"{"command":"schedule","afterMs":1,"after":2,"commands":[{"command":"dismiss"}]}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(NavigationCommand.self, from: Data(unknownKey.utf8)) }
    }
}

/// Manifest message handlers run in the window, in the change that sends the message.
struct MessageHandlerTests {
    static func window(_ handlers: [String: [String: [NavigationCommand]]]) throws -> NavigationWindow {
        var configuration = WindowConfiguration()
        configuration.messageHandlers = handlers
        return try NavigationWindow(
            root: .stack([.screen("home"), .screen("detail")]), configuration: configuration)
    }

    @Test func anUnhandledMessageBubblesToTheNearestHandler() throws {
        // The stack (screen "stack", model 1) handles "saved" sent to the detail (model 3).
        let window = try Self.window(["stack": ["saved": [.stackAppend([StackElementSpec(.screen("toast"))])]]])
        let event = try window.execute(.sendMessage(NavigationMessage("saved"), to: .current))
        #expect(event.version == 1)
        #expect(screens(of: 1, in: window) == ["home", "detail", "toast"])
        #expect(event.messages.first?.recipient == 3)
    }

    @Test func theRecipientsOwnHandlerComesFirst() throws {
        let window = try Self.window([
            "detail": ["saved": [.stackDropLast(1)]],
            "stack": ["saved": [.stackAppend([StackElementSpec(.screen("toast"))])]],
        ])
        try window.execute(.sendMessage(NavigationMessage("saved"), to: .current))
        #expect(screens(of: 1, in: window) == ["home"])
    }

    @Test func aHandlerThatFailsFailsTheWholeChange() throws {
        let window = try Self.window(["stack": ["saved": [.tabsSelectItem("x")]]])
        expectRejected(window, .noTabs(from: 1)) { () throws(NavigationError) in
            try window.execute(.sendMessage(NavigationMessage("saved"), to: .current))
        }
    }

    @Test func aHandlerSendingItsMessageBackIsACycle() throws {
        let window = try Self.window(["stack": ["ping": [.sendMessage(NavigationMessage("ping"), to: .current)]]])
        expectRejected(window, .handlerCycle(message: "ping", model: 1)) { () throws(NavigationError) in
            try window.execute(.sendMessage(NavigationMessage("ping"), to: .current))
        }
    }

    @Test func handlersNestAtMostEightDeep() throws {
        // m0 → m1 → … each handled by the stack and sending the next: depth 9 is refused.
        var byMessage: [String: [NavigationCommand]] = [:]
        for level in 0..<12 { byMessage["m\(level)"] = [.sendMessage(NavigationMessage("m\(level + 1)"), to: .current)] }
        let window = try Self.window(["stack": byMessage])
        expectRejected(window, .handlerDepthExceeded(message: "m8", depth: 8)) { () throws(NavigationError) in
            try window.execute(.sendMessage(NavigationMessage("m0"), to: .current))
        }
    }

    @Test func withoutHandlersAMessageOnlyGoesToItsRecipient() throws {
        let window = try Self.window([:])
        let event = try window.execute(.sendMessage(NavigationMessage("saved"), to: .current))
        #expect(event.started.isEmpty && event.messages.count == 1)
    }
}
