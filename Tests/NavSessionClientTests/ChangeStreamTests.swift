import DBusKit
import NavSessionClient
import NavSessionTesting
import NavigationCore
import Testing

/// `changes(of:)`: in order, resynchronised after a gap, and finished when the window or the daemon goes.
@Suite(.timeLimit(.minutes(2)))
struct ChangeStreamTests {
    @Test func changesArriveInOrderAfterTheInitialState() async throws {
        try await NavSessionTestDaemon.withDaemon { daemon in
            let window = try await daemon.session.openWindow(scene: "main")
            let changes = try await daemon.client.changes(of: window)
            let start = try #require(changes.initialSnapshot).version
            try await window.switchModel("main")
            try await window.stackAppend("detail", params: ["id": "1"])
            try await window.apply([BatchCommand(.present(.sheet(.screen("about"))), animated: false)])
            var seen: [WindowChange.Changed] = []
            for try await change in changes {
                guard case .changed(let event) = change else {
                    Issue.record("unexpected \(change)")
                    break
                }
                seen.append(event)
                if seen.count == 3 { break }
            }
            #expect(seen.map(\.version) == [1, 2, 3].map { UInt64(start + $0) })
            #expect(seen.map(\.previousVersion) == [0, 1, 2].map { UInt64(start + $0) })
            #expect(seen[1].causeJSON.contains("stackAppend"))
            #expect(seen[1].started.count == 1)
            #expect(seen[2].animated == false)
            guard case .commands(let batch) = seen[2].cause else {
                Issue.record("the cause does not decode: \(seen[2].causeJSON)")
                return
            }
            #expect(batch.first?.command.name == "present")
        }
    }

    @Test func aConsumerThatFallsBehindGetsOneResynchronisation() async throws {
        try await NavSessionTestDaemon.withDaemon { daemon in
            let window = try await daemon.session.openWindow(scene: "main")
            try await window.switchModel("main")
            // A buffer of one change: the consumer reads nothing while three changes happen.
            let changes = try await daemon.client.changes(of: window, buffering: 1)
            try await window.stackAppend("detail", params: ["id": "1"])
            try await window.stackAppend("profile")
            let last = try await window.stackAppend("about")
            // A second client changes the window too; the first still sees one consistent picture.
            let other = try await daemon.connectClient()
            let final = try await other.window(window.path).stackDropLast()
            await other.close()
            var iterator = changes.makeAsyncIterator()
            let first = try await iterator.next()
            guard case .resynchronized(let snapshot) = first else {
                Issue.record("expected a resynchronisation, got \(String(describing: first))")
                return
            }
            // The resync read the state after every change so far (the other client's included).
            #expect(last < final)
            #expect(UInt64(snapshot.version) == final)
            #expect(snapshot == (try await window.getState()))
            try await window.stackDropLast()
            // After the resynchronisation, changes continue from the snapshot's version.
            let next = try await iterator.next()
            guard case .changed(let event) = next else {
                Issue.record("expected a change, got \(String(describing: next))")
                return
            }
            #expect(event.version == final + 1)
            #expect(event.previousVersion == final)
        }
    }

    @Test func theStreamEndsWhenTheWindowIsDismissed() async throws {
        try await NavSessionTestDaemon.withDaemon { daemon in
            let window = try await daemon.session.openWindow(scene: "waiting")
            let changes = try await daemon.client.changes(of: window)
            try await daemon.session.dismissWindow(window)
            var elements: [WindowChange] = []
            for try await change in changes { elements.append(change) }
            #expect(changes.endReason == .windowRemoved)
            // Closing first finishes the window's models: one last Changed.
            #expect(elements.count == 1, "\(elements)")
            let gone = try await daemon.client.changes(of: window)
            #expect(gone.initialSnapshot == nil)
            for try await change in gone { Issue.record("a closed window changed: \(change)") }
            #expect(gone.endReason == .windowRemoved)
        }
    }

    @Test func theStreamEndsWhenTheDaemonLeaves() async throws {
        try await NavSessionTestDaemon.withDaemon { daemon in
            let window = try await daemon.session.openWindow(scene: "waiting")
            let changes = try await daemon.client.changes(of: window)
            try await daemon.stopDaemon()
            for try await _ in changes {}
            #expect(changes.endReason == .daemonLeft)
        }
    }

    @Test func sessionSignalsCarryEverySignalUntilTheDaemonLeaves() async throws {
        try await NavSessionTestDaemon.withDaemon { daemon in
            let signals = try await daemon.client.sessionSignals()
            #expect(signals.daemonUniqueName == (try await daemon.client.daemonUniqueName()))
            let window = try await daemon.session.openWindow(scene: "waiting")
            try await window.sendMessage("ping")
            try await daemon.stopDaemon()
            var members: [String] = []
            for await signal in signals { members.append(signal.member.rawValue) }
            #expect(signals.endReason == .daemonLeft)
            #expect(members.contains("InterfacesAdded"), "\(members)")
            #expect(members.contains("Message"), "\(members)")
        }
    }
}
