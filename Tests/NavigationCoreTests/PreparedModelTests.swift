import Foundation
import Testing

@testable import NavigationCore

/// Prepared models: made ahead off the visible branch, shown later under the id they were given.
struct PreparedModelTests {
    func window() throws -> NavigationWindow { try NavigationWindow(root: .stacked(.screen("home"))) }

    @Test func aPushOfThePreparedScreenShowsItUnderItsId() throws {
        let window = try window()
        try window.execute(.prepare(.screen("detail", params: ["id": "42"])))
        let id = try #require(window.prepared.first?.id)
        #expect(window.model(id) == nil, "not in the graph until shown")
        #expect(window.abilities.canGoBack == false)
        let event = try window.execute(.stackAppend(.screen("detail", params: ["id": "42"])))
        #expect(event.started == [id])
        #expect(window.activeModelID == id)
        #expect(window.prepared.isEmpty)
    }

    @Test func otherParamsGetAFreshIdAndThePreparedOneStays() throws {
        let window = try window()
        try window.execute(.prepare(.screen("detail", params: ["id": "42"])))
        let id = try #require(window.prepared.first?.id)
        try window.execute(.stackAppend(.screen("detail", params: ["id": "7"])))
        #expect(window.activeModelID != id)
        #expect(window.prepared.map(\.id) == [id])
    }

    @Test func preparingTheSameAgainIsNoChangeAndTheListIsBounded() throws {
        let window = try window()
        try window.execute(.prepare(.screen("detail", params: ["id": "0"])))
        let version = window.version
        let again = try window.execute(.prepare(.screen("detail", params: ["id": "0"])))
        #expect(again.isNoOp && window.version == version)
        for index in 1...NavigationWindow.maxPrepared { try window.execute(.prepare(.screen("detail", params: ["id": "\(index)"]))) }
        #expect(window.prepared.count == NavigationWindow.maxPrepared)
        #expect(window.prepared.first?.params == ["id": "1"], "the oldest went")
    }

    @Test func aPreparedModelExpiresAfterItsLifetime() throws {
        let window = try window()
        try window.execute(.prepare(.screen("detail")))
        for _ in 0..<(NavigationWindow.preparedLifetime / 2) {
            try window.execute(.stackAppend(.screen("other")))
            try window.execute(.stackDropLast(1))
        }
        #expect(window.prepared.isEmpty)
    }

    @Test func aFailedChangeGivesThePreparedModelBack() throws {
        let window = try window()
        try window.execute(.prepare(.screen("detail")))
        let id = try #require(window.prepared.first?.id)
        #expect(throws: NavigationError.self) {
            try window.apply([BatchCommand(.stackAppend(.screen("detail"))), BatchCommand(.tabsSelectItem("nowhere"))])
        }
        #expect(window.prepared.map(\.id) == [id])
    }

    @Test func onlyAPlainScreenIsPrepared() throws {
        let window = try window()
        #expect(throws: NavigationError.self) { try window.execute(.prepare(.stacked(.screen("detail")))) }
    }

    @Test func theSnapshotKeepsThePreparedModels() throws {
        let window = try window()
        try window.execute(.prepare(.screen("detail", params: ["id": "42"])))
        let data = try JSONEncoder().encode(window.snapshot())
        let restored = try NavigationWindow(snapshot: JSONDecoder().decode(WindowSnapshot.self, from: data))
        #expect(restored.prepared == window.prepared)
        // The direct writer writes them as the encoder does.
        #expect(try window.snapshot().json() == JSONOutput.encode(window.snapshot()))
    }
}
