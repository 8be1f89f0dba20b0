import Testing

@testable import NavigationCore

struct LifecycleTests {
    @Test func removingASubtreeFinishesItInPreOrderPresentedChildFirst() throws {
        // switched #1 → tabs #2 (presents sheet #3 → alert #4) with tabs a: stack #5 [x #6, y #7], b: z #8
        let main = ModelSpec.tabs([
            TabSpec(id: "a", title: "A", model: .stack([.screen("x"), .screen("y")])),
            TabSpec(id: "b", title: "B", model: .screen("z")),
        ]).presenting(.sheet(.screen("sheet").presenting(.alert(DialogContent(title: "!")))))
        let window = try makeWindow(.switched(main))
        #expect(window.model(2)?.presented == 3)
        var order: [ModelID] = []
        for id in 2...8 { try window.onMessage(ModelID(rawValue: id)) { if $0.message == .finished { order.append($0.recipient) } } }
        let event = try window.execute(.switchModel(.screen("login")), from: 1)
        #expect(event.finished == [2, 3, 4, 5, 6, 7, 8])
        #expect(order == event.finished)
        #expect(event.messages.map(\.recipient) == event.finished)
    }

    @Test func listenersRunInRegistrationOrder() throws {
        let window = try makeWindow(home)
        var calls: [String] = []
        try window.onMessage(1) { _ in calls.append("first") }
        try window.onMessage(1) { _ in calls.append("second") }
        try window.sendMessage(NavigationMessage("ping"), to: 1)
        #expect(calls == ["first", "second"])
    }

    @Test func sendMessageDoesNotBumpTheVersionButIsObservable() throws {
        let window = try makeWindow(home)
        let delivery = try window.sendMessage(NavigationMessage("ping", payload: "1"), to: 1, from: nil)
        #expect(window.version == 0)
        #expect(window.drainMessages() == [delivery])
    }

    @Test func sendMessageToAnUnknownModelFails() throws {
        let window = try makeWindow(home)
        let error = navigationError { () throws(NavigationError) in _ = try window.sendMessage(NavigationMessage("x"), to: 9) }
        #expect(error == .unknownModel(9))
    }

    @Test func removedListenerIsNotCalled() throws {
        let window = try makeWindow(home)
        var count = 0
        let token = try window.onMessage(1) { _ in count += 1 }
        window.removeListener(token)
        try window.sendMessage(NavigationMessage("x"), to: 1)
        #expect(count == 0)
    }

    @Test func aModelIsFinishedOnlyOnce() throws {
        let window = try makeWindow(.stack([home, detail]))
        let first = try window.execute(.stackDropLast)
        try window.execute(.stackAppend(detail))
        let second = try window.execute(.stackDropLast)
        #expect(first.finished == [3] && second.finished == [4])
    }

    @Test func aModelCreatedAndRemovedInOneBatchNeverStartsNorFinishes() throws {
        let window = try makeWindow(.stacked(home))
        let event = try window.apply([BatchCommand(.stackAppend(detail)), BatchCommand(.stackDropLast)])
        #expect(event.started.isEmpty && event.finished.isEmpty)
        #expect(!window.contains(3))
    }

    @Test func theRootIsNeverFinished() throws {
        let window = try makeWindow(.switched(home))
        let event = try window.execute(.switchModel(detail))
        #expect(event.finished == [2] && window.contains(1))
    }

    @Test func sendMessageCommandReachesThePresenterOfADialog() throws {
        let window = try makeWindow(.stacked(home))
        try window.execute(.present(.sheet(.screen("editor"))), from: 1)
        var got: [DeliveredMessage] = []
        try window.onMessage(1) { got.append($0) }
        let event = try window.execute(.sendMessage(NavigationMessage("saved", payload: "doc-7"), to: .presenter), from: 3)
        #expect(got == [DeliveredMessage(recipient: 1, sender: 3, message: NavigationMessage("saved", payload: "doc-7"))])
        #expect(event.messages == got)
    }

    @Test func listenersOfFinishedModelsAreDropped() throws {
        let window = try makeWindow(.stack([home, detail]))
        try window.onMessage(3) { _ in }
        try window.execute(.stackDropLast)
        #expect(window.listeners[3] == nil)
    }

    @Test func changeHandlerSeesEveryChangeInVersionOrder() throws {
        let window = try makeWindow(.stacked(home))
        var versions: [Int] = []
        window.changeHandler = { versions.append($0.version) }
        try window.execute(.stackAppend(detail))
        try window.onMessage(3) { [unowned window] message in
            if message.message == .finished { _ = try? window.execute(.stackAppend(.screen("again")), from: 1) }
        }
        try window.execute(.stackDropLast)
        #expect(versions == [1, 2, 3])
        #expect(screens(of: 1, in: window) == ["home", "again"])
    }
}
