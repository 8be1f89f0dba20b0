import Foundation
import Logging
import NavigationCore
import Testing

@testable import NavigationSession

/// A saved state naming a window number near the top of the range no longer leaves
/// the session without numbers; it is set aside as corrupt, and the log says why.
@Suite struct WindowNumberingTests {
    /// A state directory whose journal opened three `waiting` windows, the third renumbered `number`.
    func journal(openingThirdWindowAs number: String) throws -> String {
        let directory = temporaryDirectory()
        do {
            let session = try demoSession(directory: directory)
            for _ in 0..<3 { _ = try session.openWindow(scene: "waiting") }
        }
        let path = directory + "/journal.jsonl"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let edited = text.replacingOccurrences(of: #""window":3,"#, with: #""window":\#(number),"#)
        try #require(edited != text)
        try edited.write(toFile: path, atomically: true, encoding: .utf8)
        return directory
    }

    @Test func scenario9AJournalLineNamingWindow2To63Minus1LeavesWindowNumbersToOpen() throws {
        let directory = try journal(openingThirdWindowAs: "9223372036854775807")
        let recorder = LogRecorder()
        let restored = try demoSession(directory: directory, logger: recorder.logger)
        #expect(files(in: directory).contains { $0.hasPrefix("journal.jsonl.corrupt-") })
        let opened = try #require(try restored.openWindow(scene: "waiting").window)
        #expect(opened > 2)
        #expect(opened < 100)
        #expect(recorder.records.contains { $0.level == .error && $0.message.contains("moved aside") })
        #expect(recorder.records.contains { $0.level == .warning && $0.metadata["number"] == "9223372036854775807" })
    }

    @Test func aValidJournalLineNamingANumberNearTheTopIsSetAsideNamingTheRange() throws {
        let directory = try journal(openingThirdWindowAs: "\(WindowNumber.max - 1)")
        let recorder = LogRecorder()
        let restored = try demoSession(directory: directory, logger: recorder.logger)
        #expect(restored.windows.map(\.number) == [1, 2])
        #expect(try restored.openWindow(scene: "waiting").window == 3)
        let stop = recorder.records.first { $0.message.contains("the journal stops applying") }
        #expect(stop?.metadata["reason"]?.contains("outside the numbers a saved state may name") == true)
    }

    @Test func theHighestStoredNumberStillLoads() throws {
        let directory = try journal(openingThirdWindowAs: "\(WindowNumbering.highestStored)")
        let restored = try demoSession(directory: directory)
        #expect(restored.windows.map(\.number) == [1, 2, WindowNumbering.highestStored])
        #expect(try restored.openWindow(scene: "waiting").window == WindowNumbering.highestStored + 1)
    }

    @Test func aSnapshotWhoseNextWindowIsNearTheTopIsSetAside() throws {
        let directory = temporaryDirectory()
        do {
            let session = try demoSession(directory: directory)
            _ = try session.openWindow(scene: "waiting")
            try session.close()
        }
        let path = directory + "/state.json"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let edited = text.replacingOccurrences(of: #""nextWindow":2"#, with: #""nextWindow":\#(WindowNumber.max)"#)
        try #require(edited != text)
        try edited.write(toFile: path, atomically: true, encoding: .utf8)
        let recorder = LogRecorder()
        let restored = try demoSession(directory: directory, logger: recorder.logger)
        #expect(files(in: directory).contains { $0.hasPrefix("state.json.corrupt-") })
        #expect(try restored.openWindow(scene: "waiting").window == 2)
        let moved = recorder.records.first { $0.message.contains("moved aside") }
        #expect(moved?.metadata["reason"]?.contains("nextWindow") == true)
    }

    @Test func openWindowWithNoNumberLeftIsLimitsExceededAndLogged() throws {
        let recorder = LogRecorder()
        let session = try demoSession(logger: recorder.logger)
        session.nextWindowNumber = WindowNumbering.highest + 1
        #expect {
            try session.openWindow(scene: "waiting")
        } throws: { error in
            guard case .limitsExceeded(let message) = error as? SessionError else { return false }
            return message.contains("window numbers are exhausted")
        }
        #expect(recorder.records.contains { $0.level == .error && $0.message.contains("exhausted") })
    }
}
